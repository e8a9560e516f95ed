// A typed client of the daemon's REST and SSE API (docs/api.md §Endpoints): what the command line is built on, and what an
// editor plugin can use as it is. Every call answers for one workspace (`cwd`, the daemon's default when absent).
//
//   const daemon = await findDaemon({ env: process.env, home: os.homedir(), cwd: process.cwd() });
//   const client = new SkillsdClient(daemon);
//   const { skills } = await client.skills();
//   client.subscribe({ onEvent: (e) => …, onReset: () => client.skills().then(…) });

import type {
  AgentCatalogAnswer,
  AgentMatrixAnswer,
  AgentSkillsAnswer,
  AgentSkillsFilter,
  CollisionsAnswer,
  ContextFilesAnswer,
  DoctorOptions,
  DoctorReport,
  HealthAnswer,
  InvocationAnswer,
  NameDiagnosis,
  SearchAnswer,
  SkillDetail,
  SkillsAnswer,
  SkillsdEvent,
  SkillsFilter,
} from './api-types.js';
import { DaemonNotTrustedError, DaemonUnreachableError, SkillsdApiError } from './errors.js';
import { type FetchInit, type FetchLike, type FetchResponse, httpFetch } from './http-fetch.js';
import { checkListener } from './listener-owner.js';

export type { FetchInit, FetchLike, FetchResponse } from './http-fetch.js';

export interface SkillsdClientOptions {
  /** `http://127.0.0.1:7420`; a trailing slash is ignored. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** The workspace every call answers for (`?cwd=`); the daemon's default workspace when absent. */
  cwd?: string;
  /** The transport (default: `node:http`, see http-fetch.ts; the global `fetch` answers too). */
  fetch?: FetchLike;
  /** How long a call waits for the daemon's answer to start (default 30 s); event streams are not bounded. */
  timeoutMs?: number;
  /**
   * How many times a call answered 503 (`NotReady` while the first index builds, `Overloaded` while the daemon sheds
   * load) is tried again, after its `Retry-After` capped at 2 s (default 3).
   */
  retries?: number;
  /**
   * How long a call that reads the agent views (`agents`, `agentSkills`, `catalog`, `doctorSkill`) keeps asking while
   * the daemon answers 503 `NotReady`, each time after its `Retry-After`: the views are computed on their first use,
   * which on a large tree outlasts the daemon's request wait (docs/api.md "Agent views"). Default 0: such a call is
   * tried again like any other (`retries`).
   */
  viewsWaitMs?: number;
  /**
   * Told while a call waits for the agent views: the milliseconds waited so far, at once and then every second, and
   * `undefined` when the wait ends (answered or not).
   */
  onViewsWait?: (elapsedMs: number | undefined) => void;
  /**
   * Before every request, check that the socket listening on a loopback URL belongs to this user, and send nothing
   * otherwise (throws `DaemonNotTrustedError`; docs/cli.md "Trusting only your own daemon"). Default true; false only
   * for a `fetch` that opens no socket.
   */
  checkListener?: boolean;
}

/** A conditional `GET /skills`: `notModified` when the daemon answered 304 to the tag given. */
export type ConditionalSkills =
  | { notModified: true; etag: string }
  | { notModified: false; etag: string; answer: SkillsAnswer };

export interface SkillFile {
  body: Buffer;
  contentType: string;
  /** The absolute path the daemon served (`X-Skill-Source-Path`). */
  sourcePath: string | undefined;
}

export interface PromptOptions {
  tools?: string[];
  format?: 'markdown' | 'xml';
  paths?: 'local' | 'url';
}

