// The cost of one reload of the live index, in-process, without the watcher: the `real` benchmark tree at N skills
// (default 10,000; `~/.claude/skills` holds N/6 siblings), one WorkspaceIndex built as the daemon builds it (shared
// SKILL.md cache, blocking first index), then rounds of: a SKILL.md description edited in the crowded directory, a
// skill directory added there, renamed, removed. Each change is handed to the index with the paths a watcher reports
// for it (an edit: the SKILL.md; a directory: the entry and its SKILL.md), and timed from just before until the
// rebuild has swapped in the new snapshot and logged its events. The `/skills` body and ETag an answer would then
// assemble are timed apart (`body`), since the daemon builds them on the first request, not on the reload path.
//
//   node --import tsx bench/rebuild-profile.ts [--skills 10000] [--rounds 40] [--root DIR] [--json]
//   node --import tsx bench/rebuild-profile.ts --profile /tmp/rounds.cpuprofile   # CPU profile of the rounds only
//
// `--only edit` or `--only structural` runs one kind of change (for a profile of it). `--agents` requests the per-agent
// views first, so that every rebuild also keeps them current (docs/agents.md "Live"). `--root DIR` keeps the generated tree there and reuses it on the next run (the changes are undone every round).

import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSkillFileCache } from '../src/discovery/scan/skill-file-cache.js';
import { defaultSettings } from '../src/discovery/settings.js';
import type { IndexEvent } from '../src/live-index/event-log.js';
import { WorkspaceIndex } from '../src/live-index/workspace-index.js';
import { CROWDED_DIR_INDEX, type Fixture, generateFixture, SKILL_DIRS } from './fixtures.js';

const KINDS = ['edit', 'add', 'rename', 'remove', 'body'] as const;
type Kind = (typeof KINDS)[number];
const WARM_ROUNDS = 5;

interface Timings {
  kind: Kind;
  median: number;
  p90: number;
  min: number;
  max: number;
  samples: number;
}

/** The private entry point the watcher's reports go through: the same call the daemon makes. */
type ReportedRebuild = { rebuildFor(paths: readonly string[]): Promise<void> };

