// What one run of an agent keeps for the next (docs/agents.md "Live"): each file's text and reading, where each loaded
// file sits, and how a run whose only changes are texts of known files patches the last one instead of folding again.

import { relative } from 'node:path';
import { sameJson } from '../same-json.js';
import { mapWithLimit } from '../scan/map-with-limit.js';
import { nextSlice, sliceSpent } from '../time-slices.js';
import type { AgentFileTexts, TextRead } from './file-texts.js';
import { takeRefusedBlockSize } from './frontmatter-rules.js';
import { type SideLookups, sideLookups } from './side-file.js';
import type { AgentFinding, AgentSkill, AgentSpec, AgentView, Found, ReadOutcome } from './types.js';
import type { RootWalk } from './walk-root.js';

/** Side files one agent looks at at once (most are looked at once and kept: walk-memo.ts `sidecar`). */
const SIDECARS_AT_ONCE = 64;

export interface Reading {
  outcome: ReadOutcome;
  /** The size of a frontmatter block skillsd refused to parse (0: none). */
  refusedBlock: number;
}

export type SideResult = Awaited<ReturnType<NonNullable<AgentSpec['sidecar']>>>;

/**
 * What one run of an agent folded, kept to patch the next run when only texts changed (docs/agents.md "Live"): the
 * walks (the very objects: a walk kept by the memo is the same), the text each file had, its reading, its inode
 * (agents that know a file by inode), and where each loaded file sits in the skills.
 */
export interface AgentRun {
  walks: readonly RootWalk[];
  texts: Map<Found, TextRead>;
  /** The files of `texts` by real path (an update finds the few reported ones without a pass over all). */
  byReal: Map<string, Found[]>;
  inodes: Map<Found, string>;
  readings: Map<Found, Reading>;
  skillIndex: Map<Found, number>;
  /** The view's own findings (`agent-rejected`), before the doctor's are added. */
  ownDiagnostics: AgentFinding[];
  view: AgentView;
}

/**
 * The agents' readings of each file, by where it was found (a kept walk keeps its `Found` objects) and by agent: a
 * reader is a pure function of the text and the place (`AgentSpec.read`), and an unchanged file keeps its read object
 * (file-texts.ts), so an update reads again only the files that changed (docs/agents.md "Live").
 */
const readings = new WeakMap<Found, Map<string, { text: TextRead; reading: Reading }>>();

export function readingOf(spec: AgentSpec, text: TextRead & { ok: true }, found: Found): Reading {
  let byAgent = readings.get(found);
  if (byAgent === undefined) {
    byAgent = new Map();
    readings.set(found, byAgent);
  }
  const known = byAgent.get(spec.info.id);
  if (known !== undefined && known.text === text) return known.reading;
  // The agent's reader is synchronous: the block size refused during it is this file's.
  takeRefusedBlockSize();
  const outcome = spec.read(text.text, found);
  const reading = { outcome, refusedBlock: takeRefusedBlockSize() };
  byAgent.set(spec.info.id, { text, reading });
  return reading;
}

/** A loaded skill as the view lists it: what the agent read, named with the side files' prefix. */
export function agentSkillOf(
  spec: AgentSpec,
  name: string,
  outcome: ReadOutcome & { ok: true },
  side: SideResult | undefined,
  found: Found,
  scope: AgentSkill['source']['scope'],
): AgentSkill {
  return {
    name,
    description: outcome.description,
    filePath: found.filePath,
    baseDir: found.baseDir,
    hide: outcome.hide || side?.hide === true,
    source: { agent: spec.info.id, scope, root: found.rootShown },
    ...(outcome.extra === undefined ? {} : { extra: outcome.extra }),
    ...(outcome.cutAtLoad === true ? { cutAtLoad: true } : {}),
    ...(outcome.displayName === undefined ? {} : { displayName: outcome.displayName }),
    ...(outcome.kind === undefined ? {} : { kind: outcome.kind }),
    ...(spec.keepsWalkedPath === true ? { walkedPath: relative(found.root.path, found.lexicalPath) } : {}),
  };
}

/** Side-file answers kept between runs (walk-memo.ts `RootWalkMemo`). */
export interface SidecarMemo {
  sidecar(agent: string, found: Found, read: (found: Found) => Promise<SideResult>): Promise<SideResult>;
}