export interface SubscribeOptions {
  /** Called for every event, `hello` and `reset` included, in order. */
  onEvent(event: SkillsdEvent): void;
  /**
   * The daemon could not replay what was missed (`reset`): whatever the caller built from earlier answers is stale and
   * must be fetched again. Called after `onEvent` saw the `reset`.
   */
  onReset?(generation: number): void;
  /** A connection ended or failed; the subscription reconnects after `retryMs` unless closed. */
  onDisconnect?(error: unknown): void;
  /** Event types to receive (`hello` and `reset` always come). */
  types?: string[];
  /**
   * Follow one agent's view (`GET /events?agent=`, docs/api.md "Agent views") instead of the default view: its own
   * ids, `index` and `collision` events of that view. An unknown agent is refused (400 `UnknownAgent`).
   */
  agent?: string;
  /** Resume after this event id. */
  lastEventId?: string;
  /** Delay before a reconnection; the daemon's `retry:` replaces it unless `maxRetryMs` caps it (default 3000). */
  retryMs?: number;
  maxRetryMs?: number;
  /**
   * Looks the daemon up again before a reconnection (a daemon started with `--port 0` comes back on another port):
   * the location it answers is used from then on, resuming with `Last-Event-ID`. Undefined keeps the current one.
   */
  relocate?(): Promise<{ url: string; token?: string } | undefined>;
  /** The subscription moved to the daemon at `url` (what `relocate` answered). */
  onRelocate?(url: string): void;
}

export interface Subscription {
  /** The id of the last event received: what a reconnection sends as `Last-Event-ID`. */
  readonly lastEventId: string | undefined;
  /** Ends the subscription; `done` resolves once its connection is closed. */
  close(): void;
  readonly done: Promise<void>;
}

const DEFAULT_RETRY_MS = 3000;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 3;
const MAX_RETRY_AFTER_MS = 2000;
const VIEWS_WAIT_TICK_MS = 1000;

export class SkillsdClient {
  readonly url: string;
  readonly cwd: string | undefined;
  private readonly token: string | undefined;
  private readonly fetchFn: FetchLike;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly viewsWaitMs: number;
  private readonly onViewsWait: ((elapsedMs: number | undefined) => void) | undefined;
  private readonly checksListener: boolean;

  constructor(options: SkillsdClientOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retries = options.retries ?? DEFAULT_RETRIES;
    this.viewsWaitMs = options.viewsWaitMs ?? 0;
    this.onViewsWait = options.onViewsWait;
    this.url = options.url.replace(/\/+$/, '');
    this.token = options.token;
    this.cwd = options.cwd;
    this.fetchFn = options.fetch ?? httpFetch;
    this.checksListener = options.checkListener ?? true;
  }

  /** A client of the same daemon for another workspace. */
  forWorkspace(cwd: string | undefined): SkillsdClient {
    return new SkillsdClient({
      url: this.url,
      ...(this.token === undefined ? {} : { token: this.token }),
      ...(cwd === undefined ? {} : { cwd }),
      fetch: this.fetchFn,
      timeoutMs: this.timeoutMs,
      retries: this.retries,
      viewsWaitMs: this.viewsWaitMs,
      ...(this.onViewsWait === undefined ? {} : { onViewsWait: this.onViewsWait }),
      checkListener: this.checksListener,
    });
  }

  /** A client of the same workspace on the daemon at another location. */
  private moveTo(location: { url: string; token?: string }): SkillsdClient {
    return new SkillsdClient({
      url: location.url,
      ...(location.token === undefined ? {} : { token: location.token }),
      ...(this.cwd === undefined ? {} : { cwd: this.cwd }),
      fetch: this.fetchFn,
      timeoutMs: this.timeoutMs,
      retries: this.retries,
    });
  }

  health(): Promise<HealthAnswer> {
    return this.json('/health');
  }

  async skills(filter: SkillsFilter = {}): Promise<SkillsAnswer> {
    const result = await this.skillsIfChanged(undefined, filter);
    if (result.notModified) throw new Error('unexpected 304 without If-None-Match');
    return result.answer;
  }

