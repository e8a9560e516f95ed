// The search index at N skills, in a fresh `--expose-gc` process: what building it costs (every body read once and
// tokenised), what it holds (RSS and heap with and without it, the skill index alive in both), what a query costs
// (prefix and typo matching on), and what following a reload costs against building again from nothing.

import { writeFile } from 'node:fs/promises';
import { defaultSettings } from '../../src/discovery/settings.js';
import { createSkillFileCache } from '../../src/discovery/skill-file-cache.js';
import { SkillSearchIndex } from '../../src/index/search-index.js';
import { WorkspaceIndex } from '../../src/index/workspace-index.js';
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
} satisfies SearchWorkerResult);