export async function profileRebuilds(
  skills: number,
  rounds: number,
  keepRoot?: string,
  profileTo?: string,
  only?: 'edit' | 'structural',
  agents = false,
): Promise<Timings[]> {
  const root = keepRoot ?? (await mkdtemp(join(tmpdir(), 'skillsd-rebuild-')));
  // The fixture's description, kept next to it: a tree generated once is reused as it is by later runs.
  const described = join(root, `fixture-${skills}.json`);
  let fixture: Fixture;
  try {
    fixture = JSON.parse(await readFile(described, 'utf8')) as Fixture;
  } catch {
    await rm(join(root, 'home'), { recursive: true, force: true });
    await rm(join(root, 'workspace'), { recursive: true, force: true });
    await mkdir(root, { recursive: true });
    fixture = await generateFixture({ root, skills, seed: 1, shape: 'real' });
    await writeFile(described, JSON.stringify(fixture));
  }
  const crowded = join(fixture.home, SKILL_DIRS[CROWDED_DIR_INDEX]!.dir);
  const editable = fixture.editable.filter((file) => file.startsWith(`${crowded}/`));
  if (editable.length === 0) throw new Error('no editable skill in the crowded directory');
  const index = new WorkspaceIndex({
    home: fixture.home,
    cwd: fixture.workspace,
    env: {},
    settings: defaultSettings(),
    cache: createSkillFileCache(),
    watch: false,
    blockingFirstIndex: true,
  });
  const samples = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
  const originals = new Map<string, Buffer>();
  let events = 0;
  index.events.subscribe((event: IndexEvent) => {
    // The default view's event; with --agents, the event naming the views that changed follows it.
    if (event.type === 'index' && (event.data as { views?: unknown }).views === undefined) events++;
  });
  try {
    await index.ready;
    // The per-agent views requested once: from then on every rebuild keeps them current too.
    if (agents) await index.agentViews(900_000);
    const profiler = profileTo === undefined ? undefined : await startProfiler();
    const reported = index as unknown as ReportedRebuild;
    const timed = async (kind: Kind, round: number, paths: string[]): Promise<void> => {
      const before = events;
      const started = performance.now();
      await reported.rebuildFor(paths);
      const took = performance.now() - started;
      if (events !== before + 1) throw new Error(`${kind}: ${events - before} index events instead of 1`);
      const snapshot = index.snapshot!;
      const bodyStarted = performance.now();
      if (snapshot.body.length === 0 || snapshot.etag === '') throw new Error('empty answer');
      const bodyTook = performance.now() - bodyStarted;
      if (round >= WARM_ROUNDS) {
        samples.get(kind)!.push(took);
        samples.get('body')!.push(bodyTook);
      }
    };
    for (let round = 0; round < WARM_ROUNDS + rounds; round++) {
      const file = editable[round % editable.length]!;
      const original = originals.get(file) ?? (await readFile(file));
      originals.set(file, original);
      if (only !== 'structural') {
        await writeFile(file, editedContent(original, `Edited in round ${round}`));
        await timed('edit', round, [file]);
        // Undone: an edit too (it brings back the diagnostic the first one may have dropped).
        await writeFile(file, original);
        await timed('edit', round, [file]);
      }
      if (only === 'edit') continue;

      const added = join(crowded, `zz-added-${round}`);
      await mkdir(added);
      await writeFile(
        join(added, 'SKILL.md'),
        `---\nname: zz-added-${round}\ndescription: Added in round ${round}\n---\n`,
      );
      await timed('add', round, [added, join(added, 'SKILL.md')]);

      const renamed = join(crowded, `aa-renamed-${round}`);
      await rename(added, renamed);
      await timed('rename', round, [added, join(added, 'SKILL.md'), renamed, join(renamed, 'SKILL.md')]);

      await rm(renamed, { recursive: true });
      await timed('remove', round, [renamed, join(renamed, 'SKILL.md')]);
    }
    if (profiler !== undefined && profileTo !== undefined) await writeFile(profileTo, JSON.stringify(await profiler()));
  } finally {
    await index.close();
    for (const [file, content] of originals) await writeFile(file, content);
    if (keepRoot === undefined) await rm(root, { recursive: true, force: true });
  }
  return KINDS.filter((kind) => samples.get(kind)!.length > 0).map((kind) => summarise(kind, samples.get(kind)!));
}

/** Starts the V8 sampling profiler in this process; the returned function stops it and gives the profile. */
async function startProfiler(): Promise<() => Promise<object>> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) => {
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result)));
    });
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    session.disconnect();
    return profile;
  };
}

function summarise(kind: Kind, values: number[]): Timings {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)]!;
  return { kind, median, p90, min: sorted[0]!, max: sorted.at(-1)!, samples: sorted.length };
}

function editedContent(original: Buffer, description: string): string {
  const text = original.toString('utf8');
  const next = text.replace(/^description: .*$/m, `description: ${description}`);
  if (next === text) throw new Error('fixture SKILL.md without a description line');
  return next;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      skills: { type: 'string', default: '10000' },
      rounds: { type: 'string', default: '40' },
      root: { type: 'string' },
      json: { type: 'boolean' },
      profile: { type: 'string' },
      only: { type: 'string' },
      agents: { type: 'boolean' },
    },
  });
  const timings = await profileRebuilds(
    Number(values.skills),
    Number(values.rounds),
    values.root,
    values.profile,
    values.only === 'edit' || values.only === 'structural' ? values.only : undefined,
    values.agents === true,
  );
  if (values.json) console.log(JSON.stringify(timings));
  else {
    console.log(`N = ${Number(values.skills).toLocaleString('en-US')}, ${values.rounds} rounds (ms):`);
    for (const t of timings) {
      console.log(
        `${t.kind.padEnd(7)} median ${t.median.toFixed(2)}  p90 ${t.p90.toFixed(2)}  min ${t.min.toFixed(2)}  max ${t.max.toFixed(2)}`,
      );
    }
  }
}
