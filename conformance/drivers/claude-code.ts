// Claude Code: one `claude -p` process in stream-json mode answers all three questions (docs/conformance.md "How each agent is asked").
// - `get_skills_dialog` (a control request, no model call): the rows of the /skills menu, i.e. every loaded skill and
//   `.claude/commands` entry with its name (the folder or file stem), display name, description and source.
// - `get_context_usage` (detail `summary`, so no token-count calls): the model's listing with each entry's file path.
// - a first user turn `hi`: Claude Code sends its prompt to the recording endpoint; the catalog is read from it.
// A skill with `disable-model-invocation` is in the menu but not the listing, so its path comes from invoking it as
// `/<name>`: the expanded prompt begins `Base directory for this skill: <dir>`.
// The debug log (`--debug-file` in the scratch dir) gives what Claude Code skipped: `[WARN]` lines of its loaders.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonLinesProcess } from '../lib/json-lines-process.js';
import type { AgentDriver, Answer, LoadedSkill, ModelEndpoint } from '../lib/types.js';

/**
 * The catalog is the section of the first prompt that starts with this line (inside the user-context message, after
 * the agent-types section) and ends at the end of its last entry: the first blank line after the entries (the
 * `Today's date…` line follows). Entries never hold a blank line (Claude Code joins a description's lines).
 */
const CATALOG_HEAD = 'The following skills are available for use with the Skill tool:\n\n';
const BASE_DIR = 'Base directory for this skill: ';
const WAIT_MS = 40_000;
/** Menu and listing sources of Claude Code's own skills: not file skills, left out of the answer. */
const BUILT_IN = new Set(['bundled', 'built-in', 'builtin']);

interface MenuRow {
  name: string;
  display_name: string;
  description: string;
  source: string;
  state: string;
}

interface ListingRow {
  name: string;
  source: string;
  path?: string;
}

interface ControlResponse {
  type?: string;
  response: { subtype: string; request_id: string; response?: unknown; error?: string };
}

