// Ranked search over skills (docs/api.md §GET /search): a MiniSearch full-text index (BM25) over each loaded skill's
// name, description and SKILL.md body. Terms are lower-cased and stemmed (Porter, the `stemmer` package), so a
// plural, a gerund and the bare word meet; a query term also matches as a prefix (`bisec` → `git-bisect`) and within
// one edit (`spredsheet` → `spreadsheets`). Nothing here reads a file or knows about reloads: the live index feeds it
// (src/index/search-index.ts).

import { createRequire } from 'node:module';
import type MiniSearch from 'minisearch';
import type { SearchResult } from 'minisearch';
import { stemmer } from 'stemmer';

export const SEARCH_FIELDS = ['name', 'description', 'body'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** What the index is fed for one skill; `id` is the skill's `filePath` (unique among loaded skills). */
export interface SearchDocument {
  id: string;
  name: string;
  description: string;
  body: string;
}

export interface SearchHit {
  id: string;
  /** BM25 with the field boosts below, rounded to 3 decimals (so equal answers print equal). */
  score: number;
  /** The fields a query term matched in, in SEARCH_FIELDS order. */
  fields: SearchField[];
}

export type SkillSearch = MiniSearch<SearchDocument>;

/** The name says most about what a skill is for, then its description, then the body (docs/api.md §GET /search). */
const BOOST: Record<SearchField, number> = { name: 4, description: 2, body: 1 };
/** A longer token is a hash, a URL or base64: no one searches for it, and it would only grow the index. */
const MAX_TERM_LENGTH = 40;
/** Shorter query terms match exactly: `a` as a prefix would match nearly every term. */
const MIN_PREFIX_LENGTH = 3;
/** Shorter query terms are not read with a typo: `pdf` within one edit matches any 3-letter term with two of its letters. */
const MIN_FUZZY_LENGTH = 4;
/**
 * Words that say nothing about what a skill does ("extract tables *from* pdf"): left out of the index and the query,
 * so that they neither rank a skill nor cost a posting per body.
 */
const STOP_WORDS = new Set(
  'a an and are as at be by for from if in into is it of on or so than that the then this to was were when with'.split(
    ' ',
  ),
);

/** A query is cut to this many terms: each costs a walk of the term tree. */
export const MAX_QUERY_TERMS = 32;

let miniSearchClass: typeof MiniSearch | undefined;

/**
 * MiniSearch, required on the first search index built: a daemon nobody searches never loads it (docs/performance.md
 * "Idle memory"; the index itself is built on a workspace's first search).
 */
function miniSearch(): typeof MiniSearch {
  miniSearchClass ??= createRequire(import.meta.url)('minisearch') as typeof MiniSearch;
  return miniSearchClass;
}

export function createSkillSearch(): SkillSearch {
  const MiniSearchClass = miniSearch();
  return new MiniSearchClass<SearchDocument>({
    fields: [...SEARCH_FIELDS],
    storeFields: [],
    processTerm: indexTerm,
    // Vacuuming is run by the live index between updates, so that one answer tag is one answer.
    autoVacuum: false,
    searchOptions: { processTerm: queryTerm },
  });
}

/** The best `limit` skills for `query`, best first; ties keep the order MiniSearch found them in (stable). */
export function searchSkills(search: SkillSearch, query: string, limit: number): SearchHit[] {
  const terms = miniSearch()
    .getDefault('tokenize')(query)
    .filter((term: string) => term !== '')
    .slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return [];
  const results = search.search(terms.join(' '), {
    boost: BOOST,
    prefix: (term) => term.length >= MIN_PREFIX_LENGTH,
    fuzzy: (term) => (term.length >= MIN_FUZZY_LENGTH ? 1 : false),
    combineWith: 'OR',
  });
  return results.slice(0, limit).map(toHit);
}

/** The body of a SKILL.md: what follows the frontmatter block (docs/discovery.md §2), or the whole text. */
export function skillBody(text: string): string {
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!unmarked.startsWith('---')) return unmarked;
  const close = unmarked.indexOf('\n---', 3);
  return close === -1 ? unmarked : unmarked.slice(close + 4);
}

function toHit(result: SearchResult): SearchHit {
  const matched = new Set<string>();
  for (const fields of Object.values(result.match)) for (const field of fields) matched.add(field);
  return {
    id: result.id as string,
    score: Math.round(result.score * 1000) / 1000,
    fields: SEARCH_FIELDS.filter((field) => matched.has(field)),
  };
}

function indexTerm(term: string): string | null {
  return term.length > MAX_TERM_LENGTH ? null : stemOf(term);
}

function queryTerm(term: string): string | null {
  const stem = stemOf(term);
  // A stem cut under the prefix length (`bis` → `bi`) would lose the prefix match the word was typed for.
  return stem !== null && stem.length < MIN_PREFIX_LENGTH && term.length >= MIN_PREFIX_LENGTH
    ? term.toLowerCase()
    : stem;
}

/**
 * Stems by word, remembered: a body repeats its words, and the Porter rules cost about as much as MiniSearch's own work
 * per token (docs/performance.md §Search). Bounded: emptied when full.
 */
const STEMS = new Map<string, string | null>();
const MAX_STEMS = 100_000;

function stemOf(term: string): string | null {
  const known = STEMS.get(term);
  if (known !== undefined) return known;
  const lower = term.toLowerCase();
  const stem = lower === '' || STOP_WORDS.has(lower) ? null : stemmer(lower);
  if (STEMS.size >= MAX_STEMS) STEMS.clear();
  STEMS.set(term, stem);
  return stem;
}