  /** `GET /skills` with `If-None-Match: etag`: cheap polling, a 304 costs no body. */
  async skillsIfChanged(etag: string | undefined, filter: SkillsFilter = {}): Promise<ConditionalSkills> {
    const query = {
      ...(filter.hidden === undefined ? {} : { hidden: String(filter.hidden) }),
      ...(filter.provider === undefined ? {} : { provider: filter.provider }),
      ...(filter.level === undefined ? {} : { level: filter.level }),
      ...(filter.q === undefined ? {} : { q: filter.q }),
    };
    const response = await this.request('/skills', query, {
      headers: etag === undefined ? {} : { 'if-none-match': etag },
    });
    const tag = response.headers.get('etag') ?? '';
    if (response.status === 304) return { notModified: true, etag: tag };
    return { notModified: false, etag: tag, answer: (await response.json()) as SkillsAnswer };
  }

  /** `GET /search`: skills ranked by how well they match `query` (at most `limit`, default 10, at most 100). */
  search(query: string, options: { limit?: number } = {}): Promise<SearchAnswer> {
    return this.json('/search', { q: query, ...(options.limit === undefined ? {} : { limit: String(options.limit) }) });
  }

  skill(name: string): Promise<SkillDetail> {
    return this.json(`/skills/${encodeURIComponent(name)}`);
  }

  collisions(): Promise<CollisionsAnswer> {
    return this.json('/collisions');
  }

  contextFiles(): Promise<ContextFilesAnswer> {
    return this.json('/context-files');
  }

  /** `GET /doctor`; `severity` keeps findings of that severity or worse. */
  doctor({ severity }: DoctorOptions = {}): Promise<DoctorReport> {
    return this.json('/doctor', severity === undefined ? {} : { severity });
  }

  /** `GET /doctor/{name}`: it carries what each agent does with the name, so it reads the agent views. */
  doctorSkill(name: string, { severity }: DoctorOptions = {}): Promise<NameDiagnosis> {
    return this.viewsJson(`/doctor/${encodeURIComponent(name)}`, severity === undefined ? {} : { severity });
  }

  /** `GET /skills?agent=`: what that agent loads from the same folders. */
  agentSkills(agent: string, filter: AgentSkillsFilter = {}): Promise<AgentSkillsAnswer> {
    return this.viewsJson('/skills', {
      agent,
      ...(filter.hidden === undefined ? {} : { hidden: String(filter.hidden) }),
      ...(filter.level === undefined ? {} : { level: filter.level }),
      ...(filter.q === undefined ? {} : { q: filter.q }),
    });
  }

  /** `GET /agents`: every candidate × every agent. */
  agents(): Promise<AgentMatrixAnswer> {
    return this.viewsJson('/agents');
  }

  /** `GET /catalog`: one agent's catalog under its budget, for a window and a model where they matter. */
  catalog(agent: string, contextWindow?: number, model?: string): Promise<AgentCatalogAnswer> {
    return this.viewsJson('/catalog', {
      agent,
      ...(contextWindow === undefined ? {} : { contextWindow: String(contextWindow) }),
      ...(model === undefined ? {} : { model }),
    });
  }