export const driver: AgentDriver = {
  agent: 'claude-code',
  timeoutS: 60,
  async ask(ctx): Promise<Answer> {
    const debugFile = join(ctx.scratch, 'claude-debug.log');
    const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'];
    args.push('--no-session-persistence', '--debug-file', debugFile);
    const env: Record<string, string> = {
      ...ctx.env,
      ANTHROPIC_BASE_URL: ctx.endpoint.url,
      ANTHROPIC_API_KEY: 'sk-ant-conformance-not-a-key',
      CLAUDE_CODE_TMPDIR: ctx.scratch,
      TMPDIR: ctx.scratch,
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
    if (ctx.catalog !== false && ctx.catalog.model !== undefined) args.push('--model', ctx.catalog.model);
    if (ctx.catalog !== false && ctx.catalog.contextWindow !== undefined) {
      // CLAUDE_CODE_MAX_CONTEXT_TOKENS sets the window of any model, but only while compaction is off.
      env.DISABLE_COMPACT = '1';
      env.CLAUDE_CODE_MAX_CONTEXT_TOKENS = String(ctx.catalog.contextWindow);
    }
    const agent = new JsonLinesProcess(ctx.install.bin, args, { cwd: ctx.scenario.cwd, env });
    const stop = () => void agent.close();
    ctx.signal.addEventListener('abort', stop, { once: true });
    try {
      ctx.endpoint.take();
      const control = async <T>(request: Record<string, unknown>): Promise<T> => {
        const id = String(request.subtype);
        agent.send({ type: 'control_request', request_id: id, request });
        const { response } = await agent.next<ControlResponse>(
          (line) => line?.type === 'control_response' && line.response?.request_id === id,
          WAIT_MS,
        );
        if (response.subtype !== 'success')
          throw new Error(`${id} failed: ${response.error ?? JSON.stringify(response)}`);
        return response.response as T;
      };
      /** One user turn, up to its `result` line; resolves with the bodies of the model requests it made. */
      const turn = async (text: string): Promise<string[]> => {
        const earlier = new Set(agent.lines);
        agent.send({
          type: 'user',
          message: { role: 'user', content: text },
          parent_tool_use_id: null,
          session_id: '',
        });
        await agent.next<{ type?: string }>((line) => line?.type === 'result' && !earlier.has(line), WAIT_MS);
        return modelBodies(ctx.endpoint);
      };
      const menu = (await control<{ skills: MenuRow[] }>({ subtype: 'get_skills_dialog' })).skills;
      const listing = (
        await control<{ skills: { skillFrontmatter: ListingRow[] } }>({
          subtype: 'get_context_usage',
          detail: 'summary',
        })
      ).skills.skillFrontmatter;
      const catalog = ctx.catalog === false ? null : findCatalog(await turn('hi'), listing);
      const { listed, hidden, shadowed } = matchMenu(menu, listing);
      const skills: LoadedSkill[] = listed.map(({ row, path }) => ({
        name: row.name,
        path,
        description: row.description,
      }));
      for (const row of hidden) {
        const path = await invokedPath(row.name, turn);
        skills.push({ name: row.name, path: path ?? '', description: row.description });
      }
      const log = debugLog(debugFile);
      for (const row of shadowed) {
        log.notes.push(
          `the /skills menu also shows ${row.name} (${row.source}: ${row.description}), not in the listing`,
        );
      }
      return { skills, catalog, ...log };
    } finally {
      ctx.signal.removeEventListener('abort', stop);
      await agent.close();
    }
  },
};

function modelBodies(endpoint: ModelEndpoint): string[] {
  return endpoint
    .take()
    .filter((request) => /\/v1\/messages(\?|$)/.test(request.path))
    .map((request) => request.body);
}

/**
 * The menu holds every loaded entry but also the losers of a name (a project skill under a user skill of the same
 * folder name, a command under a skill); the listing holds each winner once, named by its display name (frontmatter
 * `name`), with its source and file. Each listing entry takes the first menu row (menu order is load order within a
 * source, so the first is the winner) of the same name, source and file name. Rows left over are either losers (a row
 * of that name was taken) or skills the listing leaves out (`disable-model-invocation`).
 */
function matchMenu(
  menu: MenuRow[],
  listing: ListingRow[],
): { listed: Array<{ row: MenuRow; path: string }>; hidden: MenuRow[]; shadowed: MenuRow[] } {
  const rows = menu.filter((row) => !BUILT_IN.has(row.source));
  const taken = new Set<MenuRow>();
  const listed: Array<{ row: MenuRow; path: string }> = [];
  for (const entry of listing) {
    if (entry.path === undefined || BUILT_IN.has(entry.source)) continue;
    const path = entry.path;
    const row = rows.find(
      (r) =>
        !taken.has(r) &&
        (entry.name === r.display_name || entry.name === r.name) &&
        entry.source.startsWith(r.source) &&
        fileMatches(r.name, path),
    );
    if (row === undefined) continue;
    taken.add(row);
    listed.push({ row, path });
  }
  const takenNames = new Set([...taken].map((row) => row.name));
  const rest = rows.filter((row) => !taken.has(row));
  return {
    listed: rows.flatMap((row) => listed.filter((entry) => entry.row === row)),
    hidden: rest.filter((row) => !takenNames.has(row.name)),
    shadowed: rest.filter((row) => takenNames.has(row.name)),
  };
}

/** A skill's file is `<folder>/SKILL.md`, a command's `<stem>.md` (a namespaced name `a:b` ends in `b`). */
function fileMatches(name: string, path: string): boolean {
  const leaf = name.slice(name.lastIndexOf(':') + 1);
  return path.endsWith(`/${leaf}/SKILL.md`) || path.endsWith(`/${leaf}.md`);
}

/**
 * Invokes `/<name>` and reads the skill's folder from the expanded prompt: after the content block naming
 * `<command-name>/<name></command-name>` comes one beginning `Base directory for this skill: <dir>`; the file there
 * is `SKILL.md`. The request repeats earlier turns, so the last such pair counts.
 */
async function invokedPath(name: string, turn: (text: string) => Promise<string[]>): Promise<string | null> {
  let found: string | null = null;
  for (const body of await turn(`/${name}`)) {
    let named = false;
    for (const block of texts(JSON.parse(body))) {
      if (block.includes('<command-name>')) named = block.includes(`<command-name>/${name}</command-name>`);
      else if (named && block.startsWith(BASE_DIR)) {
        const end = block.indexOf('\n');
        found = `${block.slice(BASE_DIR.length, end === -1 ? undefined : end)}/SKILL.md`;
        named = false;
      }
    }
  }
  return found;
}

/**
 * The catalog section of the first model request. The entries of Claude Code's bundled skills (listing source
 * `built-in`) are cut out: they are not file skills and skillsd's views leave them out; their cost still shows in
 * which file entries stay full. Nothing else is changed.
 */
function findCatalog(bodies: string[], listing: ListingRow[]): string | null {
  const bundled = new Set(listing.filter((row) => BUILT_IN.has(row.source)).map((row) => row.name));
  const names = new Set(listing.map((row) => row.name));
  for (const body of bodies) {
    for (const text of texts(JSON.parse(body))) {
      const start = text.indexOf(CATALOG_HEAD);
      if (start === -1) continue;
      const from = start + CATALOG_HEAD.length;
      const end = text.indexOf('\n\n', from);
      return CATALOG_HEAD + withoutBundled(text.slice(from, end === -1 ? undefined : end), bundled, names);
    }
  }
  return null;
}

function texts(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) texts(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) texts(item, into);
  return into;
}

/**
 * Drops bundled entries. An entry starts with a line `- <name>` (then `:` or ` (`) where `<name>` is a listed
 * skill; a bundled description may run over several lines, up to the next entry's first line.
 */
function withoutBundled(entries: string, bundled: Set<string>, names: Set<string>): string {
  const kept: string[] = [];
  let skipping = false;
  for (const line of entries.split('\n')) {
    const head = /^- (.+?)(?:: | \(|$)/.exec(line)?.[1];
    if (head !== undefined && (names.has(head) || bundled.has(head))) skipping = bundled.has(head);
    if (!skipping) kept.push(line);
  }
  return kept.join('\n');
}

/**
 * `[WARN]` lines of the debug log, without their timestamps: a skipped file (`[skills] skipping <path>: <why>`) or a
 * refused name (`[names] <name> is not offered: <why>`, which names no path: the name stands in) is `rejected`;
 * every other warning is a note.
 */
function debugLog(file: string): { rejected: Array<{ path: string; message: string }>; notes: string[] } {
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split('\n');
  } catch {
    return { rejected: [], notes: [] };
  }
  const rejected: Array<{ path: string; message: string }> = [];
  const notes: string[] = [];
  for (const line of lines) {
    const warning = /^\S+ \[WARN\] (.*)$/.exec(line)?.[1];
    if (warning === undefined) continue;
    const skipped = /^\[skills\] skipping (\/.+?): (.+)$/.exec(warning);
    const refused = /^\[names\] (.+?) is not offered: (.+)$/.exec(warning);
    if (skipped !== null) rejected.push({ path: skipped[1] as string, message: skipped[2] as string });
    else if (refused !== null) rejected.push({ path: refused[1] as string, message: `is not offered: ${refused[2]}` });
    else notes.push(warning);
  }
  return { rejected, notes };
}
