// Memory across many reloads: one in-process WorkspaceIndex over 100 skills (with the daemon's shared SKILL.md
// cache), one SKILL.md edited before every reload. RSS and heapUsed are read after two gc() calls, once after the
// first 100 reloads (caches, event log and JIT warm) and once at the end: a leak per reload shows as the difference.
//
//   node --expose-gc --import tsx bench/soak-reloads.ts [--reloads 10000] [--json]

import { mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSkillFileCache } from '../src/discovery/scan/skill-file-cache.js';
import { defaultSettings } from '../src/discovery/settings.js';
import { WorkspaceIndex } from '../src/live-index/workspace-index.js';
import { SK, writeTree } from '../test/helpers/temp-tree.js';

const SKILLS = 100;
const WARM_RELOADS = 100;
const SAMPLE_AT = new Set([WARM_RELOADS, 1000, 2500, 5000, 7500]);

export interface MemorySample {
  reloads: number;
  rssBytes: number;
  heapUsedBytes: number;
  externalBytes: number;
}

export interface SoakResult {
  reloads: number;
  generation: number;
  warm: MemorySample;
  end: MemorySample;
  /** Every sample: after 100, 1,000 (the event log holds its last 1000 events from here on), … and N reloads. */
  samples: MemorySample[];
  ms: number;
}

export async function soakReloads(reloads: number): Promise<SoakResult> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const root = await realpath(await mkdtemp(join(tmpdir(), 'skillsd-soak-')));
  try {
    const tree: Record<string, string> = { 'home/.keep': '', 'work/.git/HEAD': 'ref: refs/heads/main\n' };
    for (let i = 0; i < SKILLS; i++) tree[`work/.musepi/skills/s${i}/SKILL.md`] = SK({ description: `skill ${i}` });
    await writeTree(root, tree);
    const index = new WorkspaceIndex({
      home: join(root, 'home'),
      cwd: join(root, 'work'),
      env: {},
      settings: defaultSettings(),
      cache: createSkillFileCache(),
      watch: false,
    });
    await index.ready;
    const sample = (count: number): MemorySample => {
      gc();
      gc();
      const usage = process.memoryUsage();
      return { reloads: count, rssBytes: usage.rss, heapUsedBytes: usage.heapUsed, externalBytes: usage.external };
    };
    const started = performance.now();
    const samples: MemorySample[] = [];
    for (let reload = 1; reload <= reloads; reload++) {
      // A new description every time: a real change, a new generation, an `index` event in the log.
      const file = join(root, 'work', '.musepi', 'skills', `s${reload % SKILLS}`, 'SKILL.md');
      await writeFile(`${file}.tmp`, SK({ description: `skill ${reload % SKILLS} edit ${reload}` }));
      await rename(`${file}.tmp`, file);
      await index.rebuild();
      if (SAMPLE_AT.has(reload) && reload < reloads) samples.push(sample(reload));
    }
    const end = sample(reloads);
    samples.push(end);
    const generation = index.snapshot?.generation ?? 0;
    await index.close();
    const warm = samples.find((s) => s.reloads === WARM_RELOADS) ?? end;
    return { reloads, generation, warm, end, samples, ms: Math.round(performance.now() - started) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { reloads: { type: 'string', default: '10000' }, json: { type: 'boolean' } },
  });
  const result = await soakReloads(Number(values.reloads));
  if (values.json) {
    console.log(JSON.stringify(result));
  } else {
    const { warm, end } = result;
    console.log(`${result.reloads} reloads in ${result.ms} ms (generation ${result.generation})`);
    for (const s of result.samples) {
      console.log(
        `after ${s.reloads}: rss ${mib(s.rssBytes)}, heapUsed ${mib(s.heapUsedBytes)}, external ${mib(s.externalBytes)}`,
      );
    }
    console.log(
      `difference: rss ${mib(end.rssBytes - warm.rssBytes)}, heapUsed ${mib(end.heapUsedBytes - warm.heapUsedBytes)}`,
    );
  }
}
