// One listing per skill and generation (docs/api.md "Limits on walks"): the walk of a skill's files is shared by
// every request that needs it while it runs, and remembered with the workspace's snapshot, so a new generation
// starts afresh and an old one's listings go with it. A remembered listing is checked against the disk before it is
// used again (`stillCurrent`): a supporting file can change without moving the generation.
//
// At most WALKS_AT_ONCE walks run at once; the others wait. A walk stops when every request waiting for it has gone
// away (its client closed the connection or cancelled): the walk's own signal aborts, and the next request for that
// skill starts a new one.

import type { ResolveOptions } from '../discovery/files/resolve-skill-url.js';
import {
  listSkillFiles,
  type SkillFileLimits,
  type SkillFileList,
  stillCurrent,
} from '../discovery/files/skill-file-list.js';
import { WalkGate } from '../discovery/files/walk-gate.js';
import type { Skill, SymlinkMode } from '../discovery/types.js';
import type { WorkspaceSnapshot } from './snapshot.js';

export const WALKS_AT_ONCE = 4;

/** What the daemon has walked since it started; read by tests and by the metrics. */
export interface SkillListingStats {
  /** Walks started. */
  walks: number;
  /** Walks that finished (complete or past a bound). */
  finished: number;
  /** Walks stopped because every request waiting for them went away. */
  aborted: number;
  /** Requests answered by a walk another request started, or by a remembered listing. */
  shared: number;
  /** Directory entries examined by all walks, refused ones included. */
  examined: number;
  /** Directories listed by all walks. */
  directories: number;
  running: number;
  waiting: number;
  peak: number;
}

interface SharedWalk {
  promise: Promise<SkillFileList>;
  controller: AbortController;
  /** Requests waiting for the walk to finish. */
  waiters: number;
  result?: SkillFileList;
}

const gate = new WalkGate(WALKS_AT_ONCE);
const bySnapshot = new WeakMap<WorkspaceSnapshot, Map<string, SharedWalk>>();
const counts = { walks: 0, finished: 0, aborted: 0, shared: 0, examined: 0, directories: 0 };

export function skillListingStats(): SkillListingStats {
  return { ...counts, ...gate.stats };
}

export interface ListingRequest {
  snapshot: WorkspaceSnapshot;
  name: string;
  /** The symlink mode in force (a setting, which can change within a generation). */
  symlinks: SymlinkMode;
  limits: SkillFileLimits;
  /** The request's own signal: aborts when its client goes away. */
  signal?: AbortSignal;
}

/** The listing of skill `name` in `snapshot`: remembered, shared, or walked now. */
export async function skillListing(request: ListingRequest): Promise<SkillFileList> {
  const { snapshot, name, symlinks, limits, signal } = request;
  signal?.throwIfAborted();
  let walks = bySnapshot.get(snapshot);
  if (walks === undefined) {
    walks = new Map();
    bySnapshot.set(snapshot, walks);
  }
  const key = keyOf(name, symlinks, limits);
  const known = walks.get(key);
  if (known?.result !== undefined) {
    if (await stillCurrent(known.result)) {
      counts.shared++;
      return known.result;
    }
    if (walks.get(key) === known) walks.delete(key);
  } else if (known !== undefined) {
    counts.shared++;
    return wait(walks, key, known, signal);
  }
  const walk = start(walks, key, request);
  return wait(walks, key, walk, signal);
}

function start(walks: Map<string, SharedWalk>, key: string, request: ListingRequest): SharedWalk {
  const controller = new AbortController();
  const { snapshot, name, symlinks, limits } = request;
  const options = listingOptions(snapshot, symlinks);
  const walk: SharedWalk = { controller, waiters: 0, promise: Promise.resolve(undefined as never) };
  walk.promise = gate.run(() => {
    counts.walks++;
    return listSkillFiles(snapshot.skills as Skill[], name, options, limits, {
      signal: controller.signal,
      onEntry: () => {
        counts.examined++;
      },
      onDirectory: () => {
        counts.directories++;
      },
    });
  }, controller.signal);
  walk.promise.then(
    (result) => {
      counts.finished++;
      walk.result = result;
    },
    () => {
      if (controller.signal.aborted) counts.aborted++;
      if (walks.get(key) === walk) walks.delete(key);
    },
  );
  walks.set(key, walk);
  return walk;
}

/** Waits for `walk` on behalf of one request; the last request to leave stops it. */
function wait(
  walks: Map<string, SharedWalk>,
  key: string,
  walk: SharedWalk,
  signal: AbortSignal | undefined,
): Promise<SkillFileList> {
  walk.waiters++;
  return new Promise((resolve, reject) => {
    const leave = () => {
      signal?.removeEventListener('abort', onAbort);
      walk.waiters--;
    };
    const onAbort = () => {
      leave();
      if (walk.waiters === 0 && walk.result === undefined) {
        if (walks.get(key) === walk) walks.delete(key);
        walk.controller.abort(signal?.reason);
      }
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    walk.promise.then(
      (result) => {
        if (signal?.aborted) return;
        leave();
        resolve(result);
      },
      (error: unknown) => {
        if (signal?.aborted) return;
        leave();
        reject(error);
      },
    );
  });
}

/**
 * The resolution rules of a listing, the file route's (`GET /skill/<name>/<path>`): every face lists exactly the
 * files that route would serve, so the archive, `skills/list` and `resources/directory/read` share one walk.
 */
export function listingOptions(snapshot: WorkspaceSnapshot, symlinks: SymlinkMode): ResolveOptions {
  return {
    profile: snapshot.profile,
    symlinks,
    knownRealPath: (filePath) => snapshot.knownRealPath(filePath),
    pluginRoot: (filePath) => snapshot.pluginRoot(filePath),
    skillNamed: (skillName) => snapshot.skill(skillName),
  };
}

/** What makes two walks of one snapshot's skill the same walk: the name, the symlink mode and the bounds. */
function keyOf(name: string, symlinks: SymlinkMode, limits: SkillFileLimits): string {
  const bounds = [limits.maxEntries, limits.maxDirectories, limits.maxDepth, limits.maxFiles, limits.maxBytes];
  return [name, symlinks, bounds.join(',')].join('\n');
}
