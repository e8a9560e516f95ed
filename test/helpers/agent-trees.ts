// The per-agent views over real temp trees: `H` = HOME, `P` = `H/work/proj` (a repository, the workspace unless a
// test moves it), `T` = the temp root outside HOME. Views are computed with the daemon's own discovery per profile.

import { join } from 'node:path';
import { after, before } from 'node:test';
import { agentEnv } from '../../src/discovery/agents/agent-context.js';
import { type AgentViews, computeAgentViews, type MatrixRow } from '../../src/discovery/agents/compute-views.js';
import { AgentFileTexts } from '../../src/discovery/agents/file-texts.js';
import type { ViewId } from '../../src/discovery/agents/types.js';
import { diagnoseWorkspace } from '../../src/discovery/doctor/diagnose-workspace.js';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { makeTempDir, type TreeEntry, writeTree } from './temp-tree.js';

export interface AgentWorld {
  T: string;
  H: string;
  P: string;
  views: AgentViews;
  /** The matrix rows of `GET /agents`. */
  rows: MatrixRow[];
}

export interface WorldOptions {
  /** Relative to T; default `home/work/proj`. */
  cwd?: string;
  /** Without `P/.git`. */
  noRepo?: boolean;
  env?: Record<string, string>;
  /** The daemon's `symlinks` mode the views read by; default `follow`, the agents' own reading of links. */
  symlinks?: 'contain' | 'follow';
}

/** Registers the temp root's hooks at the calling file's top level; each call builds a fresh world under it. */
export function agentWorlds(): (
  tree: (w: { T: string; H: string; P: string }) => Record<string, TreeEntry>,
  options?: WorldOptions,
) => Promise<AgentWorld> {
  let root = '';
  let cleanup: () => Promise<void> = async () => {};
  let counter = 0;
  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('skillsd-agents-'));
  });
  after(() => cleanup());
  return async (tree, options = {}) => {
    const T = join(root, String(counter++));
    const H = join(T, 'home');
    const P = join(H, 'work', 'proj');
    const entries = tree({ T, H, P });
    const relative: Record<string, TreeEntry> = { 'home/.keep': '', 'home/work/proj/.keep': '' };
    if (options.noRepo !== true) relative['home/work/proj/.git/HEAD'] = 'ref: refs/heads/main\n';
    for (const [path, entry] of Object.entries(entries))
      relative[path.startsWith(`${T}/`) ? path.slice(T.length + 1) : path] = entry;
    await writeTree(T, relative);
    const cwd = options.cwd === undefined ? P : join(T, options.cwd);
    const env = agentEnv(options.env ?? {});
    const views = await computeAgentViews({
      home: H,
      cwd,
      env,
      texts: new AgentFileTexts(),
      symlinks: options.symlinks ?? 'follow',
      discoverProfile: (profile) =>
        discoverSkills({ home: H, cwd, env: {}, settings: { ...defaultSettings(), profile } }),
      doctorFindings: async () => {
        const ctx = { home: H, cwd, env: {}, settings: defaultSettings() };
        const result = await discoverSkills(ctx);
        return (await diagnoseWorkspace({ ctx, skills: result.skills, collisions: result.collisions })).findings;
      },
    });
    const { rows } = await views.matrix();
    return { T, H, P, views, rows };
  };
}

/** The names an agent loads, sorted. */
export function loadedNames(world: AgentWorld, id: ViewId): string[] {
  return (world.views.views.get(id)?.skills ?? []).map((skill) => skill.name).sort();
}

/** `S{…}` of the worked examples: one `k: v` line each, then `# Body`. */
export function S(fields: Record<string, string>): string {
  return `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n---\n\n# Body\n`;
}

/** A skill whose folder is its name, with a description. */
export function skill(name: string): string {
  return S({ name, description: `${name} does things` });
}
