// The three plugin providers of docs/discovery.md §4a, placed for one workspace: which skills directories each scans, with
// what, and the warnings their registries and manifests gave. Agent Plugins roots are picked out of the other two
// providers' roots first: a root that is an Agent Plugin belongs to agent-plugins alone, a rejected one to none.

import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProviderDir } from '../pipeline/provider-dir.js';
import type { WorkspaceContext } from '../workspace-context.js';
import { classifyPluginRoot } from './agent-plugin-manifest.js';
import { claudePluginSkillDirs, listClaudePluginRoots } from './claude-plugins.js';
import { listOmpPluginRoots } from './omp-plugins.js';
import { resolvePluginContext } from './plugin-context.js';
import { emptyInputs, type PluginInputs, type PluginRoot } from './plugin-root.js';

export type PluginProviderId = 'omp-plugins' | 'agent-plugins' | 'claude-plugins';

export interface PluginProviderPlan {
  dirs: ProviderDir[];
  /** Bare warning text of the registries and manifests; the pipeline adds the display-name prefix. */
  warnings: string[];
}

export interface PluginPlans {
  providers: Record<PluginProviderId, PluginProviderPlan>;
  inputs: PluginInputs;
}

export async function planPluginProviders(ws: WorkspaceContext): Promise<PluginPlans> {
  const pc = await resolvePluginContext(ws);
  const inputs = emptyInputs();
  for (const marker of pc.anchorMarkers) inputs.markers.add(marker);
  const providers: Record<PluginProviderId, PluginProviderPlan> = {
    'omp-plugins': { dirs: [], warnings: [] },
    'agent-plugins': { dirs: [], warnings: [] },
    'claude-plugins': { dirs: [], warnings: [] },
  };
  const claude = await listClaudePluginRoots(pc, inputs);
  providers['claude-plugins'].warnings.push(...claude.warnings);
  const xcsh = ws.profile.profile === 'xcsh';
  const claudeReals = await Promise.all(claude.roots.map((root) => realpathOrSelf(root.path)));
  // The install directories themselves: a plugin copied in after its registry entry was written.
  for (const root of claude.roots) inputs.files.add(root.path);

  let claudeRoots = claude.roots;
  let ompRoots: PluginRoot[] = [];
  if (!xcsh) {
    ompRoots = await listOmpPluginRoots(pc, new Set(claudeReals), inputs);
    const taken = await pickAgentPlugins(claude.roots, ompRoots, providers['agent-plugins'], inputs);
    claudeRoots = claude.roots.filter((root) => !taken.has(root.path));
    ompRoots = ompRoots.filter((root) => !taken.has(root.path));
  }

  const placed = await Promise.all(claudeRoots.map((root) => claudePluginSkillDirs(root, inputs)));
  for (const [index, root] of claudeRoots.entries()) {
    const { dirs, warnings } = placed[index]!;
    providers['claude-plugins'].warnings.push(...warnings);
    for (const path of dirs) {
      providers['claude-plugins'].dirs.push({
        path,
        level: root.level,
        plugin: root.id,
        includeSelf: true,
        // xcsh names a plugin's skills `<plugin>:<name>`; musepi and omp never prefix.
        ...(xcsh ? { namePrefix: `${root.name}:` } : {}),
      });
    }
  }
  for (const root of ompRoots) {
    providers['omp-plugins'].dirs.push({ path: join(root.path, 'skills'), level: root.level, plugin: root.id });
  }
  return { providers, inputs };
}

/**
 * Candidate roots are claude-plugins' then omp-plugins', each real root once. Returns the install paths taken away
 * from the other providers: Agent Plugins (scanned here) and rejected roots (skipped by all).
 */
async function pickAgentPlugins(
  claudeRoots: PluginRoot[],
  ompRoots: PluginRoot[],
  plan: PluginProviderPlan,
  inputs: PluginInputs,
): Promise<Set<string>> {
  const taken = new Set<string>();
  const verdicts = new Map<string, Awaited<ReturnType<typeof classifyPluginRoot>>>();
  const candidates = [...claudeRoots, ...ompRoots];
  // Read at once; judged in order below (the first root of a real path is the one reported).
  const read = await Promise.all(
    candidates.map(async (root) => {
      const realRoot = await realpath(root.path).catch(() => undefined);
      if (realRoot === undefined) return undefined;
      return { realRoot, verdict: await classifyPluginRoot(root.path, realRoot, inputs) };
    }),
  );
  for (const [index, root] of candidates.entries()) {
    const found = read[index];
    if (found === undefined) continue;
    const { realRoot } = found;
    const known = verdicts.get(realRoot);
    const verdict = known ?? found.verdict;
    if (verdict.kind === 'other') continue;
    taken.add(root.path);
    if (known !== undefined) continue;
    verdicts.set(realRoot, verdict);
    // A rejected root is a directory of its own that only reports the rejection: each plugin's warnings are given
    // with its scan, so they come in root order, a plugin's manifest warnings just before its skills'.
    if (verdict.kind === 'rejected') {
      plan.dirs.push({
        path: join(root.path, 'skills'),
        level: root.level,
        agentPlugin: { realRoot, manifestName: '', rejection: verdict.warning },
      });
      continue;
    }
    plan.dirs.push({
      path: join(root.path, 'skills'),
      level: root.level,
      plugin: verdict.manifestName,
      agentPlugin: { realRoot, manifestName: verdict.manifestName, warnings: verdict.warnings },
    });
  }
  return taken;
}

function realpathOrSelf(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}
