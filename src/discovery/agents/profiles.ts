// The oh-my-pi profiles as agents (docs/agents.md "The profiles"): the answer of the daemon's own discovery under
// that profile, with statuses read off its skills, collisions and warnings.

import { basename, dirname } from 'node:path';
import { realpath } from '../files/sliced-fs.js';
import { sameJsonItems } from '../same-json.js';
import { renderSkillsPrompt } from '../skills-prompt.js';
import { nextSlice, sliceSpent } from '../time-slices.js';
import type { DiscoveryResult, Profile, Skill } from '../types.js';
import { fullCatalog } from './plain-catalog.js';
import { skillDirName } from './skill-dir-name.js';
import type { AgentInfo, AgentSkill, AgentView, ViewRecord } from './types.js';

export const PROFILE_INFO: Readonly<Record<Profile, AgentInfo>> = {
  musepi: { id: 'musepi', name: 'MusePi', describes: 'skillsd profile (docs/discovery.md)', confidence: 'source' },
  omp: { id: 'omp', name: 'OMP', describes: 'skillsd profile (docs/discovery.md)', confidence: 'source' },
  xcsh: { id: 'xcsh', name: 'xcsh', describes: 'skillsd profile (docs/discovery.md)', confidence: 'source' },
};

/** Skills handled between two looks at the slice's clock. */
const SLICE_CHECK = 64;

/** The profile's skill with the fields every view carries. */
export interface ProfileSkill extends AgentSkill {
  original: Skill;
}

export async function profileView(
  profile: Profile,
  result: DiscoveryResult,
  /** Real paths kept between updates (real-paths.ts); absent: each unknown path is resolved here. */
  realOf: (path: string) => string | Promise<string> = (path) => realpath(path).catch(() => path),
): Promise<AgentView> {
  const info = PROFILE_INFO[profile];
  // The realpath discovery read each loaded file through, where it kept one; the others are resolved here.
  const known = result.skillRealPaths;
  // Most paths are known: no promise and no await for them (10,000 skills, three profiles, every update).
  const real = (path: string): string | Promise<string> => known?.get(path) ?? realOf(path);
  // Every loop over the skills gives the event loop its turn between slices (time-slices.ts): three profiles of
  // 10,000 skills, made one after the other, held it for about 100 ms.
  const skills: ProfileSkill[] = [];
  for (const skill of result.skills) {
    skills.push(viewSkillOf(profile, skill));
    if (skills.length % SLICE_CHECK === 0 && sliceSpent()) await nextSlice();
  }
  const view: AgentView = {
    agent: info,
    skills,
    warnings: [...result.warnings],
    collisions: result.collisions.map((collision) => ({
      name: collision.name,
      winner: {
        filePath: collision.winner.filePath,
        source: {
          agent: profile,
          scope: collision.winner.source.level,
          root: dirname(dirname(collision.winner.filePath)),
        },
      },
      shadowed: collision.shadowed.map((loser) => ({
        filePath: loser.filePath,
        source: { agent: profile, scope: loser.source.level, root: dirname(dirname(loser.filePath)) },
        reason: loser.reason === 'duplicate-file' ? ('duplicate-file' as const) : ('precedence' as const),
      })),
    })),
    diagnostics: [],
    records: new Map(),
    roots: [],
    rootOrder: [],
    found: new Map(),
    watch: { dirs: [], files: [] },
  };
  const note = (realPath: string, lexicalPath: string): void => {
    if (!view.found.has(realPath)) {
      view.found.set(realPath, { lexicalPath, folder: skillDirName(lexicalPath), frontmatterName: null });
    }
  };
  for (const skill of result.skills) {
    const resolved = real(skill.filePath);
    const key = typeof resolved === 'string' ? resolved : await resolved;
    note(key, skill.filePath);
    view.records.set(key, loadedRecordOf(skill));
    if (view.records.size % SLICE_CHECK === 0 && sliceSpent()) await nextSlice();
  }
  for (const collision of result.collisions) {
    for (const loser of collision.shadowed) {
      const resolved = real(loser.filePath);
      const key = typeof resolved === 'string' ? resolved : await resolved;
      note(key, loser.filePath);
      if (!view.records.has(key)) {
        view.records.set(key, {
          status: 'shadowed',
          name: collision.name,
          filePath: loser.filePath,
          reason: `shadowed by ${collision.winner.filePath} (${loser.reason})`,
        });
      }
    }
  }
  for (const warning of result.warnings) {
    if (basename(warning.skillPath) !== 'SKILL.md') continue;
    const resolved = real(warning.skillPath);
    const key = typeof resolved === 'string' ? resolved : await resolved;
    note(key, warning.skillPath);
    if (!view.records.has(key)) {
      view.records.set(key, { status: 'invalid', name: '', filePath: warning.skillPath, reason: warning.message });
      view.diagnostics.push({
        rule: 'agent-rejected',
        severity: 'warning',
        path: warning.skillPath,
        message: warning.message,
      });
    }
  }
  return view;
}

