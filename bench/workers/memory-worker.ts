// Memory of the discovery result in a fresh `--expose-gc` process.
// `index`: discover once with a SkillFileCache and keep both alive (what the daemon holds), then measure.
// `reloads`: re-discover with one cache `reloads` times while editing a SKILL.md between runs; measure after the first
// reload and at checkpoints, to show whether anything accumulates.

import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { createSkillFileCache } from '../../src/discovery/scan/skill-file-cache.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { childInput, childResult } from '../lib/child.js';
import { setDescription } from '../lib/fixture-store.js';

export interface MemoryWorkerInput {
  mode: 'index' | 'reloads';
  home: string;
  workspace: string;
  /** `reloads`: SKILL.md files edited in turn. */
  editable: string[];
  reloads: number;
  /** `reloads`: stop early after this long (the run reports how many it did). */
  maxMs: number;
}

export interface MemorySample {
  reloads: number;
  rssBytes: number;
  heapUsedBytes: number;
}

export interface MemoryWorkerResult {
  skills: number;
  /** `index`: after startup, before discovery. */
  before: MemorySample;
  /** `index`: after discovery; `reloads`: after the first reload, at checkpoints, and at the end. */
  samples: MemorySample[];
  elapsedMs: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

function sample(reloads: number): MemorySample {
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return { reloads, rssBytes: usage.rss, heapUsedBytes: usage.heapUsed };
}

const input = childInput<MemoryWorkerInput>();
const ctx = { home: input.home, cwd: input.workspace, env: {}, settings: defaultSettings() };
const cache = createSkillFileCache();
const before = sample(0);
const started = performance.now();
const samples: MemorySample[] = [];
let skills = 0;

if (input.mode === 'index') {
  const result = await discoverSkills(ctx, { cache });
  skills = result.skills.length;
  samples.push(sample(0));
  // Keep the result reachable until the sample is taken.
  if (result.skills.length < 0) console.log(result);
} else {
  const checkpoint = Math.max(1, Math.floor(input.reloads / 10));
  let result = await discoverSkills(ctx, { cache });
  let done = 0;
  while (done < input.reloads && performance.now() - started < input.maxMs) {
    const file = input.editable[done % input.editable.length]!;
    await setDescription(file, `Reload ${done} of the memory benchmark`);
    result = await discoverSkills(ctx, { cache });
    done++;
    if (done === 1 || done % checkpoint === 0) samples.push(sample(done));
  }
  if (samples.at(-1)?.reloads !== done) samples.push(sample(done));
  skills = result.skills.length;
}

childResult({ skills, before, samples, elapsedMs: performance.now() - started } satisfies MemoryWorkerResult);
