// Running one provider (SKILLS.md §5 step 1) or one custom directory (step 4): every directory scanned concurrently,
// results concatenated in the documented inner order. A provider that throws loses all of its skills and reports
// `Failed to load: <error>` instead, as the agents do; the other providers are unaffected.

import type { ProviderPlan } from './providers.js';
import { type ScanOptions, type ScanResult, scanSkillsDir } from './scan-skills-dir.js';
import type { SkillFileCache } from './skill-file-cache.js';
import type { Profile, Skill, SkillDiagnostic } from './types.js';
import type { CustomDirectory } from './workspace-context.js';

export type ScanFunction = (dir: string, options: ScanOptions) => Promise<ScanResult>;

export interface ProviderRun {
  plan: ProviderPlan;
  skills: Skill[];
  /** Bare warning text: the pipeline adds the `[<displayName>] ` prefix. */
  warnings: string[];
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
  try {
    const results = await Promise.all(
      plan.dirs.map((dir, index) =>
        scan(dir.path, {
          requireDescription: plan.requireDescription,
          profile,
          provider: plan.id,
          providerName: plan.displayName,
          level: dir.level,
          ...(cache === undefined ? {} : { cache }),
          ...(diagnostics === undefined ? {} : { diagnostics: perDir[index] }),
        }),
      ),
    );
    diagnostics?.push(...perDir.flat());
    return {
      plan,
      skills: concat(results.map((result) => result.skills)),
      warnings: concat(results.map((result) => result.warnings)),
    };
  } catch (error) {
    return { plan, skills: [], warnings: [`Failed to load: ${errorText(error)}`] };
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
