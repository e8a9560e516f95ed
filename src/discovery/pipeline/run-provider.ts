// Running one provider (docs/discovery.md §5 step 1) or one custom directory (step 4): every directory scanned concurrently,
// results concatenated in the documented inner order. A provider that throws loses all of its skills and reports
// `Failed to load: <error>` instead, as the agents do; the other providers are unaffected.

import { scanAgentPluginDir } from '../plugins/agent-plugins.js';
import type { ScanOptions, ScanResult } from '../scan/scan-options.js';
import { scanSelfSkill, scanSkillsDir } from '../scan/scan-skills-dir.js';
import type { SkillFileCache } from '../scan/skill-file-cache.js';
import type { Profile, Skill, SkillDiagnostic } from '../types.js';
import type { CustomDirectory } from '../workspace-context.js';
import type { ProviderDir, ProviderPlan } from './providers.js';

export type ScanFunction = (dir: string, options: ScanOptions) => Promise<ScanResult>;

export interface ProviderRun {
  plan: ProviderPlan;
  skills: Skill[];
  /**
   * `skills` as the lists it joins, each sorted as docs/discovery.md §1 (a directory's scan; a plugin directory's own
   * SKILL.md alone), so that the candidates of a name are found by binary search (pipeline-memo.ts); absent when a
   * list is not sorted so (an Agent Plugins directory's).
   */
  segments?: Skill[][];
  /** Bare warning text: the pipeline adds the `[<displayName>] ` prefix. */
  warnings: string[];
  /**
   * What was read outside `scan` (never remembered by a ScanMemo): a plugin directory's own SKILL.md, Agent Plugins
   * skills and their warnings. Part of the pipeline memo's key, so a change to them always runs the pipeline.
   */
  unscanned: { skills: Skill[]; warnings: string[] };
  /** Agent Plugins skills (docs/discovery.md §4a): `filePath` → the realpath of the plugin root their files must stay in. */
  roots: Map<string, string>;
}

export interface CustomDirRun {
  /** The directory as written (after `~` expansion): the warnings' `skillPath`. */
  dir: string;
  skills: Skill[];
  warnings: string[];
}

export const CUSTOM_PROVIDER = 'custom';
export const CUSTOM_DISPLAY_NAME = 'Custom';

/**
 * `diagnostics`, when given, receives the scans' diagnostics in the documented directory order (the scans run
 * concurrently, each into its own list).
 */
export async function runProvider(
  plan: ProviderPlan,
  profile: Profile,
  cache?: SkillFileCache,
  scan: ScanFunction = scanSkillsDir,
  diagnostics?: SkillDiagnostic[],
): Promise<ProviderRun> {
  const perDir = plan.dirs.map((): SkillDiagnostic[] => []);
  const unscanned: ProviderRun['unscanned'] = { skills: [], warnings: [] };
  const roots = new Map<string, string>();
  try {
    const results = await Promise.all(
      plan.dirs.map((dir, index) =>
        scanDir(dir, {
          requireDescription: plan.requireDescription,
          profile,
          provider: plan.id,
          providerName: plan.displayName,
          level: dir.level,
          ...(dir.plugin === undefined ? {} : { plugin: dir.plugin }),
          ...(dir.namePrefix === undefined ? {} : { namePrefix: dir.namePrefix }),
          ...(cache === undefined ? {} : { cache }),
          ...(diagnostics === undefined ? {} : { diagnostics: perDir[index] }),
        }),
      ),
    );
    // A loop: `flat()` and a spread of ≈ 5,000 diagnostics cost ≈ 1 ms on every reload of the benchmark tree.
    if (diagnostics !== undefined)
      for (const list of perDir) for (const diagnostic of list) diagnostics.push(diagnostic);
    for (const result of results) {
      unscanned.skills.push(...result.unscanned.skills);
      unscanned.warnings.push(...result.unscanned.warnings);
    }
    const sorted = results.every((result) => result.segments !== undefined);
    return {
      plan,
      skills: concat(results.map((result) => result.skills)),
      ...(sorted ? { segments: results.flatMap((result) => result.segments!) } : {}),
      warnings: [...(plan.warnings ?? []), ...concat(results.map((result) => result.warnings))],
      unscanned,
      roots,
    };
  } catch (error) {
    return { plan, skills: [], warnings: [`Failed to load: ${errorText(error)}`], unscanned, roots };
  }

  async function scanDir(
    dir: ProviderDir,
    options: ScanOptions,
  ): Promise<ScanResult & Pick<ProviderRun, 'unscanned' | 'segments'>> {
    const { agentPlugin } = dir;
    if (agentPlugin !== undefined) {
      const found = await scanAgentPluginDir({ path: dir.path, level: dir.level, ...agentPlugin });
      for (const skill of found.skills) roots.set(skill.filePath, agentPlugin.realRoot);
      return { ...found, unscanned: found };
    }
    // A scan's records come sorted (scan-skills-dir.ts, scan-update.ts).
    const listed = await scan(dir.path, options);
    const none = { skills: [], warnings: [] };
    if (dir.includeSelf !== true) return { ...listed, segments: [listed.skills], unscanned: none };
    const { diagnostics: _, ...selfOptions } = options;
    const self = await scanSelfSkill(dir.path, selfOptions);
    if (self === undefined) return { ...listed, segments: [listed.skills], unscanned: none };
    return {
      skills: [self, ...listed.skills],
      segments: [[self], listed.skills],
      warnings: listed.warnings,
      unscanned: { skills: [self], warnings: [] },
    };
  }
}

/** A `skills.customDirectories` entry (already expanded): provider `custom`, level `user`, description required. */
export async function scanCustomDir(
  dir: CustomDirectory,
  profile: Profile,
  cache?: SkillFileCache,
  scan: ScanFunction = scanSkillsDir,
  diagnostics?: SkillDiagnostic[],
): Promise<CustomDirRun> {
  try {
    const result = await scan(dir.path, {
      requireDescription: true,
      ...(dir.shown === dir.path ? {} : { shownDir: dir.shown }),
      profile,
      provider: CUSTOM_PROVIDER,
      providerName: CUSTOM_DISPLAY_NAME,
      level: 'user',
      ...(cache === undefined ? {} : { cache }),
      ...(diagnostics === undefined ? {} : { diagnostics }),
    });
    return { dir: dir.shown, skills: result.skills, warnings: result.warnings };
  } catch (error) {
    return { dir: dir.shown, skills: [], warnings: [`Failed to load: ${errorText(error)}`] };
  }
}

/** The lists joined in order (`flatMap` costs several times more over the 10,000 records of a reload). */
function concat<T>(lists: T[][]): T[] {
  if (lists.length === 1) return lists[0]!;
  const out: T[] = [];
  for (const list of lists) for (const item of list) out.push(item);
  return out;
}

/** `<error>` of the reference message: an Error's message, anything else as a string. */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
