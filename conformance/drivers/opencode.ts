// OpenCode (opencode-ai): one `opencode serve` process answers both questions.
// - Loaded skills: `GET /skill?directory=<C>`, the same list `opencode debug skill` prints (Skill.all): name,
//   description (absent when the file has none), location (the SKILL.md path as found under its root: links below
//   the root stay as found; the workspace itself OpenCode resolves to its real path).
// - Catalog: a session sends `hi` to a provider configured through OPENCODE_CONFIG_CONTENT whose OpenAI-compatible
//   base URL is the recording endpoint; the agent's request (the one carrying tools; the title request has none)
//   holds the system message, and the catalog is its skills section (see catalogOf).
// - Rejected files: none reported. OpenCode drops a file silently (YAML errors, duplicate keys, a non-string name or
//   description log nothing, even at WARN with `--print-logs`); its log lines (`duplicate skill name`, why it would not
//   start) become `notes`.
// `directory` is the workspace as given (not its real path), as the TUI started from a shell passes it
// (`process.env.PWD ?? process.cwd()`); PWD is set to it too.

import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { AgentDriver, Answer, DriverContext, LoadedSkill, RecordedRequest } from '../lib/types.js';

/** The built-in skill (docs/conformance.md "How each agent is asked"), left out of `skills`; a file skill of that name keeps its path. */
const BUILT_IN_LOCATION = '<built-in>';
const CATALOG_START = 'Skills provide specialized instructions and workflows for specific tasks.';
const CATALOG_END = '\n</available_skills>';
/** What OpenCode's catalog says instead of a list when no skill has a description. */
const CATALOG_EMPTY = 'No skills are currently available.';

interface ServedSkill {
  name: string;
  description?: string;
  location: string;
}

export const driver: AgentDriver = {
  agent: 'opencode',
  timeoutS: 90,
  async ask(ctx) {
    const env: Record<string, string> = {
      // Data, cache and state go to the scratch directory, not the tree's HOME (they hold no skill roots); the
      // scenario's own values win.
      XDG_DATA_HOME: join(ctx.scratch, 'data'),
      XDG_CACHE_HOME: join(ctx.scratch, 'cache'),
      XDG_STATE_HOME: join(ctx.scratch, 'state'),
      ...ctx.env,
      PWD: ctx.scenario.cwd,
      TMPDIR: ctx.scratch,
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_TERMINAL_TITLE: '1',
      // Inline config: the local model and no sharing, updates, LSP or formatters. Its presence also stops OpenCode
      // writing `<CFG>/opencode.json` at start.
      OPENCODE_CONFIG_CONTENT: JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        model: 'conformance/model',
        small_model: 'conformance/model',
        autoupdate: false,
        share: 'disabled',
        lsp: false,
        formatter: false,
        snapshot: false,
        provider: {
          conformance: {
            npm: '@ai-sdk/openai-compatible',
            name: 'conformance',
            options: { baseURL: `${ctx.endpoint.url}/v1`, apiKey: 'conformance' },
            models: { model: { name: 'model' } },
          },
        },
      }),
    };
    const server = new Server(ctx, env);
    try {
      const url = await server.listening();
      if (url === null) {
        // OpenCode refused to start (a bad OPENCODE_DISABLE_* value, a file at .opencode): it loads nothing.
        return { skills: [], catalog: null, notes: server.notes() };
      }
      const query = `directory=${encodeURIComponent(ctx.scenario.cwd)}`;
      const response = await fetch(`${url}/skill?${query}`, { signal: ctx.signal });
      if (!response.ok) {
        // OpenCode cannot open this workspace (a file at .opencode): the TUI stops there, the server answers 500.
        const error = `GET /skill: ${response.status} ${await response.text()}`;
        return { skills: [], catalog: null, notes: [error, ...server.notes()] };
      }
      const served = (await response.json()) as ServedSkill[];
      const skills: LoadedSkill[] = served
        .filter((skill) => skill.location !== BUILT_IN_LOCATION)
        .map((skill) => ({ name: skill.name, path: skill.location, description: skill.description ?? '' }));
      const notes = served
        .filter((skill) => skill.location !== BUILT_IN_LOCATION && skill.description === undefined)
        .map((skill) => `${skill.location}: loaded without a description (left out of the catalog)`);
      let catalog: string | null = null;
      if (ctx.catalog !== false) catalog = await askCatalog(ctx, url, query);
      const answer: Answer = { skills, catalog, notes: [...notes, ...server.notes()] };
      return answer;
    } finally {
      server.stop();
    }
  },
};

