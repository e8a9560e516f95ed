// The daemon's answers without a daemon (docs/cli.md "Commands", without a daemon): the request a client command would
// send is answered here by the functions the daemon's routes call (src/answers), serialised as the daemon serialises
// them, with the daemon's error bodies. No HTTP server, router or watcher is loaded (docs/performance.md "In-process
// answers"): a command pays for discovery and its own answer only.
//
// Only what the client sends is answered: the read-only operations of the commands that may answer in-process. A
// query the daemon's schema refuses is refused here with the daemon's message. Each operation's code is loaded when it
// is asked for: `ls` loads no doctor, prompt or file code.

import { capEcho } from '../answers/echo.js';
import { checkAgentProvider, checkProviderFilter } from '../answers/provider-filter.js';
import { skillDetail } from '../answers/skill-detail.js';
import type { WorkspaceView } from '../answers/workspace-view.js';
import type { FetchInit, FetchResponse } from '../client/http-fetch.js';
import type { WorkspaceDiagnosis } from '../discovery/doctor/types.js';
import { SkillsdError } from '../discovery/errors.js';
import { httpLocations, LOCAL_LOCATIONS, type SkillLocations } from '../discovery/skill-locations.js';
import type { Settings } from '../discovery/types.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../live-index/search-index.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';
import type { WorkspaceRegistry } from '../live-index/workspace-registry.js';
import { errorBody, toErrorResponse } from '../server/errors.js';
import { publicBaseUrl } from '../server/request-locations.js';

/** `?severity=` of the doctor's answers, as the daemon's schema lists them (src/server/schemas/doctor.ts). */
const SEVERITIES = ['error', 'warning', 'info'] as const;

/** The router's bound on one path parameter (the daemon's `maxParamLength`): a longer one is refused. */
const MAX_PARAM_LENGTH = 1024;
/** How long an answer waits for a workspace's first index: the in-process one is built before the first request. */
const READY_WAIT_MS = 30_000;

const JSON_TYPE = 'application/json; charset=utf-8';

interface Answer {
  status: number;
  type: string;
  body: string | Buffer;
}

/** Answers one request of the client, as the daemon would. */
export class InProcessAnswers {
  private readonly registry: WorkspaceRegistry;
  private readonly settings: Settings;
  /** One look at the directories per snapshot, shared by the doctor's answers (as the daemon shares it). */
  private readonly diagnoses = new WeakMap<WorkspaceSnapshot, Promise<WorkspaceDiagnosis>>();

  constructor(registry: WorkspaceRegistry, settings: Settings) {
    this.registry = registry;
    this.settings = settings;
  }

  async fetch(url: string, init: FetchInit): Promise<FetchResponse> {
    const method = init.method ?? 'GET';
    const target = url.slice(url.indexOf('/', url.indexOf('//') + 2));
    let answer: Answer;
    try {
      answer = await this.answer(method, target, init);
    } catch (error) {
      const body = error instanceof NotFound ? errorBody(404, 'NotFound', error.message) : toErrorResponse(error);
      answer = { status: body.statusCode, type: JSON_TYPE, body: JSON.stringify(body) };
    }
    return response(answer);
  }

  private async answer(method: string, target: string, init: FetchInit): Promise<Answer> {
    const queryAt = target.indexOf('?');
    const path = queryAt === -1 ? target : target.slice(0, queryAt);
    const query = new URLSearchParams(queryAt === -1 ? '' : target.slice(queryAt + 1));
    const cwd = query.get('cwd') ?? undefined;
    const [, first = '', param, ...rest] = path.split('/');
    const named = first === 'skill' || (rest.length === 0 && (first === 'skills' || first === 'doctor'));
    if (method === 'GET' && named && param !== undefined && param.length > MAX_PARAM_LENGTH) {
      // The router's own refusal, answered by the daemon as a 414.
      throw Object.assign(new Error(`'${path}' is exceeding the max param length`), { statusCode: 414 });
    }
    if (method === 'GET' && first === 'skill' && param !== undefined) return this.skillFile(target, query, cwd);
    if (rest.length === 0) {
      const name = param === undefined ? undefined : decodeParam(param, path);
      if (method === 'GET' && first === 'skills')
        return name === undefined ? this.skills(query, cwd) : this.skill(name, cwd);
      if (method === 'GET' && first === 'doctor')
        return name === undefined ? this.doctor(query, cwd) : this.doctorName(name, query, cwd);
      if (name === undefined) {
        if (method === 'GET' && first === 'search') return this.search(query, cwd);
        if (method === 'GET' && first === 'agents') return this.agents(cwd);
        if (method === 'GET' && first === 'catalog') return this.catalog(query, cwd);
        if (method === 'GET' && first === 'prompt') return this.prompt(query, cwd);
        if (method === 'POST' && first === 'invocations') return this.invocation(query, init, cwd);
      }
    }
    throw new NotFound(`Route ${capEcho(method)} ${capEcho(path)} not found`);
  }

