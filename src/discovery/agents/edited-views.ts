// The views an edit of SKILL.md files changes, patched from what the last computation kept, ahead of the whole update
// (docs/agents.md "Live"). When only the texts of files the views already read changed, and each edited file reads
// as before in all that decides an agent's fold (loaded or not, under which name, with which warnings), an agent's
// view changes in the edited files' records alone: its kept run is patched in place (agent-run.ts `patchRun`) and the
// view keeps every other list it had, the doctor's findings among them. The daemon's own profile view is patched from
// the build's answer the same way. The rest (the doctor's findings about the edited files, the other profiles, the
// matrix) is the whole update's, which finds these runs patched already and tells a view again only where it finds
// it otherwise.
import { sameJson } from '../same-json.js';
import type { DiscoveryResult, Profile } from '../types.js';
import { patchRun, sidecarsOf } from './agent-run.js';
import { AGENT_SPECS } from './agents.js';
import type { AgentFileTexts, TextRead } from './file-texts.js';
import { patchProfileView } from './profiles.js';
import type { AgentSkill, AgentView, ViewId } from './types.js';
import type { RootWalkMemo } from './walk-memo.js';

export interface EditedViewsInput {
  /** Every view as the last computation made it, the doctor's findings included. */
  views: ReadonlyMap<ViewId, AgentView>;
  /** The walks and runs that computation kept (its runs are patched here). */
  walks: RootWalkMemo;
  texts: AgentFileTexts;
  /** The paths the watcher reported, with their real paths (runs know their files by real path). */
  edited: ReadonlySet<string>;
  /** The daemon's own profile: its view is the build's answer, `before` the one the last computation used. */
  profile?: { id: Profile; before: DiscoveryResult; after: DiscoveryResult };
}

/** A view an edit changed, patched: the view, and the names whose records changed, in the view's order. */
export interface ViewPatch {
  view: AgentView;
  changed: string[];
}

/**
 * The views whose answers the edit changes and that can be patched, by id. A patch replaces skill records in place:
 * every other list (warnings, collisions, the doctor's findings and the view's own) is the view's as it was. A view
 * missing here answers as before, or is left to the whole update: the edit changed its fold (its kept run is then
 * dropped, so that the update folds it again).
 */
export async function patchEditedViews(input: EditedViewsInput): Promise<Map<ViewId, ViewPatch>> {
  const { walks, texts, views } = input;
  const out = new Map<ViewId, ViewPatch>();
  // Each edited file is read once for every agent; the update that follows finds it current.
  texts.begin();
  const edits = AGENT_SPECS.flatMap((spec) => {
    const run = walks.runs.get(spec.info.id);
    const before = views.get(spec.info.id);
    const changed = run === undefined ? [] : [...input.edited].flatMap((real) => run.byReal.get(real) ?? []);
    return run === undefined || before === undefined || changed.length === 0 ? [] : [{ spec, run, before, changed }];
  });
  // Every agent's files and side files at once: one wait for them all.
  const inputs = await Promise.all(
    edits.map(({ spec, changed }) =>
      Promise.all([Promise.all(changed.map((found) => texts.read(found.realPath))), sidecarsOf(spec, walks, changed)]),
    ),
  );
  for (const [i, { spec, run, before, changed }] of edits.entries()) {
    const id = spec.info.id;
    const [reads, sidecars] = inputs[i] as (typeof inputs)[number];
    const patched = await patchRun(run, {
      spec,
      texts,
      changed: changed.map((found, i) => ({ found, text: reads[i] as TextRead })),
      sidecars,
    });
    if (patched === undefined) {
      // `patchRun` may have brought part of the run up to date before giving up: the update folds the agent anew.
      walks.runs.delete(id);
      continue;
    }
    walks.runs.set(id, patched);
    if (patched === run) continue;
    // The run's own findings are the last run's (`patchRun` keeps every fate), and so are the view's other lists.
    const view: AgentView = { ...before, skills: patched.view.skills };
    const places = changed.flatMap((found) => run.skillIndex.get(found) ?? []);
    const names = changedNames(before, view, places);
    if (names.length > 0) out.set(id, { view, changed: names });
  }
  const own = input.profile;
  const before = own === undefined ? undefined : views.get(own.id);
  if (own !== undefined && before !== undefined && own.before !== own.after) {
    const patched = patchProfileView(own.id, before, own.before, own.after, []);
    const view = patched === undefined ? undefined : { ...before, skills: patched.skills };
    const names = view === undefined ? [] : changedNames(before, view, replaced(before.skills, view.skills));
    if (view !== undefined && names.length > 0) out.set(own.id, { view, changed: names });
  }
  return out;
}

/**
 * The names whose records a patch changed, each once, in the order of its first record in the view (as the events of
 * a view made anew name them: view-comparison.ts `viewChangeEvents`). A patch replaces records in place and keeps
 * every name, so only the records at the places it may have replaced are compared, each with the one it replaced.
 */
function changedNames(before: AgentView, after: AgentView, places: Iterable<number>): string[] {
  const names = new Set<string>();
  for (const i of places) {
    const skill = after.skills[i] as AgentSkill;
    if (skill !== before.skills[i] && !sameJson(skill, before.skills[i])) names.add(skill.name);
  }
  if (names.size < 2) return [...names];
  const first = (name: string) => after.skills.findIndex((skill) => skill.name === name);
  return [...names].sort((a, b) => first(a) - first(b));
}

/** The places where `after` holds another record than `before` (lists of one length). */
function replaced(before: readonly AgentSkill[], after: readonly AgentSkill[]): number[] {
  const places: number[] = [];
  for (let i = 0; i < after.length; i++) if (after[i] !== before[i]) places.push(i);
  return places;
}
