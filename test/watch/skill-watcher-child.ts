// Runs a skill watcher in a child process (used inside a user namespace whose inotify watch limit is tiny, so the
// watches really run out). Argument: JSON `{ skillDir, markerDir, editPath }`. Prints one JSON line:
// `{ modeAfterStart, lastError, sawEdit, changes }`.

import { writeFile } from 'node:fs/promises';
import { createSkillWatcher } from '../../src/watch/skill-watcher.js';

const { skillDir, markerDir, editPath } = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const changes: string[][] = [];
let notify = (): void => {};
const watcher = await createSkillWatcher({
  targets: { skillDirs: [skillDir!], markerDirs: [markerDir!] },
  onChange: (paths) => {
    changes.push(paths);
    notify();
  },
  pollIntervalMs: 30,
});

async function until(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise<void>((resolve) => {
      notify = resolve;
      setTimeout(resolve, 10);
    });
  }
  return true;
}

// The switch to polling is asynchronous: it follows the error event.
await until(() => watcher.status().mode === 'polling', 5000);
const modeAfterStart = watcher.status().mode;
const lastError = watcher.status().lastError;
await writeFile(editPath!, '---\ndescription: edited\n---\n');
const sawEdit = await until(() => changes.some((paths) => paths.includes(editPath!)), 5000);
await watcher.close();
process.stdout.write(`${JSON.stringify({ modeAfterStart, lastError, sawEdit, changes })}\n`);