/**
 * The previous view of a profile (`before`, made from `beforeResult`) brought to `result` when only skills'
 * texts changed in what the view records: the same number of skills, each the same object or one with the same name
 * and file, and the same collisions and warnings. Its records, found files and warnings are the previous view's
 * objects (a description is in none of them); `own` are its own diagnostics, without the doctor's. Undefined when
 * the view must be made again.
 */
export function patchProfileView(
  profile: Profile,
  before: AgentView,
  beforeResult: DiscoveryResult,
  result: DiscoveryResult,
  own: AgentView['diagnostics'],
): AgentView | undefined {
  if (result.skills.length !== beforeResult.skills.length) return undefined;
  if (
    !sameJsonItems(result.collisions, beforeResult.collisions) ||
    !sameJsonItems(result.warnings, beforeResult.warnings)
  ) {
    return undefined;
  }
  let skills: ProfileSkill[] | undefined;
  for (let i = 0; i < result.skills.length; i++) {
    const now = result.skills[i] as Skill;
    const was = beforeResult.skills[i] as Skill;
    if (now === was) continue;
    if (now.name !== was.name || now.filePath !== was.filePath || now.hide !== was.hide) return undefined;
    skills ??= [...(before.skills as ProfileSkill[])];
    skills[i] = viewSkillOf(profile, now);
  }
  return { ...before, skills: skills ?? before.skills, diagnostics: [...own] };
}

/**
 * A discovery keeps the record of every skill a change did not touch (docs/architecture.md "The change path"): the
 * view's record of it is kept with it, so an update makes new ones only for the skills that changed.
 */
/** Per profile: profiles that read frontmatter alike share their discoveries' skill objects. */
const viewSkills: Record<Profile, WeakMap<Skill, ProfileSkill>> = {
  musepi: new WeakMap(),
  omp: new WeakMap(),
  xcsh: new WeakMap(),
};
const loadedRecords = new WeakMap<Skill, ViewRecord>();

function viewSkillOf(profile: Profile, skill: Skill): ProfileSkill {
  const known = viewSkills[profile].get(skill);
  if (known !== undefined) return known;
  const made: ProfileSkill = {
    name: skill.name,
    description: skill.description,
    filePath: skill.filePath,
    baseDir: skill.baseDir,
    hide: skill.hide,
    // Today's source, plus what every view's skills carry.
    source: { ...skill.source, agent: profile, scope: skill.source.level, root: dirname(skill.baseDir) },
    original: skill,
  };
  viewSkills[profile].set(skill, made);
  return made;
}

function loadedRecordOf(skill: Skill): ViewRecord {
  let record = loadedRecords.get(skill);
  if (record === undefined) {
    record = { status: 'loaded', name: skill.name, filePath: skill.filePath };
    loadedRecords.set(skill, record);
  }
  return record;
}

export function profileCatalog(profile: Profile, view: AgentView) {
  const skills = (view.skills as ProfileSkill[]).map((skill) => skill.original);
  const text = renderSkillsPrompt(skills, { tools: ['read'], profile, format: 'markdown' });
  const listed = profile === 'xcsh' ? view.skills : view.skills.filter((skill) => !skill.hide);
  return fullCatalog(listed, text);
}