  /** A file of a skill (`skill://<name>/<path>`; SKILL.md when `path` is absent), as raw bytes. */
  async file(name: string, path?: string): Promise<SkillFile> {
    const relative = path === undefined || path === '' ? '' : `/${encodePath(path)}`;
    const response = await this.request(`/skill/${encodeURIComponent(name)}${relative}`);
    return {
      body: Buffer.from(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? '',
      sourcePath: response.headers.get('x-skill-source-path') ?? undefined,
    };
  }

  async prompt(options: PromptOptions = {}): Promise<string> {
    const query = {
      ...(options.tools === undefined ? {} : { tools: options.tools.join(',') }),
      ...(options.format === undefined ? {} : { format: options.format }),
      ...(options.paths === undefined ? {} : { paths: options.paths }),
    };
    return (await this.request('/prompt', query)).text();
  }

  invoke(text: string, options: { paths?: 'local' | 'url' } = {}): Promise<InvocationAnswer> {
    return this.json('/invocations', options.paths === undefined ? {} : { paths: options.paths }, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
  }

  /**
   * `GET /events` (with `agent`, the stream of that agent's view), reconnecting after a drop with `Last-Event-ID` so
   * that nothing is missed; a `reset` (the gap was too long, or the daemon restarted) calls `onReset`.
   */
  subscribe(options: SubscribeOptions): Subscription {
    const controller = new AbortController();
    let lastEventId = options.lastEventId;
    let retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
    const maxRetryMs = options.maxRetryMs ?? Number.POSITIVE_INFINITY;
    let target: SkillsdClient = this;
    let first = true;
    const run = async (): Promise<void> => {
      // Loaded here, not with the client: a one-shot command (`skillsd status`) never reads an event stream.
      const { EventStreamParser } = await import('./event-stream-parser.js');
      while (!controller.signal.aborted) {
        if (!first && options.relocate !== undefined) {
          const found = await options.relocate().catch(() => undefined);
          if (controller.signal.aborted) return;
          if (found !== undefined && found.url.replace(/\/+$/, '') !== target.url) {
            target = target.moveTo(found);
            options.onRelocate?.(target.url);
          }
        }
        first = false;
        try {
          const query: Record<string, string> = {
            ...(options.types === undefined ? {} : { types: options.types.join(',') }),
            ...(options.agent === undefined ? {} : { agent: options.agent }),
          };
          const headers: Record<string, string> = { accept: 'text/event-stream' };
          if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
          const response = await target.request('/events', query, { headers, signal: controller.signal });
          if (response.body === null) throw new Error('the event stream has no body');
          const parser = new EventStreamParser();
          const decoder = new TextDecoder();
          for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
            for (const raw of parser.push(decoder.decode(chunk, { stream: true }))) {
              if (raw.retry !== undefined) retryMs = raw.retry;
              if (raw.id !== undefined) lastEventId = raw.id;
              const data = raw.data === '' ? null : (JSON.parse(raw.data) as unknown);
              options.onEvent({ id: raw.id, event: raw.event, data });
              if (raw.event === 'reset') options.onReset?.((data as { generation: number }).generation);
            }
          }
          options.onDisconnect?.(new Error('the daemon ended the event stream'));
        } catch (error) {
          if (controller.signal.aborted) return;
          options.onDisconnect?.(error);
        }
        await delay(Math.min(retryMs, maxRetryMs), controller.signal);
      }
    };
    const done = run();
    return {
      get lastEventId() {
        return lastEventId;
      },
      close: () => controller.abort(),
      done,
    };
  }

  private async json<T>(path: string, query: Record<string, string> = {}, init: FetchInit = {}): Promise<T> {
    return (await (await this.request(path, query, init)).json()) as T;
  }

  /** A GET that reads the agent views: waits out their first computation (`viewsWaitMs`). */
  private async viewsJson<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    return (await (await this.request(path, query, {}, true)).json()) as T;
  }

  /**
   * One request; an error answer throws `SkillsdApiError`, no answer at all `DaemonUnreachableError`. A 503 is tried
   * again a few times: the daemon says when (`Retry-After`), and both of its causes pass by themselves. A `NotReady`
   * of a call that reads the agent views is tried again until `viewsWaitMs` has passed, whether the views or the
   * workspace's first index (which they wait for) are not there yet.
   */
  private async request(
    path: string,
    query: Record<string, string> = {},
    init: FetchInit = {},
    readsViews = false,
  ): Promise<FetchResponse> {
    const started = Date.now();
    let endWait: (() => void) | undefined;
    try {
      for (let retried = 0; ; ) {
        try {
          return await this.requestOnce(path, query, init);
        } catch (error) {
          if (!(error instanceof SkillsdApiError) || error.status !== 503 || init.signal?.aborted) throw error;
          const retryAfterMs = error.retryAfterMs ?? MAX_RETRY_AFTER_MS;
          if (readsViews && this.viewsWaitMs > 0 && error.code === 'NotReady') {
            const left = this.viewsWaitMs - (Date.now() - started);
            if (left <= 0) throw error;
            endWait ??= this.tellViewsWait(started);
            await delay(Math.min(retryAfterMs, left), init.signal ?? NEVER);
            continue;
          }
          if (retried++ >= this.retries) throw error;
          await delay(Math.min(retryAfterMs, MAX_RETRY_AFTER_MS), init.signal ?? NEVER);
        }
      }
    } finally {
      endWait?.();
    }
  }

