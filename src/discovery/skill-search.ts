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
//
// A query is first reduced to its canonical form (`canonicalQuery`): the words that rank, each once, in an order of
// their own, so that every spelling of one question ("PDF tables", "tables pdf pdf") is one computation and one cache
// entry (src/live-index/search-index.ts). It is then scored one word at a time (`scoreQuery`), so that the caller can
// let the event loop turn between words.

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

/**
 * A query uses at most this many distinct words (docs/api.md §GET /search): the last one and the first 15 others. Each
 * costs a walk of the term tree and a score for every skill that holds what it matched; 16 is more than a sentence
 * saying what a task is leaves once its function words are gone.
 */
export const MAX_QUERY_TERMS = 16;
/**
 * The first this many characters of a body are indexed (docs/api.md §GET /search): adding a document holds the event
 * loop for as long as its text takes to tokenise, about 15 ms for 64 KiB and 150 ms for a 1 MiB SKILL.md.
 */
export const MAX_INDEXED_BODY_CHARS = 64 * 1024;

/** One word of a canonical query and how it is matched. */
export interface QueryTerm {
  /** The word as typed, lower-cased (the first spelling given, for a word given in several forms). */
  word: string;
  /** What it is looked up by as a whole word: its stem. */
  stem: string;
  /** Also within one typo (a word of five letters or more). */
  fuzzy: boolean;
  /** The last word of the query: also the start of a word (three letters or more). */
  last: boolean;
}

/**
 * A query reduced to what ranks it: every word but the last once per stem (`table` and `tables` are one word), sorted
 * by stem, since the order of whole words changes no score; then the last word, which matches differently. `key`
 * names the form: two queries with the same key have the same answer.
 */
export interface CanonicalQuery {
  terms: QueryTerm[];
  key: string;
}

let miniSearchClass: typeof MiniSearch | undefined;

/**
 * MiniSearch, required on the first search index built or query read (docs/performance.md "Idle memory"): a process
 * that never searches and follows no workspace live (the in-process CLI answering `skillsd list`) never loads it.
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
 * The canonical form of `query` (docs/api.md §GET /search): words lower-cased, function words and words over 40
 * characters dropped, then the last word and the first 15 other distinct words (by stem) kept. An earlier word the
 * last one already matches (same stem, and no typo allowed that the last one does not allow) is dropped.
 */
export function canonicalQuery(query: string): CanonicalQuery {
  const words = miniSearch()
    .getDefault('tokenize')(query)
    .map((word: string) => word.toLowerCase())
    .filter((word: string) => word !== '' && word.length <= MAX_TERM_LENGTH && !STOP_WORDS.has(word));
  const lastWord = words.pop();
  if (lastWord === undefined) return { terms: [], key: '' };
  const last: QueryTerm = {
    word: lastWord,
    stem: stemOf(lastWord) ?? lastWord,
    fuzzy: lastWord.length >= MIN_FUZZY_LENGTH,
    last: true,
  };
  const others = new Map<string, QueryTerm>();
  for (const word of words) {
    const stem = stemOf(word) ?? word;
    const fuzzy = word.length >= MIN_FUZZY_LENGTH;
    if (stem === last.stem && (last.fuzzy || !fuzzy)) continue;
    const known = others.get(stem);
    if (known !== undefined) known.fuzzy ||= fuzzy;
    else if (others.size < MAX_QUERY_TERMS - 1) others.set(stem, { word, stem, fuzzy, last: false });
  }
  const terms = [...others.values()].sort((a, b) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0));
  terms.push(last);
  const key = terms.map((term) => (term.last ? `|${term.word}` : `${term.stem}${term.fuzzy ? '~' : ''}`)).join(' ');
  return { terms, key };
}

/**
 * The best `limit` skills for `query`, best first, in one go (the tests of the matching rules; the live index scores
 * with `scoreQuery` and yields between words). A query of function words only matches nothing (they are not in the
 * index).
 */
export function searchSkills(search: SkillSearch, query: string, limit: number): SearchHit[] {
  const scores = new QueryScores();
  for (const term of canonicalQuery(query).terms) scores.add(search, term);
  return scores.ranked(limit);
}

/**
 * `searchSkills` over a canonical query, one word at a time: `between()` is awaited before each word (the caller lets
 * the event loop turn there, and throws to stop).
 */
