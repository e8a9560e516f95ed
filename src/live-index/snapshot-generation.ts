// The generation of a workspace's snapshots (docs/api.md §GET /skills): the number clients compare to know the answer
// changed. Kept apart from the rebuild (workspace-index.ts) because it is a rule of its own, with two modes a reader
// should find in one place.

import type { Settings } from '../discovery/types.js';
import type { WorkspaceSnapshot } from './snapshot.js';

/**
 * `counter` (default): 1 for the first snapshot, one more for each change of the answer (docs/api.md §GET /skills).
 * `content`: a number read from the content hash, so that replicas serving the same files agree on it whatever reloads
 * each went through (docs/deploy.md §Replicas); it changes exactly when the answer changes but does not grow.
 */
export function nextGeneration(
  settings: Settings,
  previous: WorkspaceSnapshot | undefined,
  changed: boolean,
  contentHash: string,
): number {
  if (settings.server.generation === 'content') return contentGeneration(contentHash);
  if (previous === undefined) return 1;
  return changed ? previous.generation + 1 : previous.generation;
}

/** 13 hex digits: 52 bits, exact as a JSON number in every client. */
export function contentGeneration(contentHash: string): number {
  return Number.parseInt(contentHash.slice(0, 13), 16);
}
