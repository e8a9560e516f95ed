// Ranked search over skills (docs/api.md §GET /search): a MiniSearch full-text index (BM25) over each loaded skill's
// name, description and SKILL.md body. Terms are lower-cased and stemmed (Porter, the `stemmer` package), so a
// plural, a gerund and the bare word meet; English function words are left out of the index and of the query. The
// last query word also matches as a prefix (`bisec` → `git-bisect`, as-you-type), and a word of five letters or more
// within one edit (`spredsheet` → `spreadsheets`). Nothing here reads a file or knows about reloads: the live index
// feeds it (src/live-index/search-index.ts).
//
// What a query costs is the postings it scores (docs/performance.md §Search): every skill that holds a matched term,
// in every field. The rules above keep that to what the words typed can mean: a function word is in every body and
// says nothing of what a skill does; a prefix of three letters is wanted while a word is being typed, not for the
// words before it; a typo of a four-letter word reaches the commonest words of skill text (`nest` → `test`).

import { createRequire } from 'node:module';
import type MiniSearch from 'minisearch';
import type { Query, SearchResult } from 'minisearch';
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
/** A shorter last word matches exactly: `a` as a prefix would match nearly every term. */
export const MIN_PREFIX_LENGTH = 3;
/**
 * Shorter query words are not read with a typo: within one edit, `pdf` matches any 3-letter term with two of its
 * letters, and a 4-letter word reaches the commonest words of skill text (`nest` → `test`, `thea` → `them`).
 */
export const MIN_FUZZY_LENGTH = 5;
/**
 * English function words (docs/api.md §GET /search lists them): in nearly every body, they say nothing about what a
 * skill does ("extract tables *from* pdf"), so they neither rank a skill nor cost a posting per body. Prepositions
 * that end commands (`up`, `down`, `out`, `off`, `over`) and verbs that name tools (`make`, `get`) are kept.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about after all also am an and any are as at be because been before being between both but by can could did ' +
    'do does doing each every for from had has have he her here hers him his how i if in into is it its me more most ' +
    'must my no nor not of on only or other our ours she should so some such than that the their theirs them then ' +
    'there these they this those through to too us very was we were what when where which while who whom why will ' +
    'with within without would you your yours'
  ).split(' '),
);

/** A query is cut to this many words: each costs a walk of the term tree. */
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
    searchOptions: { processTerm: stemOf },
  });
}

/**
 * The best `limit` skills for `query`, best first; ties keep the order MiniSearch found them in (stable). A query of
 * function words only matches nothing (they are not in the index).
 */
export function searchSkills(search: SkillSearch, query: string, limit: number): SearchHit[] {
  const words = miniSearch()
    .getDefault('tokenize')(query)
    .filter((word: string) => word !== '')
    .slice(0, MAX_QUERY_TERMS)
    .map((word: string) => word.toLowerCase())
    .filter((word: string) => word.length <= MAX_TERM_LENGTH && !STOP_WORDS.has(word));
  if (words.length === 0) return [];
  const last = words.length - 1;
  const queries: Query[] = [];
  words.forEach((word: string, i: number) => {
    const fuzzy = word.length >= MIN_FUZZY_LENGTH ? 1 : false;
    // As MiniSearch's own suggestions do, only the last word is read as the start of a word: it is the one being
    // typed. The prefix is the word as typed, not its stem: a stem of a partial word is not a word (`ches` stems to
    // `che`, which would match `check`), and a complete word is found by its stem anyway.
    if (i === last && word.length >= MIN_PREFIX_LENGTH && stemOf(word) !== word) {
      queries.push({ queries: [word], processTerm: lowerCase, prefix: true, fuzzy: false });
      queries.push({ queries: [word], prefix: false, fuzzy });
    } else {
      queries.push({ queries: [word], prefix: i === last && word.length >= MIN_PREFIX_LENGTH, fuzzy });
    }
  });
  const results = search.search({ combineWith: 'OR', queries }, { boost: BOOST, maxFuzzy: 1 });
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

function lowerCase(term: string): string {
  return term.toLowerCase();
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
