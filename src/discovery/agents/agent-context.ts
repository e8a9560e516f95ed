// The context of the per-agent views (docs/agents.md "Vocabulary"): HOME, the workspace, the repository root and the
// agents' environment. The environment is handed in by the entry point; nothing here reads process.env.

import { dirname, isAbsolute, join, resolve } from 'node:path';
import { realpath, stat } from '../files/sliced-fs.js';
import type { SkillWarning } from '../types.js';
import { findRepoRoot } from '../workspace-context.js';
import { readSideFile } from './side-file.js';
import type { AgentContext } from './types.js';

/** A `.git` file holds one `gitdir:` line of a few hundred bytes: 64 KiB is far above any real one. */
const MAX_GIT_FILE_BYTES = 64 * 1024;

/** The variables the seven agents read to move their roots or change what they load. */
export const AGENT_ENV_NAMES = [
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'XDG_CONFIG_HOME',
  'OPENCODE_DISABLE_EXTERNAL_SKILLS',
  'OPENCODE_DISABLE_CLAUDE_CODE',
  'OPENCODE_DISABLE_CLAUDE_CODE_SKILLS',
  'OPENCODE_DISABLE_PROJECT_CONFIG',
  'OPENCODE_CONFIG_DIR',
  'GEMINI_CLI_HOME',
  'GEMINI_CLI_TRUST_WORKSPACE',
  'GEMINI_CLI_TRUSTED_FOLDERS_PATH',
  'GEMINI_RESTRICTED_MODE',
  'COPILOT_HOME',
  'COPILOT_SKILLS_DIRS',
  'GOOSE_PATH_ROOT',
] as const;

/** The agents' variables out of an environment: unset and empty are the same. */
export function agentEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of AGENT_ENV_NAMES) {
    const value = env[name];
    if (value !== undefined && value !== '') out[name] = value;
  }
  return out;
}

export async function resolveAgentContext(
  home: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
): Promise<AgentContext> {
  const absoluteCwd = resolve(cwd);
  const gitRoot = await findRepoRoot(absoluteCwd);
  const worktree = gitRoot === null ? { main: null } : await worktreeOf(gitRoot);
  return {
    home: resolve(home),
    cwd: absoluteCwd,
    env,
    gitRoot,
    mainWorktree: worktree.main,
    ...(worktree.warning === undefined ? {} : { gitFileWarning: worktree.warning }),
  };
}

/**
 * The context of an agent that works in realpath(cwd) (`AgentSpec.realWorkspace`): the same context when the
 * workspace is already real (or cannot be resolved), else one placed from the real directory.
 */
export async function realWorkspaceContext(ctx: AgentContext): Promise<AgentContext> {
  const real = await realpath(ctx.cwd).catch(() => ctx.cwd);
  if (real === ctx.cwd) return ctx;
  const gitRoot = await findRepoRoot(real);
  const worktree = gitRoot === null ? { main: null } : await worktreeOf(gitRoot);
  return {
    home: ctx.home,
    env: ctx.env,
    ...(ctx.claudePlugins === undefined ? {} : { claudePlugins: ctx.claudePlugins }),
    cwd: real,
    gitRoot,
    mainWorktree: worktree.main,
    ...(worktree.warning === undefined ? {} : { gitFileWarning: worktree.warning }),
  };
}

/**
 * The main repository of a linked worktree, from `<gitRoot>/.git`. `.git` is looked for in every ancestor of the
 * workspace, so it may be anyone's (a FIFO at `/tmp/.git`): it is read bounded and never waited on, and one that
 * cannot be read is a warning.
 */
async function worktreeOf(gitRoot: string): Promise<{ main: string | null; warning?: SkillWarning }> {
  const path = join(gitRoot, '.git');
  // A `.git` directory is an ordinary repository, nothing to read; stat opens nothing, so a FIFO costs nothing here.
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || info.isDirectory()) return { main: null };
  const read = await readSideFile(path, MAX_GIT_FILE_BYTES);
  if (read.status === 'missing') return { main: null };
  if (read.status === 'refused') {
    const message = `[skillsd] ${path} is not read (${read.why}): no linked worktree is looked for`;
    return { main: null, warning: { skillPath: path, message } };
  }
  return { main: mainWorktreeOf(gitRoot, read.text) };
}

/** `gitdir: <main>/.git/worktrees/<x>` in a `.git` file names a linked worktree of `<main>`. */
function mainWorktreeOf(gitRoot: string, text: string): string | null {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (match === null) return null;
  const gitdir = resolve(gitRoot, match[1] as string);
  const worktrees = dirname(gitdir);
  if (!worktrees.endsWith('/.git/worktrees')) return null;
  return dirname(dirname(worktrees));
}

/** `walk(from→to)`: `from`, its parent, …, `to` inclusive (or up to `/` when `to` is never met). */
export function walkBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let dir = from;
  for (;;) {
    out.push(dir);
    if (dir === to) return out;
    const parent = dirname(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}

/**
 * The project walk of Claude Code and Copilot CLI: `cwd` up to the repository root; without one, `cwd` upward; in
 * both cases it never includes HOME (it stops before it).
 */
export function projectWalk(ctx: AgentContext): string[] {
  const end = ctx.gitRoot ?? '/';
  const out: string[] = [];
  for (const dir of walkBetween(ctx.cwd, end)) {
    if (dir === ctx.home) break;
    out.push(dir);
  }
  return out;
}

/** `x` is `y` or inside it. */
export function isUnder(x: string, y: string): boolean {
  return x === y || x.startsWith(y.endsWith('/') ? y : `${y}/`);
}

/** An environment path as the agent would take it: absolute as it is, relative against the workspace. */
export function envPath(value: string, ctx: AgentContext): string {
  return isAbsolute(value) ? resolve(value) : resolve(ctx.cwd, value);
}

/** A path as reasons show it: `~/…` under HOME. */
export function shown(path: string, home: string): string {
  if (path === home) return '~';
  return isUnder(path, home) ? `~/${path.slice(home.length + 1)}` : path;
}