export async function scoreQuery(
  search: SkillSearch,
  query: CanonicalQuery,
  limit: number,
  between: () => Promise<void>,
): Promise<SearchHit[]> {
  const scores = new QueryScores();
  for (const term of query.terms) {
    await between();
    scores.add(search, term);
  }
  return scores.ranked(limit);
}

/**
 * The scores of a query, summed word by word as MiniSearch sums the words of one OR query: per skill, the BM25 of
 * each word (its prefix and typo matches weighted down), times the number of query terms it matched. Terms and
 * fields are kept as bits (a query has at most 17 terms: 15 words, and the last one typed and stemmed).
 */
class QueryScores {
  private readonly bySkill = new Map<string, { sum: number; terms: number; fields: number }>();
  private readonly termBits = new Map<string, number>();

  add(search: SkillSearch, term: QueryTerm): void {
    const fuzzy = term.fuzzy ? 1 : false;
    const prefix = term.last && term.word.length >= MIN_PREFIX_LENGTH;
    const queries: Query[] = [];
    // As MiniSearch's own suggestions do, only the last word is read as the start of a word: it is the one being
    // typed. The prefix is the word as typed, not its stem: a stem of a partial word is not a word (`ches` stems to
    // `che`, which would match `check`), and a complete word is found by its stem anyway.
    if (prefix && term.stem !== term.word) {
      queries.push({ queries: [term.word], processTerm: lowerCase, prefix: true, fuzzy: false });
      queries.push({ queries: [term.word], prefix: false, fuzzy });
    } else {
      queries.push({ queries: [term.word], prefix, fuzzy });
    }
    // Every result goes through `filter`, in the order MiniSearch found them: gathered there, none is kept, so
    // MiniSearch sorts nothing. Its score is the word's sum times the query terms it matched (one, or two for a
    // last word typed and stemmed): dividing gives the sum back exactly.
    search.search(
      { combineWith: 'OR', queries },
      {
        boost: BOOST,
        maxFuzzy: 1,
        filter: (result) => {
          this.gather(result);
          return false;
        },
      },
    );
  }

  ranked(limit: number): SearchHit[] {
    const hits: SearchHit[] = [];
    for (const [id, { sum, terms, fields }] of this.bySkill) {
      hits.push({
        id,
        score: Math.round(sum * bitCount(terms) * 1000) / 1000,
        fields: SEARCH_FIELDS.filter((_, i) => (fields & (1 << i)) !== 0),
      });
    }
    // Stable: ties keep the order the words found them in.
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, limit);
  }

  private gather(result: SearchResult): void {
    const id = result.id as string;
    let entry = this.bySkill.get(id);
    if (entry === undefined) {
      entry = { sum: 0, terms: 0, fields: 0 };
      this.bySkill.set(id, entry);
    }
    entry.sum += result.score / (result.queryTerms.length || 1);
    for (const term of result.queryTerms) entry.terms |= this.termBit(term);
    for (const fields of Object.values(result.match)) {
      for (const field of fields) entry.fields |= 1 << SEARCH_FIELDS.indexOf(field as SearchField);
    }
  }

  private termBit(term: string): number {
    let bit = this.termBits.get(term);
    if (bit === undefined) {
      bit = 1 << this.termBits.size;
      this.termBits.set(term, bit);
    }
    return bit;
  }
}

function bitCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/** What the index holds of a SKILL.md's body: its first MAX_INDEXED_BODY_CHARS characters, cut at a word's end. */
export function indexedBody(text: string): string {
  const body = skillBody(text);
  if (body.length <= MAX_INDEXED_BODY_CHARS) return body;
  const cut = body.slice(0, MAX_INDEXED_BODY_CHARS);
  const lastSpace = Math.max(cut.lastIndexOf(' '), cut.lastIndexOf('\n'));
  return lastSpace > 0 ? cut.slice(0, lastSpace) : cut;
}

/** The body of a SKILL.md: what follows the frontmatter block (docs/discovery.md §2), or the whole text. */
export function skillBody(text: string): string {
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!unmarked.startsWith('---')) return unmarked;
  const close = unmarked.indexOf('\n---', 3);
  return close === -1 ? unmarked : unmarked.slice(close + 4);
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