  private async view(cwd: string | undefined): Promise<WorkspaceView> {
    const workspace = await this.registry.get(cwd);
    const snapshot = await workspace.whenReady(READY_WAIT_MS);
    return { workspace, snapshot };
  }

  private async skills(query: URLSearchParams, cwd: string | undefined): Promise<Answer> {
    const hidden = booleanParam(query, 'hidden');
    const provider = query.get('provider') ?? undefined;
    if (provider === '') throw invalid('querystring/provider must NOT have fewer than 1 characters');
    const level = enumParam(query, 'level', ['user', 'project'] as const);
    const q = query.get('q') ?? undefined;
    const agent = query.get('agent') ?? undefined;
    const filter = {
      ...(hidden === undefined ? {} : { hidden }),
      ...(provider === undefined ? {} : { provider }),
      ...(level === undefined ? {} : { level }),
      ...(q === undefined ? {} : { q }),
    };
    if (agent !== undefined) {
      const { agentSkillsAnswer, agentSkillsId } = await import('../answers/agent-answers.js');
      const agentQuery = { ...filter, agent };
      const id = agentSkillsId(agentQuery);
      checkAgentProvider(id, provider);
      const view = await this.view(cwd);
      const state = await view.workspace.agentViews(READY_WAIT_MS);
      return json(agentSkillsAnswer(view.snapshot, state, id, agentQuery).body);
    }
    const { snapshot } = await this.view(cwd);
    // The daemon's rule for an unknown provider (a 400 naming the profile's providers), answered the same here.
    if (provider !== undefined) checkProviderFilter(provider, snapshot.profile);
    return json(snapshot.answer(filter).body);
  }

  private async skill(name: string, cwd: string | undefined): Promise<Answer> {
    const { snapshot } = await this.view(cwd);
    return json(JSON.stringify(skillDetail(snapshot, name)));
  }

  private async search(query: URLSearchParams, cwd: string | undefined): Promise<Answer> {
    const { MAX_SEARCH_QUERY_LENGTH, searchAnswer, searchText } = await import('../answers/search-answer.js');
    const q = query.get('q') ?? undefined;
    if (q !== undefined && q.length > MAX_SEARCH_QUERY_LENGTH) {
      throw invalid(`querystring/q must NOT have more than ${MAX_SEARCH_QUERY_LENGTH} characters`);
    }
    const limit = integerParam(query, 'limit', 1, MAX_SEARCH_LIMIT) ?? DEFAULT_SEARCH_LIMIT;
    const text = searchText(q);
    const { workspace } = await this.view(cwd);
    const { answer } = await searchAnswer(workspace, text, limit);
    return json(JSON.stringify(answer));
  }

  private async diagnosis(view: WorkspaceView): Promise<WorkspaceDiagnosis> {
    let diagnosis = this.diagnoses.get(view.snapshot);
    if (diagnosis === undefined) {
      const { computeDiagnosis } = await import('../answers/doctor-answers.js');
      diagnosis = computeDiagnosis(view);
      this.diagnoses.set(view.snapshot, diagnosis);
    }
    return diagnosis;
  }

  private async doctor(query: URLSearchParams, cwd: string | undefined): Promise<Answer> {
    const severity = enumParam(query, 'severity', SEVERITIES);
    const { doctorReport } = await import('../answers/doctor-answers.js');
    const view = await this.view(cwd);
    return json(JSON.stringify(doctorReport(view, await this.diagnosis(view), severity)));
  }

  private async doctorName(name: string, query: URLSearchParams, cwd: string | undefined): Promise<Answer> {
    const severity = enumParam(query, 'severity', SEVERITIES);
    const { nameReport } = await import('../answers/doctor-answers.js');
    const view = await this.view(cwd);
    const diagnosis = await this.diagnosis(view);
    const state = await view.workspace.agentViews(READY_WAIT_MS);
    return json(JSON.stringify(nameReport(view, name, diagnosis, await state.views.matrix(), severity)));
  }

  private async agents(cwd: string | undefined): Promise<Answer> {
    const { agentMatrixAnswer } = await import('../answers/agent-answers.js');
    const { workspace } = await this.view(cwd);
    return json((await agentMatrixAnswer(await workspace.agentViews(READY_WAIT_MS))).body);
  }

  private async catalog(query: URLSearchParams, cwd: string | undefined): Promise<Answer> {
    const agent = query.get('agent');
    if (agent === null) throw invalid("querystring must have required property 'agent'");
    const contextWindow = integerParam(query, 'contextWindow', 0, Number.POSITIVE_INFINITY);
    const model = query.get('model') ?? undefined;
    if (model !== undefined && (model.length === 0 || model.length > 200)) {
      throw invalid('querystring/model must NOT have fewer than 1 characters or more than 200');
    }
    const { agentCatalogAnswer } = await import('../answers/agent-answers.js');
    const { parseViewId } = await import('../discovery/agents/agents.js');
    const id = parseViewId(agent);
    const { workspace } = await this.view(cwd);
    return json(agentCatalogAnswer(await workspace.agentViews(READY_WAIT_MS), id, contextWindow, model).body);
  }