/** Sends `hi` in a new session and returns the skills section of the system prompt the model got. */
async function askCatalog(ctx: DriverContext, url: string, query: string): Promise<string> {
  ctx.endpoint.take();
  const session = (await postJson(`${url}/session?${query}`, {}, ctx.signal)) as { id: string };
  // The reply is not awaited: the recorded request is all that is needed.
  void postJson(
    `${url}/session/${session.id}/message?${query}`,
    { parts: [{ type: 'text', text: 'hi' }] },
    ctx.signal,
  ).catch(() => {});
  // Until the run's time is up (the harness's limit ends the wait).
  while (!ctx.signal.aborted) {
    for (const request of ctx.endpoint.take()) {
      const system = agentSystemPrompt(request);
      if (system !== null) return catalogOf(system);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('OpenCode sent no request with tools to the model endpoint in time');
}

/** The system text of the agent's own request (it carries tools), or null for another request (the title). */
function agentSystemPrompt(request: RecordedRequest): string | null {
  if (!request.path.includes('/chat/completions')) return null;
  const body = JSON.parse(request.body) as { tools?: unknown[]; messages?: Array<{ role: string; content: unknown }> };
  if (body.tools === undefined || body.tools.length === 0) return null;
  return (body.messages ?? [])
    .filter((message) => message.role === 'system')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n');
}

/**
 * The skills section, one element of OpenCode's system prompt (SystemPrompt.skills): from its first line
 * `Skills provide specialized instructions and workflows for specific tasks.` to the end of the closing
 * `</available_skills>` line, or to the end of `No skills are currently available.` when no skill has a description.
 * Nothing in it varies between runs. No section at all → "".
 */
function catalogOf(system: string): string {
  const start = system.indexOf(CATALOG_START);
  if (start < 0) return '';
  const intro = system.indexOf('\n', system.indexOf('\n', start) + 1) + 1;
  if (system.startsWith(CATALOG_EMPTY, intro)) return system.slice(start, intro + CATALOG_EMPTY.length);
  const end = system.indexOf(CATALOG_END, intro);
  if (end < 0) throw new Error(`OpenCode's skills section has no end: ${system.slice(start, start + 500)}`);
  return system.slice(start, end + CATALOG_END.length);
}

/** `opencode serve` in its own process group, with its log lines on stderr. */
class Server {
  private readonly child: ChildProcess;
  private stdout = '';
  private stderr = '';
  private readonly exited: Promise<number | null>;
  private readonly signal: AbortSignal;

  constructor(ctx: DriverContext, env: Record<string, string>) {
    this.signal = ctx.signal;
    const args = ['serve', '--hostname', '127.0.0.1', '--port', '0', '--print-logs', '--log-level', 'WARN'];
    this.child = spawn(ctx.install.bin, args, { cwd: ctx.scenario.cwd, env, stdio: 'pipe', detached: true });
    this.child.stdin?.end();
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code) => resolve(code));
      this.child.on('error', () => resolve(null));
    });
    ctx.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  /** The server's URL once it says it listens, or null when it ended first. */
  async listening(): Promise<string | null> {
    let ended = false;
    void this.exited.then(() => {
      ended = true;
    });
    for (;;) {
      const match = /listening on (http:\/\/\S+)/.exec(this.stdout);
      if (match?.[1] !== undefined) return match[1];
      if (ended) return null;
      if (this.signal.aborted) throw new Error('opencode serve did not listen in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Its stderr lines (warnings such as `duplicate skill name`, why it would not start), timestamps cut. */
  notes(): string[] {
    const lines = this.stderr.split('\n').filter((line) => line.trim() !== '');
    const code = this.child.exitCode;
    const exit = code !== null && !/listening on/.test(this.stdout) ? [`exit ${code}`] : [];
    return [...exit, ...lines.map((line) => line.replace(/^timestamp=\S+ /, ''))];
  }

  stop(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

async function postJson(url: string, body: unknown, signal: AbortSignal): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}
