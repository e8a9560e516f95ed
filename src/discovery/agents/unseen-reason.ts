// Why an agent never reads a file that another agent reads (docs/agents.md "Vocabulary"): a root it does not scan, a
// directory outside its walk, too deep, hidden, a link it ignores, a condition on the root that does not hold.

import { basename, dirname, relative } from 'node:path';
import { lstat } from '../files/sliced-fs.js';
import { isUnder, shown } from './agent-context.js';
import type { AgentContext, AgentView } from './types.js';

/** How reasons name an agent: the way its users call it. */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  codex: 'Codex',
  'copilot-cli': 'Copilot CLI',
  vscode: 'VS Code',
};

export function shortName(view: AgentView): string {
  return SHORT_NAMES[view.agent.id] ?? view.agent.name;
}

/**
 * What one making of the matrix looks up once for all its cells: whether a path is a symbolic link (one `lstat` per
 * path, however many views ask), and whether a view stopped at its traversal limit (one look at its warnings).
 */
export class UnseenLookups {
  private readonly links = new Map<string, Promise<boolean>>();
  private readonly limited = new WeakMap<AgentView, boolean>();
  private readonly prefixes = new WeakMap<AgentView, string[]>();
  private readonly outside = new WeakMap<AgentView, Map<string, string>>();

  /**
   * Each root's path and a slash, in the view's order: made once per view, not once per root and cell (10,000
   * candidates unseen by most views made half a million of them per matrix).
   */
  rootPrefixes(view: AgentView): string[] {
    let known = this.prefixes.get(view);
    if (known === undefined) {
      known = view.roots.map((root) => `${root.path}/`);
      this.prefixes.set(view, known);
    }
    return known;
  }

  /** The reason `make` words for a file outside the view's roots, once per view and folder holding skill folders. */
  outsideReason(view: AgentView, holder: string, make: () => string): string {
    let reasons = this.outside.get(view);
    if (reasons === undefined) {
      reasons = new Map();
      this.outside.set(view, reasons);
    }
    let reason = reasons.get(holder);
    if (reason === undefined) {
      reason = make();
      reasons.set(holder, reason);
    }
    return reason;
  }

  isLink(path: string): Promise<boolean> {
    let known = this.links.get(path);
    if (known === undefined) {
      known = lstat(path).then(
        (info) => info.isSymbolicLink(),
        () => false,
      );
      this.links.set(path, known);
    }
    return known;
  }

  stoppedAtLimit(view: AgentView): boolean {
    let known = this.limited.get(view);
    if (known === undefined) {
      known = view.warnings.some((warning) => warning.message.includes('traversal limit'));
      this.limited.set(view, known);
    }
    return known;
  }
}

export async function unseenReason(
  view: AgentView,
  lexicalPaths: readonly string[],
  ctx: AgentContext,
  lookups: UnseenLookups = new UnseenLookups(),
): Promise<string> {
  const name = shortName(view);
  if (view.roots.length === 0 && view.agent.id !== 'musepi' && view.agent.id !== 'omp' && view.agent.id !== 'xcsh') {
    return `${name} reads no skills here (see its warnings)`;
  }
  const prefixes = lookups.rootPrefixes(view);
  for (const path of lexicalPaths) {
    for (let index = 0; index < prefixes.length; index++) {
      if (!path.startsWith(prefixes[index] as string)) continue;
      const root = view.roots[index] as AgentView['roots'][number];
      if (root.blocked !== undefined) return root.blocked;
      const parts = relative(root.path, path).split('/');
      const depth = parts.length - 1;
      const where = shown(root.path, ctx.home);
      const layout = root.layout;
      if (depth < layout.minDepth) return `${name} ignores a SKILL.md directly in ${where}`;
      if (layout.maxDepth !== null && depth > layout.maxDepth) {
        return `${layout.tooDeep ?? `${name} does not read that deep below`} ${where}`;
      }
      const dirs = parts.slice(0, -1);
      if (layout.hidden === 'skip' && dirs.some((part) => part.startsWith('.'))) {
        return layout.hiddenReason ?? `${name} skips hidden directories`;
      }
      const skipped = dirs.find((part) => layout.skipNames?.includes(part) === true);
      if (skipped !== undefined) return `${name} skips ${skipped} directories`;
      if (!layout.fileLinks && (await lookups.isLink(path))) {
        return `${name} ignores a SKILL.md that is a symbolic link`;
      }
      if (lookups.stoppedAtLimit(view)) {
        return `${name} stopped walking ${where} at its traversal limit`;
      }
    }
  }
  const path = lexicalPaths[0] as string;
  if (ctx.claudePlugins?.installs.some((install) => isUnder(path, install)) === true) {
    return `${name} does not read Claude Code plugins`;
  }
  // Below, the reason depends on the folder holding the skill's folder alone, unless the skill's folder is itself a
  // `skills` directory: thousands of skills side by side share it.
  const folder = dirname(path);
  const base = basename(folder);
  if (base === 'skills' || base === 'skill') return notReadReason(view, path, ctx, name);
  return lookups.outsideReason(view, dirname(folder), () => notReadReason(view, path, ctx, name));
}

/** Why a view does not read a file that lies under none of its roots: the kind of root it lies in. */
function notReadReason(view: AgentView, path: string, ctx: AgentContext, name: string): string {
  const kind = rootKind(path);
  const rootPath = kind === undefined ? dirname(dirname(path)) : kind.root;
  const label = kind === undefined ? shown(rootPath, ctx.home) : kind.label;
  const suffix = kind === undefined ? undefined : `/${kind.label}`;
  const readsKind = suffix !== undefined && view.roots.some((root) => root.path.endsWith(suffix));
  if (readsKind)
    return `${name} does not read ${shown(rootPath, ctx.home)}: it is outside the directories ${name} looks in`;
  const home =
    kind !== undefined &&
    isUnder(rootPath, ctx.home) &&
    !isUnder(ctx.cwd, rootPath) &&
    dirname(dirname(rootPath)) === ctx.home;
  return `${name} does not read ${home ? `~/${label}` : label}`;
}

/** `.claude/skills` out of `<d>/.claude/skills/<…>/SKILL.md`: the nearest `skills` or `skill` directory above. */
function rootKind(path: string): { root: string; label: string } | undefined {
  let dir = dirname(path);
  for (;;) {
    const base = basename(dir);
    if (base === 'skills' || base === 'skill') return { root: dir, label: `${basename(dirname(dir))}/${base}` };
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
