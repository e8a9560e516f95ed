// Codex CLI: the loaded skills from its app-server (JSON-RPC lines on stdio), the catalog from `codex debug
// prompt-input`, which prints the model-visible input of a first turn as JSON without calling any model.
//
// Both run with bundled skills switched off (`skills.bundled.enabled=false`): Codex's `system` skills stay out of
// every view, and with them off neither their entries nor their share of the budget reach the catalog. The base URL
// points at a closed local port so that nothing waits on a name look-up; neither command calls a model.
// CODEX_HOME is set only where the scenario sets it (ctx.env then holds it); else Codex uses HOME/.codex.

import { JsonLinesProcess } from '../lib/json-lines-process.js';
import { runProcess } from '../lib/process.js';
import type { AgentDriver, Answer, DriverContext, LoadedSkill } from '../lib/types.js';

const CONFIG = ['-c', 'skills.bundled.enabled=false', '-c', 'openai_base_url="http://127.0.0.1:9/v1"'];
const ANSWER_MS = 30_000;

interface SkillsListResult {
  data: Array<{
    cwd: string;
    skills: Array<{ name: string; path: string; description: string; scope: string; enabled: boolean }>;
    errors: Array<{ path: string; message: string }>;
  }>;
}

interface RpcLine {
  id?: number;
  method?: string;
  result?: unknown;
  error?: { message?: string };
  params?: { summary?: string; details?: string | null };
}

export const driver: AgentDriver = {
  agent: 'codex',
  timeoutS: 60,
  async ask(ctx: DriverContext): Promise<Answer> {
    const env = { ...ctx.env, TMPDIR: ctx.scratch };
    const answer = await listSkills(ctx, env);
    if (ctx.catalog !== false && answer.catalog === null) {
      const prompt = await catalog(ctx, env, ctx.catalog);
      answer.catalog = prompt.text;
      answer.notes = [...(answer.notes ?? []), ...prompt.notes];
    }
    return answer;
  },
};

/** `initialize`, `initialized`, then `skills/list` for the workspace with a fresh scan. */
async function listSkills(ctx: DriverContext, env: Record<string, string>): Promise<Answer> {
  const server = new JsonLinesProcess(ctx.install.bin, ['app-server', ...CONFIG], { cwd: ctx.scenario.cwd, env });
  const abort = () => void server.close();
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'skillsd-conformance', version: '1' } },
    });
    let started: RpcLine;
    try {
      started = await server.next<RpcLine>((line: RpcLine) => line.id === 1, ANSWER_MS);
    } catch (error) {
      if (server.child.exitCode !== null) return refused(server, server.child.exitCode, ctx.catalog !== false);
      throw error;
    }
    reply(started);
    server.send({ jsonrpc: '2.0', method: 'initialized' });
    server.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'skills/list',
      params: { cwds: [ctx.scenario.cwd], forceReload: true },
    });
    const result = reply(await server.next<RpcLine>((line: RpcLine) => line.id === 2, ANSWER_MS)) as SkillsListResult;
    const entry = result.data[0];
    if (entry === undefined) throw new Error('skills/list answered no entry for the workspace');
    // `system` is the scope of bundled skills (switched off above; left out should one appear all the same).
    const skills: LoadedSkill[] = entry.skills
      .filter((skill) => skill.scope !== 'system')
      .map((skill) => ({ name: skill.name, path: skill.path, description: skill.description }));
    // Warnings Codex sends as notifications (configuration problems; the missing-bubblewrap one is this machine's
    // and left out); the per-file rejections are `errors`.
    const notes = server.lines
      .filter((line): line is RpcLine => (line as RpcLine).method === 'configWarning')
      .map((line) => [line.params?.summary, line.params?.details].filter(Boolean).join(': '))
      .filter((note) => !note.includes('bubblewrap'));
    const disabled = entry.skills.filter((skill) => !skill.enabled).map((skill) => `disabled: ${skill.path}`);
    return {
      skills,
      catalog: null,
      rejected: entry.errors.map((error) => ({ path: error.path, message: error.message })),
      notes: [...notes, ...disabled, ...logLines(server.stderr)],
    };
  } finally {
    ctx.signal.removeEventListener('abort', abort);
    await server.close();
  }
}

/**
 * Codex refuses to start when CODEX_HOME does not exist or is not a directory: it exits with an `Error: CODEX_HOME
 * …` line before answering. It then loads no skill and sends no prompt, which is the answer. Any other early exit
 * (a state database that cannot be opened, say) is a failed run, thrown so that the harness tries again.
 */
function refused(server: JsonLinesProcess, code: number, catalog: boolean): Answer {
  const reason = server.stderr.split('\n').find((line) => line.startsWith('Error: CODEX_HOME '));
  if (code === 0 || reason === undefined) {
    throw new Error(`codex app-server ended (code ${code}) before answering: ${server.stderr.slice(-2000)}`);
  }
  return { skills: [], catalog: catalog ? '' : null, notes: [`refused to start: ${reason}`] };
}

/**
 * Warnings and errors Codex logged on stderr (the scan's traversal-limit warning is one), without colour codes and
 * timestamps; the missing-bubblewrap warning of this machine is left out.
 */
function logLines(stderr: string): string[] {
  return stderr
    .replaceAll(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => /\b(WARN|ERROR)\b/.test(line) && !line.includes('bubblewrap'))
    .map((line) => line.replace(/^\S+Z\s+/, ''));
}

function reply(line: RpcLine): unknown {
  if (line.error !== undefined)
    throw new Error(`codex app-server: ${line.error.message ?? JSON.stringify(line.error)}`);
  return line.result;
}

interface PromptItem {
  type?: string;
  role?: string;
  content?: Array<{ type?: string; text?: string }>;
}

/**
 * The catalog is the one developer-message text part that starts with `<skills_instructions>` and ends with
 * `</skills_instructions>`, taken whole and unchanged (it holds no timestamps or temporary names). Codex sends no
 * such part when no skill reaches the catalog: the catalog is then the empty string.
 */
async function catalog(
  ctx: DriverContext,
  env: Record<string, string>,
  question: { contextWindow?: number; model?: string },
): Promise<{ text: string; notes: string[] }> {
  const args = ['debug', 'prompt-input', ...CONFIG];
  if (question.contextWindow !== undefined) args.push('-c', `model_context_window=${question.contextWindow}`);
  if (question.model !== undefined) args.push('-c', `model=${JSON.stringify(question.model)}`);
  const run = await runProcess(ctx.install.bin, args, {
    cwd: ctx.scenario.cwd,
    env,
    timeoutMs: ANSWER_MS,
    signal: ctx.signal,
  });
  if (run.code !== 0) throw new Error(`codex debug prompt-input exited ${run.code}: ${run.stderr.slice(-2000)}`);
  const items = JSON.parse(run.stdout) as PromptItem[];
  const parts = items
    .filter((item) => item.role === 'developer')
    .flatMap((item) => item.content ?? [])
    .map((part) => part.text ?? '')
    .filter((text) => text.startsWith('<skills_instructions>'));
  if (parts.length > 1) throw new Error(`codex debug prompt-input: ${parts.length} skills_instructions parts`);
  return { text: parts[0] ?? '', notes: logLines(run.stderr) };
}
