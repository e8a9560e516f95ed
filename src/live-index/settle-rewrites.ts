// Waiting out a file rewrite in progress before a rebuild reads it (workspace-index.ts calls it from its invalidation
// step, docs/architecture.md "The change path"). A file of its own: a timing rule about the file system, not about the
// index.

import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a rebuild waits for a reported SKILL.md that is empty to get its content (see `settleRewrites`). */
const REWRITE_WAIT_MS = 100;
const REWRITE_POLL_MS = 4;
/** Above this many reported paths (a burst) the rebuild does not look for rewrites in progress. */
const REWRITE_CHECK_MAX_PATHS = 64;

/**
 * A plain rewrite of a file (`writeFile`: open with O_TRUNC, then write) is reported when the truncation happens, and a
 * rebuild that fast reads an empty SKILL.md: the skill would be removed in one `index` event and added back in the
 * next, when the watcher's re-read sees the content. So a reported SKILL.md that is empty gets up to REWRITE_WAIT_MS
 * to be written; one still empty then is read as it is. The same holds for a plugin registry or settings file
 * (`pluginFiles`): read empty, it would be a parse warning or every plugin gone for one event.
 */
export async function settleRewrites(paths: ReadonlySet<string>, pluginFiles: ReadonlySet<string>): Promise<void> {
  if (paths.size > REWRITE_CHECK_MAX_PATHS) return;
  const deadline = Date.now() + REWRITE_WAIT_MS;
  for (const path of paths) {
    if (basename(path) !== 'SKILL.md' && !pluginFiles.has(path)) continue;
    while ((await isEmptyFile(path)) && Date.now() < deadline) await sleep(REWRITE_POLL_MS);
  }
}

async function isEmptyFile(path: string): Promise<boolean> {
  const stats = await stat(path).catch(() => undefined);
  return stats?.isFile() === true && stats.size === 0;
}
