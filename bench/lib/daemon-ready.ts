// The two moments a daemon benchmark waits for: the first full answer (`GET /skills` listing every fixture name) and
// the armed watcher (an edit inside a skill directory got its `index` event; docs/performance.md "Against the
// floor"). The same conditions as bench/floor.bench.ts waits on.

import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { httpGet, type ServerProcess } from './server-process.js';
import { SseClient, type SseEvent } from './sse-client.js';

export interface IndexEventData {
  added: string[];
  removed: string[];
  changed: string[];
}

/** The names of an `index` event's list (none for any other event). */
export function indexNames(event: SseEvent, field: keyof IndexEventData): string[] {
  if (event.event !== 'index') return [];
  return (JSON.parse(event.data) as IndexEventData)[field];
}

/** The SKILL.md text with its `description:` line replaced, every other byte kept. */
export function withDescription(original: Buffer | string, description: string): string {
  const text = original.toString();
  const next = text.replace(/^description: .*$/m, `description: ${description}`);
  if (next === text) throw new Error('SKILL.md without a description line');
  return next;
}

/** Polls `GET /skills` every 2 ms until a 200 lists `names` skills; performance.now() of that answer. */
export async function waitForFullList(daemon: ServerProcess, names: number, timeoutMs = 300_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (daemon.child.exitCode !== null || daemon.child.signalCode !== null) throw new Error('daemon exited');
    try {
      const answer = await httpGet(`${daemon.url}/skills`, {}, 30_000);
      const at = performance.now();
      if (answer.status === 200) {
        const listed = (JSON.parse(answer.body.toString('utf8')) as { skills: unknown[] }).skills.length;
        if (listed === names) return at;
      }
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) throw new Error(`no full GET /skills (${names} skills) within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * Until the watcher is armed, then `settleMs`: an edit inside a skill directory is seen only by the armed watcher or
 * by the re-check that follows the arming. The probe's bytes are restored afterwards, that edit's event awaited too.
 */
export async function waitForArmed(
  daemon: ServerProcess,
  probe: string,
  timeoutMs = 300_000,
  settleMs = 2000,
): Promise<void> {
  const client = await SseClient.connect(`${daemon.url}/events`);
  const original = readFileSync(probe);
  const name = basename(dirname(probe));
  try {
    await client.next((e) => e.event === 'hello', 10_000);
    writeFileSync(probe, withDescription(original, 'Probe that the watcher is armed'));
    await client.next((e) => indexNames(e, 'changed').includes(name), timeoutMs);
    writeFileSync(probe, original);
    await client.next((e) => indexNames(e, 'changed').includes(name), timeoutMs);
  } finally {
    client.close();
    writeFileSync(probe, original);
  }
  await new Promise((resolve) => setTimeout(resolve, settleMs));
}
