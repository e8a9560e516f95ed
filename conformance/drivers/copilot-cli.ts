// GitHub Copilot CLI (`@github/copilot`): asked through its headless JSON-RPC server (`copilot --headless --stdio`,
// the server the Copilot SDK starts), which frames every message LSP-style (`Content-Length: N\r\n\r\n<json>`), not
// as JSON lines. One process answers both questions: `session.skills.list` gives the loaded skills, and one prompt in
// the same session sends the model request whose system message holds the catalog.
//
// Offline: `COPILOT_OFFLINE=true` turns off authentication, telemetry and updates; it insists on a local provider
// (`COPILOT_PROVIDER_BASE_URL`), and the session itself is given a BYOK provider pointing at the recording endpoint
// (the headless server ignores the provider variables for a session's model calls). No login is needed.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from '../lib/process.js';
import type { AgentDriver, Answer, InstalledAgent, LoadedSkill } from '../lib/types.js';

/** The model the session runs when a scenario names none: an OpenAI model spoken to through Chat Completions. */
const DEFAULT_MODEL = 'gpt-4o';
const STEP_MS = 20_000;

/** The binary unpacks its JavaScript on first run into this folder (`COPILOT_PKG_CACHE_HOME`), once per install. */
function packageCache(install: InstalledAgent): string {
  return join(install.dir, 'pkg-cache');
}

function agentEnv(
  base: Record<string, string>,
  install: InstalledAgent,
  providerUrl: string,
  model: string,
  scratch?: string,
) {
  return {
    ...base,
    COPILOT_PKG_CACHE_HOME: packageCache(install),
    COPILOT_AUTO_UPDATE: 'false',
    // Offline mode requires a provider and a model even for `--version`.
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: providerUrl,
    COPILOT_MODEL: model,
    NO_COLOR: '1',
    ...(scratch === undefined ? {} : { TMPDIR: scratch }),
  };
}

export const driver: AgentDriver = {
  agent: 'copilot-cli',
  timeoutS: 60,

  async prepare(install, env) {
    // `--version` is enough to make the binary unpack itself; later runs find `.extraction-complete` and start fast.
    const result = await runProcess(install.bin, ['--version'], {
      cwd: install.dir,
      env: agentEnv(env, install, 'http://127.0.0.1:9/v1', DEFAULT_MODEL),
      timeoutMs: 120_000,
    });
    if (result.code !== 0) throw new Error(`copilot --version failed (${result.code}): ${result.stderr}`);
  },

  async ask(ctx) {
    const providerUrl = `${ctx.endpoint.url}/v1`;
    const model = (ctx.catalog !== false && ctx.catalog.model) || DEFAULT_MODEL;
    const server = new ContentLengthRpc(
      ctx.install.bin,
      ['--headless', '--no-auto-update', '--stdio', '--no-auto-login'],
      { cwd: ctx.scenario.cwd, env: agentEnv(ctx.env, ctx.install, providerUrl, model, ctx.scratch) },
    );
    const abort = () => void server.close();
    ctx.signal.addEventListener('abort', abort, { once: true });
    try {
      await server.request('connect', {});
      const window = ctx.catalog === false ? undefined : ctx.catalog.contextWindow;
      const created = await server.request<{ sessionId: string }>('session.create', {
        // The CLI itself resolves its working directory through links; the SDK passes it as given.
        workingDirectory: realpathSync(ctx.scenario.cwd),
        enableConfigDiscovery: true,
        model,
        provider: {
          type: 'openai',
          baseUrl: providerUrl,
          apiKey: 'conformance',
          ...(window === undefined ? {} : { maxPromptTokens: window }),
        },
      });
      const sessionId = created.sessionId;
      const listed = await server.request<{ skills: ListedSkill[] }>('session.skills.list', { sessionId });
      const answer: Answer = {
        // `builtin` is the source of the skills shipped inside the package (customize-cloud-agent, github-pr-media);
        // a file skill that takes one of their names reports its own source and stays.
        skills: listed.skills.filter((skill) => skill.source !== 'builtin').map(toLoaded),
        catalog: null,
      };
      // The session lists no rejected files; the server's own discovery of the same workspace names them.
      const discovered = await server.request<{ errors?: string[] }>('skills.discover', {
        projectPaths: [realpathSync(ctx.scenario.cwd)],
      });
      answer.rejected = (discovered.errors ?? []).map(splitError);
      if (ctx.catalog !== false) {
        ctx.endpoint.take();
        // The turn ends with `session.idle` (also after a failed model call, which leaves the catalog null).
        const idle = server.notification((message) => isSessionEvent(message, sessionId, ['session.idle']));
        await server.request('session.send', { sessionId, prompt: 'hi' });
        await idle;
        answer.catalog = extractCatalog(ctx.endpoint.take().map((request) => request.body));
      }
      answer.notes = server.notes();
      return answer;
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      await server.close();
    }
  },
};

interface ListedSkill {
  name: string;
  description: string;
  source: string;
  path?: string;
}

function toLoaded(skill: ListedSkill): LoadedSkill {
  return { name: skill.name, path: skill.path ?? '', description: skill.description };
}

