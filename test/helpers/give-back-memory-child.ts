// A process that runs giveBackMemory (src/cli/give-back-memory.ts) with a short check interval and prints every
// collection it logs as a JSON line on stdout. It stays idle until its stdin says `burst`: then it allocates, for
// about a second, objects that survive several scavenges (what a burst of reloads or a first search does to a daemon)
// and drops them, then says `burst over`. It exits when stdin closes.

import { createInterface } from 'node:readline';
import { giveBackMemory } from '../../src/cli/give-back-memory.js';

const CHECK_MS = Number(process.argv[2] ?? 200);

function print(line: object): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const stop = giveBackMemory({ debug: (fields, msg) => print({ ...fields, msg }) }, CHECK_MS);

function burst(): void {
  // Kept alive across scavenges, so that V8 grows its young generation as a daemon's burst makes it.
  let kept: Array<{ index: number; text: string }> = [];
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 100_000; i++) kept.push({ index: i, text: `item ${round} ${i}` });
    if (kept.length > 400_000) kept = kept.slice(200_000);
  }
  kept = [];
}

const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (line !== 'burst') return;
  burst();
  print({ msg: 'burst over' });
});
input.on('close', () => {
  stop();
});
