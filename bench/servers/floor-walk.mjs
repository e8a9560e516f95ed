// The I/O floor of a first index, in a fresh process: every skills directory listed, every entry stat'ed (links
// followed) and its SKILL.md read, by the plainest program that does the same I/O.
// Usage: node floor-walk.mjs <sync|async> <dirs.json>
// `sync`: one readdirSync + statSync + readFileSync loop (no event loop turns, no promises): the fastest plain loop.
// `async`: fs/promises, every directory at once and 64 files at a time in each (the pipeline's own concurrency).
// Prints one JSON line: { ms, files, bytes } where ms covers the walk only (not the process start).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

const [mode, dirsFile] = process.argv.slice(2);
const dirs = JSON.parse(readFileSync(dirsFile, 'utf8'));
const CONCURRENCY = 64;

function walkSync() {
  let files = 0;
  let bytes = 0;
  for (const dir of dirs) {
    let names;
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const entry = join(dir, name);
      try {
        if (!statSync(entry).isDirectory()) continue;
        bytes += readFileSync(join(entry, 'SKILL.md'), 'utf8').length;
        files++;
      } catch {
        // Not a skill directory.
      }
    }
  }
  return { files, bytes };
}

async function walkAsync() {
  const totals = await Promise.all(
    dirs.map(async (dir) => {
      let names;
      try {
        names = await readdir(dir);
      } catch {
        return { files: 0, bytes: 0 };
      }
      const candidates = names.filter((name) => !name.startsWith('.'));
      let next = 0;
      let files = 0;
      let bytes = 0;
      const worker = async () => {
        while (next < candidates.length) {
          const entry = join(dir, candidates[next++]);
          try {
            if (!(await stat(entry)).isDirectory()) continue;
            bytes += (await readFile(join(entry, 'SKILL.md'), 'utf8')).length;
            files++;
          } catch {
            // Not a skill directory.
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, candidates.length) }, worker));
      return { files, bytes };
    }),
  );
  return totals.reduce((a, b) => ({ files: a.files + b.files, bytes: a.bytes + b.bytes }), { files: 0, bytes: 0 });
}

const started = performance.now();
const result = mode === 'sync' ? walkSync() : await walkAsync();
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ms, ...result })}\n`);