  private async prompt(query: URLSearchParams, cwd: string | undefined): Promise<Answer> {
    const tools = query.get('tools') ?? undefined;
    const format = enumParam(query, 'format', ['markdown', 'xml'] as const);
    const { promptBlock } = await import('../answers/prompt-answer.js');
    const locations = this.locations(query);
    const { snapshot } = await this.view(cwd);
    const block = promptBlock(
      snapshot,
      { ...(tools === undefined ? {} : { tools }), ...(format === undefined ? {} : { format }) },
      locations,
    );
    return { status: 200, type: 'text/markdown; charset=utf-8', body: block };
  }

  private async invocation(query: URLSearchParams, init: FetchInit, cwd: string | undefined): Promise<Answer> {
    const { invocationAnswer } = await import('../answers/invocation-answer.js');
    const locations = this.locations(query);
    const body = JSON.parse(init.body ?? 'null') as { text?: unknown } | null;
    if (typeof body?.text !== 'string') throw new SkillsdError('BadRequest', 'body/text must be string');
    const { snapshot } = await this.view(cwd);
    return json(JSON.stringify(await invocationAnswer(body.text, snapshot, this.settings, locations)));
  }

  private async skillFile(target: string, query: URLSearchParams, cwd: string | undefined): Promise<Answer> {
    const { directoryListingText, resolveOptionsOf, resolveSkillTarget, skillFileTarget } = await import(
      '../answers/skill-file-target.js'
    );
    const { openSkillFile } = await import('../discovery/files/resolve-skill-url.js');
    const { skillFileLimits } = await import('../discovery/files/skill-file-list.js');
    const list = query.get('list') ?? undefined;
    const archive = query.get('archive') ?? undefined;
    const file = skillFileTarget(target, {
      ...(list === undefined ? {} : { list }),
      ...(archive === undefined ? {} : { archive }),
    });
    const { snapshot } = await this.view(cwd);
    const options = resolveOptionsOf(snapshot, this.settings.symlinks);
    const resource = await resolveSkillTarget(snapshot, file, options, skillFileLimits(this.settings), undefined);
    if (resource.kind === 'directory') {
      return { status: 200, type: 'text/plain; charset=utf-8', body: directoryListingText(resource) };
    }
    // The descriptor checked to be the file resolved, read whole: what the daemon sends of it.
    const { handle } = await openSkillFile(resource);
    try {
      return { status: 200, type: `${resource.contentType}; charset=utf-8`, body: await handle.readFile() };
    } finally {
      await handle.close();
    }
  }

  /** `paths=`: local paths by default (the command runs on this machine), URLs of the configured public address. */
  private locations(query: URLSearchParams): SkillLocations {
    const paths = enumParam(query, 'paths', ['local', 'url'] as const);
    return paths === 'url' ? httpLocations(publicBaseUrl(undefined, this.settings.server.publicUrl)) : LOCAL_LOCATIONS;
  }
}

/** A route nobody serves: the daemon's 404 `NotFound`. */
class NotFound extends Error {}

/**
 * A query the daemon's schema refuses, answered as its validation error (400 `BadRequest`): the validator's text,
 * with the issue that lets the allowed values of a list be named.
 */
function invalid(message: string, issue: { keyword: string; params?: { allowedValues: unknown[] } } = { keyword: '' }) {
  return Object.assign(new Error(message), { validation: [issue] });
}

/** A path parameter, decoded once; malformed percent-encoding is the daemon's 400. */
function decodeParam(param: string, path: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    throw new SkillsdError('BadRequest', `Malformed percent-encoding in URL: ${capEcho(path)}`);
  }
}

function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalid(`querystring/${name} must be boolean`);
}

function enumParam<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw invalid(`querystring/${name} must be equal to one of the allowed values`, {
    keyword: 'enum',
    params: { allowedValues: [...allowed] },
  });
}

function integerParam(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const number = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(number)) throw invalid(`querystring/${name} must be integer`);
  if (number < min) throw invalid(`querystring/${name} must be >= ${min}`);
  if (number > max) throw invalid(`querystring/${name} must be <= ${max}`);
  return number;
}

function json(body: string | Buffer): Answer {
  return { status: 200, type: JSON_TYPE, body };
}

function response(answer: Answer): FetchResponse {
  const bytes = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  const headers = new Map([
    ['content-type', answer.type],
    ['content-length', String(bytes.length)],
  ]);
  return {
    status: answer.status,
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
    body: (async function* () {
      yield bytes;
    })(),
    text: async () => bytes.toString('utf8'),
    json: async () => JSON.parse(bytes.toString('utf8')) as unknown,
    arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  };
}
