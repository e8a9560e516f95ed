// The search index at N skills, in a fresh `--expose-gc` process: what building it costs (every body read once and
// tokenised), what it holds (RSS and heap with and without it, the skill index alive in both), what a query costs
// (prefix and typo matching on), and what following a reload costs against building again from nothing.
//
// Queries are words of the skills' own descriptions, each asked once, so that no answer comes from the index's cache
// of answers (src/live-index/search-answer-cache.ts) and the figures measure the search itself: every distinct description word of six letters or more, ordered from
// the commonest to the rarest, picked at positions spread evenly on a log scale, so that each band of frequency
// (words in most skills, in a tenth, in a hundredth, in one) is asked as often as the others.

import { readFile, writeFile } from 'node:fs/promises';
import { createSkillFileCache } from '../../src/discovery/scan/skill-file-cache.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { SkillSearchIndex } from '../../src/live-index/search-index.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { childInput, childResult } from '../lib/child.js';

export interface SearchWorkerInput {
  home: string;
  workspace: string;
  /** SKILL.md files whose body an update rewrites (plain files of uniquely named skills). */
  editable: string[];
  /** Queries per kind. */
  queries: number;
  /** Single-skill updates measured. */
  updates: number;
}

export type QueryKind = 'word' | 'prefix' | 'typo' | 'phrase';

export interface SearchWorkerResult {
  skills: number;
  buildMs: number;
  /** Bytes, after `gc()`: the skill index alone, then with its search index built. */
  rssWithout: number;
  rssWith: number;
  heapWithout: number;
  heapWith: number;
  /** Milliseconds per query, by kind (each `searchAnswer`, as the route calls it). */
  queryMs: Record<QueryKind, number[]>;
  /** Results the queries found, to show they are not empty answers. */
  meanResults: number;
  /** One skill's body edited, the watcher's path reported: read, discard, add. */
  updateMs: number[];
  /** A build with no paths (settings re-applied): every SKILL.md's identity compared, nothing read. */
  fullCheckMs: number;
  /** Queries per kind that matched no skill at all. */
  emptyAnswers: Record<QueryKind, number>;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

function memory(): { rss: number; heap: number } {
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed };
}

const input = childInput<SearchWorkerInput>();
const index = new WorkspaceIndex({
  home: input.home,
  cwd: input.workspace,
  env: {},
  settings: defaultSettings(),
  cache: createSkillFileCache(),
  watch: false,
});
await index.ready;
const snapshot = index.snapshot!;
const without = memory();
const started = performance.now();
await index.searchSettled();
const buildMs = performance.now() - started;
const withSearch = memory();

// Queries from the skills' own words (see the top of this file): a word, its first four letters, the word with its
// third letter dropped, and three words of different frequency bands.
const frequency = new Map<string, number>();
for (const skill of snapshot.skills) {
  for (const word of new Set(skill.description.toLowerCase().split(/[^a-z]+/))) {
    if (word.length >= 6) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  }
}
const candidates = [...frequency].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word);
const positions: number[] = [];
for (let i = 0; i < input.queries; i++) {
  const at = Math.max(Math.floor(candidates.length ** ((i + 0.5) / input.queries)) - 1, (positions.at(-1) ?? -1) + 1);
  if (at >= candidates.length) break;
  positions.push(at);
}
/** One query per position, each distinct: a position whose query was already asked takes the next candidate's. */
function distinct(make: (word: string) => string): string[] {
  const asked = new Set<string>();
  for (const at of positions) {
    for (let j = at; j < candidates.length; j++) {
      const query = make(candidates[j]!);
      if (asked.has(query)) continue;
      asked.add(query);
      break;
    }
  }
  return [...asked];
}
const third = Math.floor(positions.length / 3);
const queries: Record<QueryKind, string[]> = {
  word: distinct((word) => word),
  prefix: distinct((word) => word.slice(0, 4)),
  typo: distinct((word) => word.slice(0, 2) + word.slice(3)),
  phrase: positions.map(
    (at, i) =>
      `${candidates[at]} ${candidates[positions[(i + third) % positions.length]!]} ` +
      `${candidates[positions[(i + 2 * third) % positions.length]!]}`,
  ),
};
// Common and rare words interleaved, so that no stretch of the run is all cheap or all dear queries.
for (const kind of Object.keys(queries) as QueryKind[]) {
  const list = queries[kind];
  queries[kind] = list.map((_, i) => list[(i * 7919) % list.length]!);
}
const queryMs: Record<QueryKind, number[]> = { word: [], prefix: [], typo: [], phrase: [] };
let found = 0;
const emptyAnswers: Record<QueryKind, number> = { word: 0, prefix: 0, typo: 0, phrase: 0 };
for (const kind of Object.keys(queries) as QueryKind[]) {
  // One round unmeasured: the first calls compile the search code. Each warm-up query ends in a word no skill holds,
  // so it is another query than the measured one and leaves nothing in the cache of answers for it.
  for (const query of queries[kind].slice(0, 20)) await index.searchAnswer(`${query} qqqzzx`, 10);
  for (const query of queries[kind]) {
    const t0 = performance.now();
    const { answer } = await index.searchAnswer(query, 10);
    queryMs[kind].push(performance.now() - t0);
    found += answer.results.length;
    if (answer.results.length === 0) emptyAnswers[kind]++;
  }
}

// Following a reload, on an index of its own (the same snapshot): one body edited and reported, then a build without
// paths. A body edit changes no record: the build that follows it updates the previous answer and changes no winner,
// and says so (`winners` with no names, the very same list), as the live index's builds do.
const search = new SkillSearchIndex();
search.follow(snapshot, { full: true, paths: new Set() });
await search.settled();
const updateMs: number[] = [];
const noWinnerChanged = { previous: snapshot.skills, next: snapshot.skills, names: new Set<string>() };
for (let i = 0; i < input.updates; i++) {
  const file = input.editable[i % input.editable.length]!;
  const text = await readFile(file, 'utf8');
  const head = text.slice(0, text.indexOf('\n---', 4) + 4);
  await writeFile(file, `${head}\n\nBody ${i}, edited by the search benchmark.\n`);
  const t0 = performance.now();
  search.follow(snapshot, { full: false, paths: new Set([file]), winners: noWinnerChanged });
  await search.settled();
  updateMs.push(performance.now() - t0);
}
const t1 = performance.now();
search.follow(snapshot, { full: true, paths: new Set() });
await search.settled();
const fullCheckMs = performance.now() - t1;
await index.close();

const total = Object.values(queryMs).reduce((n, list) => n + list.length, 0);
childResult({
  skills: snapshot.skills.length,
  buildMs,
  rssWithout: without.rss,
  rssWith: withSearch.rss,
  heapWithout: without.heap,
  heapWith: withSearch.heap,
  queryMs,
  meanResults: found / total,
  updateMs,
  fullCheckMs,
  emptyAnswers,
} satisfies SearchWorkerResult);
