// Which views an update may keep as they were (docs/agents.md "Live"): when only texts changed, a view whose own
// inputs did not — the agent's run (the very object: run-agent.ts patches it only when one of its files read
// differently), the profile's discovery answer, and the doctor's findings about the files it reads — is the previous
// computation's object. Nothing is made or compared again for it, so an edit costs in proportion to the views it
// touches, not to every view of every skill.

import { basename } from 'node:path';
import type { Finding } from '../doctor/types.js';
import { sameJsonItems } from '../same-json.js';
import type { DiscoveryResult } from '../types.js';
import type { AgentRun } from './agent-run.js';
import type { AgentView, ViewId } from './types.js';
import { SKILL_FILE } from './walk-root.js';

/** What each view of one computation was made from. */
export interface ViewInputs {
  /** Each agent's run, as its memo holds it (undefined without a memo). */
  runs: Map<ViewId, AgentRun | undefined>;
  /** Each profile's discovery answer. */
  results: Map<ViewId, DiscoveryResult>;
  /** The doctor's findings (undefined when views carry their own findings only). */
  findings: readonly Finding[] | undefined;
}

export interface KeptViews {
  /** The views of the previous computation kept whole, by id. */
  views: Map<ViewId, AgentView>;
  /**
   * Whether the doctor's findings about the files of a view holding these records may differ from the previous
   * computation's (always true when there is nothing to compare with).
   */
  findingsTouch(records: AgentView['records']): boolean;
}

/** The views of `previous` that the computation with `inputs` keeps, by id. */
export async function keptViews(
  previous: { views: ReadonlyMap<ViewId, AgentView>; inputs: ViewInputs } | undefined,
  inputs: ViewInputs,
  realOf: (path: string) => string | Promise<string>,
): Promise<KeptViews> {
  const views = new Map<ViewId, AgentView>();
  if (previous === undefined) return { views, findingsTouch: () => true };
  const touched = await changedFindingFiles(previous.inputs.findings, inputs.findings, realOf);
  if (touched === undefined) return { views, findingsTouch: () => true };
  const findingsTouch = (records: AgentView['records']) =>
    touched.some((paths) => paths.some((path) => records.has(path)));
  for (const [id, view] of previous.views) {
    const sameInput = inputs.runs.has(id)
      ? inputs.runs.get(id) !== undefined && inputs.runs.get(id) === previous.inputs.runs.get(id)
      : sameResult(previous.inputs.results.get(id), inputs.results.get(id));
    if (sameInput && !findingsTouch(view.records)) views.set(id, view);
  }
  return { views, findingsTouch };
}

/**
 * The SKILL.md files (each by its path and real path) whose findings differ between two lists of the doctor's
 * findings; undefined when the lists cannot be matched up (one is absent). The doctor keeps each file's finding
 * objects while the file is unchanged, so most compare by identity.
 */
async function changedFindingFiles(
  before: readonly Finding[] | undefined,
  after: readonly Finding[] | undefined,
  realOf: (path: string) => string | Promise<string>,
): Promise<string[][] | undefined> {
  if (before === undefined || after === undefined) return before === after ? [] : undefined;
  // Per file, its findings in order: a file whose findings are other objects (the doctor makes those about collisions
  // again on each look) but read the same is unchanged.
  const byFile = (findings: readonly Finding[]) => {
    const files = new Map<string, Finding[]>();
    for (const finding of findings) {
      const list = files.get(finding.path);
      if (list === undefined) files.set(finding.path, [finding]);
      else list.push(finding);
    }
    return files;
  };
  const was = byFile(before);
  const now = byFile(after);
  const paths = new Set<string>();
  for (const [path, list] of now) {
    const old = was.get(path);
    if (old === undefined || !sameJsonItems(old, list)) paths.add(path);
  }
  for (const path of was.keys()) if (!now.has(path)) paths.add(path);
  // Views match findings about SKILL.md files only (view-findings.ts).
  const files = [...paths].filter((path) => basename(path) === SKILL_FILE);
  return Promise.all(files.map(async (path) => [path, await realOf(path)]));
}

/**
 * Two discovery answers that make the same profile view: the same skills, collisions and warnings (most are the very
 * objects: a discovery keeps the records of the skills a change did not touch). Their real paths are not compared:
 * views are kept only when texts alone changed, and a text moves no link.
 */
export function sameResult(a: DiscoveryResult | undefined, b: DiscoveryResult | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (a === b) return true;
  return (
    sameJsonItems(a.skills, b.skills) &&
    sameJsonItems(a.collisions, b.collisions) &&
    sameJsonItems(a.warnings, b.warnings)
  );
}