/** `"<path>: <message>"`, the form of the server's discovery errors; the path holds no `: ` in these trees. */
function splitError(error: string): { path: string; message: string } {
  const at = error.indexOf(': ');
  return at === -1 ? { path: '', message: error } : { path: error.slice(0, at), message: error.slice(at + 2) };
}

const CATALOG_START = '<available_skills>';
const CATALOG_END = '</available_skills>';

/**
 * The catalog is the `<available_skills>` block of the system message, from `<available_skills>` to
 * `</available_skills>` inclusive. When the 15,000-character allowance leaves skills out, Copilot names them on a
 * line `Additional skills available (invoke by name): …` inside the block, just before `</available_skills>`, so the
 * slice holds it too. Copilot nests the block in the `<skill>` section of its tool notes; that frame is the same for
 * every tree and is not part of the catalog. The built-in skills' entries are part of the text the model gets (and
 * of the allowance) and stay in. Nothing in the block varies from run to run. A request without the block gives `''`.
 */
function extractCatalog(bodies: string[]): string | null {
  for (const body of bodies) {
    let system: string | undefined;
    try {
      const parsed = JSON.parse(body) as { messages?: Array<{ role: string; content: unknown }> };
      const content = parsed.messages?.find((message) => message.role === 'system')?.content;
      if (typeof content === 'string') system = content;
    } catch {
      continue;
    }
    if (system === undefined) continue;
    const start = system.indexOf(CATALOG_START);
    const end = system.indexOf(CATALOG_END, start);
    return start === -1 || end === -1 ? '' : system.slice(start, end + CATALOG_END.length);
  }
  return null;
}

function isSessionEvent(message: RpcMessage, sessionId: string, types: string[]): boolean {
  if (message.method !== 'session.event') return false;
  const params = message.params as { sessionId?: string; event?: { type?: string } } | undefined;
  return params?.sessionId === sessionId && types.includes(params.event?.type ?? '');
}

interface RpcMessage {
  jsonrpc?: string;
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * A JSON-RPC peer over a child's stdio with LSP framing. Requests the server makes of the client (permission or
 * input prompts) are answered with an empty result; every notification is kept for `notification()` and the notes.
 */
class ContentLengthRpc {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (e: Error) => void }>();
  private readonly received: RpcMessage[] = [];
  private waiters: Array<{ match: (message: RpcMessage) => boolean; resolve: () => void }> = [];
  private stderr = '';
  private exitError: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(command: string, args: string[], options: { cwd: string; env: Record<string, string> }) {
    this.child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: 'pipe', detached: true });
    this.child.stdin.on('error', () => {});
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      const end = (error: Error) => {
        this.exitError = error;
        for (const { reject } of this.pending.values()) reject(error);
        this.pending.clear();
        resolve();
      };
      this.child.on('close', (code) =>
        end(new Error(`copilot ended (code ${code}); stderr: ${this.stderr.slice(-2000)}`)),
      );
      this.child.on('error', end);
    });
  }

  request<T = unknown>(method: string, params: unknown): Promise<T> {
    if (this.exitError !== null) return Promise.reject(this.exitError);
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer within ${STEP_MS} ms; stderr: ${this.stderr.slice(-2000)}`));
      }, STEP_MS);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Resolves on the first notification received from now on that `match` accepts. */
  notification(match: (message: RpcMessage) => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter = { match, resolve };
      const timer = setTimeout(() => reject(new Error(`no matching notification within ${STEP_MS} ms`)), STEP_MS);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(waiter);
      void this.exited.then(() => {
        clearTimeout(timer);
        reject(this.exitError);
      });
    });
  }

  /** Warnings and errors the session reported, and whatever the process wrote on stderr. */
  notes(): string[] {
    const notes: string[] = [];
    for (const message of this.received) {
      const event = (message.params as { event?: { type?: string; data?: { message?: string } } } | undefined)?.event;
      if (event?.type === 'session.warning' || event?.type === 'session.error') {
        notes.push(`${event.type}: ${event.data?.message ?? ''}`);
      }
    }
    for (const line of this.stderr.split('\n')) if (line.trim() !== '') notes.push(line);
    return notes;
  }

  async close(): Promise<void> {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await this.exited;
  }

  private write(message: RpcMessage): void {
    const json = JSON.stringify(message);
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = /content-length:\s*(\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('latin1'));
      if (length === null) throw new Error(`copilot sent a frame without Content-Length`);
      const start = headerEnd + 4;
      const end = start + Number(length[1]);
      if (this.buffer.length < end) return;
      const message = JSON.parse(this.buffer.subarray(start, end).toString('utf8')) as RpcMessage;
      this.buffer = this.buffer.subarray(end);
      this.dispatch(message);
    }
  }

  private dispatch(message: RpcMessage): void {
    if (message.method === undefined) {
      const waiting = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (waiting === undefined) return;
      this.pending.delete(message.id as number);
      if (message.error) waiting.reject(new Error(`copilot: ${message.error.message}`));
      else waiting.resolve(message.result);
      return;
    }
    if (message.id !== undefined) this.write({ jsonrpc: '2.0', id: message.id, result: {} });
    this.received.push(message);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(message)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve();
      }
    }
  }
}
