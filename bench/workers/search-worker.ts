// The search index at N skills, in a fresh `--expose-gc` process: what building it costs (every body read once and
// tokenised), what it holds (RSS and heap with and without it, the skill index alive in both), what a query costs
// (prefix and typo matching on), and what following a reload costs against building again from nothing.

import { writeFile } from 'node:fs/promises';
import { defaultSettings } from '../../src/discovery/settings.js';
import { createSkillFileCache } from '../../src/discovery/skill-file-cache.js';
import { createSkillSearch, searchSkills } from '../../src/discovery/skill-search.js';
import { SkillSearchIndex } from '../../src/index/search-index.js';
import { WorkspaceIndex } from '../../src/index/workspace-index.js';
import { childInput, childResult } from '../lib/child.js';
import { createRng } from '../lib/rng.js';

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
  /** The same N over a Zipf vocabulary (see `zipfCorpus`): index build and query milliseconds by kind. */
  zipf: { buildMs: number; heapBytes: number; queryMs: Record<QueryKind, number[]>; meanMatches: number };
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

// Queries from the skills' own words, spread over the index: a word, its first four letters, the word with one letter
// dropped, and three words of a description.
const words = snapshot.skills
  .flatMap((skill) => skill.description.toLowerCase().split(/[^a-z]+/))
  .filter((word) => word.length >= 6);
const pick = (i: number): string => words[(i * 7919) % words.length]!;
const queries: Record<QueryKind, string[]> = { word: [], prefix: [], typo: [], phrase: [] };
for (let i = 0; i < input.queries; i++) {
  const word = pick(i);
  queries.word.push(word);
  queries.prefix.push(word.slice(0, 4));
  queries.typo.push(word.slice(0, 2) + word.slice(3));
  queries.phrase.push(`${pick(i + 1)} ${pick(i + 2)} ${pick(i + 3)}`);
}
const queryMs: Record<QueryKind, number[]> = { word: [], prefix: [], typo: [], phrase: [] };
let found = 0;
for (const kind of Object.keys(queries) as QueryKind[]) {
  // One round unmeasured: the first calls compile the search code.
  for (const query of queries[kind].slice(0, 20)) await index.searchAnswer(query, 10);
  for (const query of queries[kind]) {
    const t0 = performance.now();
    const { answer } = await index.searchAnswer(query, 10);
    queryMs[kind].push(performance.now() - t0);
    found += answer.results.length;
  }
}

// Following a reload, on an index of its own (the same snapshot): one body edited and reported, then a build without
// paths.
const search = new SkillSearchIndex();
search.follow(snapshot, { full: true, paths: new Set() });
await search.settled();
const updateMs: number[] = [];
for (let i = 0; i < input.updates; i++) {
  const file = input.editable[i % input.editable.length]!;
  await writeFile(file, `---\nname: edited-${i}\ndescription: Edited by the search benchmark\n---\n\nBody ${i}.\n`);
  const t0 = performance.now();
  search.follow(snapshot, { full: false, paths: new Set([file]) });
  await search.settled();
  updateMs.push(performance.now() - t0);
}
const t1 = performance.now();
search.follow(snapshot, { full: true, paths: new Set() });
await search.settled();
const fullCheckMs = performance.now() - t1;
await index.close();

const zipf = zipfRun(snapshot.skills.length, input.queries);

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
  zipf,
} satisfies SearchWorkerResult);

/**
 * The fixture's prose draws on about 90 words, so each of them is in nearly every body and every query matches
 * nearly every skill: the worst case. Real text follows Zipf's law: this corpus has the fixture's sizes (about 1,150
 * body words, 20 description words, 2 name words) drawn from 30,000 words with exponent 1.07, as English is.
 */
function zipfRun(n: number, count: number): SearchWorkerResult['zipf'] {
  const rng = createRng(20261202);
  const vocabulary = 30_000;
  const cdf: number[] = [];
  let sum = 0;
  for (let rank = 1; rank <= vocabulary; rank++) {
    sum += 1 / rank ** 1.07;
    cdf.push(sum);
  }
  // Words of 5 to 10 letters spelled from a hash of their rank: as sparse among letter strings as real words are, so
  // a prefix or a typo reaches a few other words, not every word of its length.
  const word = (rank: number): string => {
    let h = Math.imul(rank + 1, 0x9e3779b1) >>> 0;
    const length = 5 + (h % 6);
    let out = '';
    for (let i = 0; i < length; i++) {
      h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
      out += String.fromCharCode(97 + (h % 26));
    }
    return out;
  };
  const draw = (): number => {
    const target = rng() * sum;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const text = (words: number): string => Array.from({ length: words }, () => word(draw())).join(' ');
  const before = memory().heap;
  const search = createSkillSearch();
  // Only the `add` calls are timed: drawing the words is the benchmark's own work.
  let buildMs = 0;
  for (let i = 0; i < n; i++) {
    const document = {
      id: `/zipf/${i}`,
      name: `${word(draw())}-${word(draw())}`,
      description: text(20),
      body: text(1150),
    };
    const t0 = performance.now();
    search.add(document);
    buildMs += performance.now() - t0;
  }
  const heapBytes = memory().heap - before;
  // What people search for: words of middle frequency (ranks 100 to 5,000), not the commonest.
  const queryWord = (i: number): string => word(100 + ((i * 7919) % 4900));
  const queries: Record<QueryKind, string[]> = { word: [], prefix: [], typo: [], phrase: [] };
  for (let i = 0; i < count; i++) {
    const w = queryWord(i);
    queries.word.push(w);
    queries.prefix.push(w.slice(0, 4));
    queries.typo.push(w.slice(0, 2) + w.slice(3));
    queries.phrase.push(`${queryWord(i + 1)} ${queryWord(i + 2)} ${queryWord(i + 3)}`);
  }
  const queryMs: Record<QueryKind, number[]> = { word: [], prefix: [], typo: [], phrase: [] };
  let matches = 0;
  for (const kind of Object.keys(queries) as QueryKind[]) {
    for (const query of queries[kind].slice(0, 20)) searchSkills(search, query, 10);
    for (const query of queries[kind]) {
      const t0 = performance.now();
      searchSkills(search, query, 10);
      queryMs[kind].push(performance.now() - t0);
    }
    matches += queries[kind].reduce((total, query) => total + search.search(query).length, 0);
  }
  return { buildMs, heapBytes, queryMs, meanMatches: matches / (count * 4) };
}