/**
 * What the agent's side files say about each of `files` (undefined for an agent without side files), looked at once
 * and kept by `walks` until a change is reported near them.
 */
export async function sidecarsOf(
  spec: AgentSpec,
  walks: SidecarMemo | undefined,
  files: readonly Found[],
  look: SideLookups = sideLookups(),
): Promise<Map<Found, SideResult> | undefined> {
  const sidecar = spec.sidecar;
  if (sidecar === undefined) return undefined;
  const read = (found: Found) => sidecar.call(spec, found, look);
  return new Map(
    await mapWithLimit(
      files,
      SIDECARS_AT_ONCE,
      async (found) => [found, await (walks?.sidecar(spec.info.id, found, read) ?? read(found))] as const,
    ),
  );
}

export function sameWalks(a: readonly RootWalk[], b: readonly RootWalk[]): boolean {
  return a.length === b.length && a.every((walk, i) => walk === b[i]);
}

/**
 * The previous run with the files whose text changed read again, when every such file reads as it did in all that
 * decides the fold (loaded or not, under which name, with which warnings, by the same inode): only the loaded ones'
 * records are replaced, in place; the warnings stay. Undefined when the fold must run again.
 */
export async function patchRun(
  prior: AgentRun,
  input: {
    spec: AgentSpec;
    texts: AgentFileTexts;
    /** The files of the last run whose text was read again, with that text (the same object when unchanged). */
    changed: ReadonlyArray<{ found: Found; text: TextRead }>;
    /** Their side files' answers (agents that have side files). */
    sidecars: Map<Found, SideResult> | undefined;
  },
): Promise<AgentRun | undefined> {
  const { spec, texts } = input;
  const changed: Array<{ found: Found; text: TextRead }> = [];
  for (const { found, text } of input.changed) {
    const before = prior.texts.get(found);
    if (before === undefined) return undefined;
    if (before !== text) changed.push({ found, text });
  }
  if (changed.length === 0) return prior;
  const skills = [...prior.view.skills];
  // A skill in a collision is left to the fold: an agent may keep state about the very record (OpenCode's candidates).
  const colliding = new Set(prior.view.collisions.map((collision) => collision.name));
  // The last run's maps are brought up to date in place: nothing reads them but the next patch, and a patch that
  // gives up leaves the fold to make a new run (the last one is then dropped).
  const readings = prior.readings;
  const textsNow = prior.texts;
  for (const { found, text } of changed) {
    if (sliceSpent()) await nextSlice();
    const was = prior.readings.get(found);
    // A file reached twice, or one that could not be read: the fold decides again.
    if (was === undefined || !text.ok) return undefined;
    if (spec.identity === 'inode' && (await texts.inode(found.realPath)) !== prior.inodes.get(found)) return undefined;
    const now = readingOf(spec, text, found);
    if (!sameFold(was, now)) return undefined;
    readings.set(found, now);
    textsNow.set(found, text);
    const index = prior.skillIndex.get(found);
    if (index === undefined || !now.outcome.ok) continue;
    const side = input.sidecars?.get(found);
    const old = prior.view.skills[index] as AgentSkill;
    if (colliding.has(old.name)) return undefined;
    skills[index] = agentSkillOf(spec, old.name, now.outcome, side, found, old.source.scope);
  }
  // Every name is kept and no record in a collision replaced: the `afterLoad` warnings, which depend on nothing else
  // (`AgentSpec.afterLoad`), are the last run's, as are the files' own (`sameFold`).
  return { ...prior, texts: textsNow, readings, view: { ...prior.view, skills } };
}

/** Two readings of a file that the fold treats alike: only the loaded record's other fields may differ. */
function sameFold(a: Reading, b: Reading): boolean {
  if (a.refusedBlock !== b.refusedBlock) return false;
  if (!a.outcome.ok || !b.outcome.ok) {
    return (
      !a.outcome.ok &&
      !b.outcome.ok &&
      a.outcome.message === b.outcome.message &&
      (a.outcome.silent === true) === (b.outcome.silent === true)
    );
  }
  return a.outcome.name === b.outcome.name && sameJson(a.outcome.warnings ?? [], b.outcome.warnings ?? []);
}
