// One discovery measurement in a fresh process: the real pipeline (`discover`), or the I/O floor (`floor`: readdir
// every skills directory, stat + read every SKILL.md with plain fs, with the
// concurrency of the pipeline), or the stat floor (`stat-floor`: readdir + stat only, what a reload with a warm
// cache cannot avoid).

import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { createSkillFileCache } from '../../src/discovery/scan/skill-file-cache.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { childInput, childResult } from '../lib/child.js';

export interface DiscoveryWorkerInput {
  mode: 'discover' | 'floor' | 'stat-floor';
  home: string;
  workspace: string;
  /** The skills directories the floor reads (the pipeline's own `scannedDirs`). */
  dirs: string[];
  /** Repeats after the first, cold, run: the warm runs (a SkillFileCache for `discover`). */
  warmRuns: number;
}

export interface DiscoveryWorkerResult {
  coldMs: number;
  warmMs: number[];
  /** Skills loaded (discover) or SKILL.md files read (floors). */
  count: number;
  scannedDirs: string[];
  rssBeforeBytes: number;
  peakRssBytes: number;
}

/** The pipeline's own: every directory at once, 64 files at a time in each (scan-skills-dir.ts READ_CONCURRENCY). */
const FLOOR_CONCURRENCY = 64;

const input = childInput<DiscoveryWorkerInput>();
const rssBeforeBytes = process.memoryUsage.rss();
let runOnce: () => Promise<{ count: number; scannedDirs: string[] }>;

if (input.mode === 'discover') {
  const cache = createSkillFileCache();
  const ctx = { home: input.home, cwd: input.workspace, env: {}, settings: defaultSettings() };
  runOnce = async () => {
    const result = await discoverSkills(ctx, { cache });
    return { count: result.skills.length, scannedDirs: result.scannedDirs };
  };
} else {
  const readFiles = input.mode === 'floor';
  runOnce = async () => {
    const counts = await Promise.all(input.dirs.map((dir) => floorDir(dir, readFiles)));
    return { count: counts.reduce((a, b) => a + b, 0), scannedDirs: input.dirs };
  };
}

let started = performance.now();
const first = await runOnce();
const coldMs = performance.now() - started;
const warmMs: number[] = [];
for (let i = 0; i < input.warmRuns; i++) {
  started = performance.now();
  await runOnce();
  warmMs.push(performance.now() - started);
}
const result: DiscoveryWorkerResult = {
  coldMs,
  warmMs,
  count: first.count,
  scannedDirs: first.scannedDirs,
  rssBeforeBytes,
  // maxRSS is in KiB: the high-water mark of the whole process.
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
};
childResult(result);

async function floorDir(dir: string, readFiles: boolean): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  const candidates = entries.filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()));
  let found = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < candidates.length) {
      const file = join(dir, candidates[next++]!.name, 'SKILL.md');
      try {
        const info = await stat(file);
        if (!info.isFile()) continue;
        if (readFiles) await readFile(file, 'utf8');
        found++;
      } catch {
        // Not a skill: same as the pipeline, nothing to count.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FLOOR_CONCURRENCY, candidates.length) }, worker));
  return found;
}