  /** Tells `onViewsWait` how long the call has waited, now and every second; the function returned ends it. */
  private tellViewsWait(started: number): () => void {
    const tell = this.onViewsWait;
    if (tell === undefined) return () => {};
    tell(Date.now() - started);
    const ticks = setInterval(() => tell(Date.now() - started), VIEWS_WAIT_TICK_MS);
    // The wait's own timers keep the process alive; the ticks only report.
    ticks.unref();
    return () => {
      clearInterval(ticks);
      tell(undefined);
    };
  }

  private async requestOnce(path: string, query: Record<string, string>, init: FetchInit): Promise<FetchResponse> {
    if (this.checksListener) await this.verifyListener();
    const params = new URLSearchParams(query);
    if (this.cwd !== undefined) params.set('cwd', this.cwd);
    const search = params.size > 0 ? `?${params}` : '';
    const headers: Record<string, string> = { ...init.headers };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    // A deadline on the answer's start, on a timer that keeps the process alive: a connection closed without a reset
    // leaves undici's fetch (when the caller passes it) pending with nothing else holding the event loop, and the process would end silently.
    const deadline = init.signal == null ? new AbortController() : undefined;
    const timer = deadline === undefined ? undefined : setTimeout(() => deadline.abort(), this.timeoutMs);
    let response: FetchResponse;
    try {
      response = await this.fetchFn(`${this.url}${path}${search}`, {
        ...init,
        headers,
        ...(deadline === undefined ? {} : { signal: deadline.signal }),
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError' && deadline === undefined) throw error;
      throw new DaemonUnreachableError(this.url, error);
    } finally {
      clearTimeout(timer);
    }
    if (response.status >= 400) throw await apiError(response);
    return response;
  }

  /**
   * Refuses to talk to a loopback port another user listens on. Made before every request, not once: a daemon that
   * dies frees its port, and a pooled connection or a reconnecting subscription would otherwise reach whoever takes
   * it next.
   */
  private async verifyListener(): Promise<void> {
    let check: Awaited<ReturnType<typeof checkListener>>;
    try {
      check = await checkListener(this.url);
    } catch (error) {
      throw new DaemonUnreachableError(this.url, error);
    }
    if (check.verdict === 'foreign') {
      throw new DaemonNotTrustedError(
        this.url,
        `the listener on ${check.where} belongs to uid ${check.uid}, not to you`,
      );
    }
    if (check.verdict === 'none') throw new DaemonUnreachableError(this.url, new Error('nothing listens there'));
  }
}

const NEVER = new AbortController().signal;

async function apiError(response: FetchResponse): Promise<SkillsdApiError> {
  const text = await response.text();
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  const retryAfterMs = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : undefined;
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.code === 'string' && typeof body.message === 'string') {
      return new SkillsdApiError(response.status, body.code, body.message, retryAfterMs);
    }
  } catch {
    // Not the API's error shape (a proxy, another server on that port): reported by status.
  }
  return new SkillsdApiError(response.status, 'HttpError', `HTTP ${response.status}: ${text.slice(0, 200)}`);
}

const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

/**
 * A relative path, percent-encoded segment by segment. URL parsing resolves `.` and `..` segments (even as `%2e%2e`)
 * before a request is sent, so `a/../x` would silently ask for `x`: such a path is sent as one encoded segment
 * (`a%2F..%2Fx`) instead, and the daemon refuses it as the traversal it is (docs/api.md §Errors).
 */
function encodePath(path: string): string {
  if (!DOT_SEGMENT.test(path)) return path.split('/').map(encodeURIComponent).join('/');
  const encoded = encodeURIComponent(path);
  return /^\.+$/.test(encoded) ? `${encoded}%2F` : encoded;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
