// Frontmatter key normalisation (docs/discovery.md §2 rule 5): `-x` (hyphen + lower-case letter) becomes `X`, recursively
// through maps and lists; unknown keys are kept.
//
// The copy is a tree walk with a budget: YAML aliases make the parsed value a graph whose shared parts a tree copy
// (or a JSON response) would expand, and an anchor can even contain itself. The budget (nodes plus string lengths)
// bounds the expanded size to a few times the source text; past it, or past a sane depth, the walk throws and the
// caller treats the block as unreadable YAML. Every object made here is frozen: a cached frontmatter is shared.

import { flatCopy } from '../flat-string.js';

const KEBAB_LETTER = /-([a-z])/g;
const MAX_DEPTH = 256;

export class FrontmatterTooLargeError extends Error {
  constructor() {
    super('frontmatter expands beyond its size budget');
    this.name = 'FrontmatterTooLargeError';
  }
}

/** Hyphenated keys seen, renamed: a tree's files repeat the same few (`allowed-tools`, `argument-hint`). */
const camelKeys = new Map<string, string>();
/** Past this many distinct keys, or this long, each is renamed anew: files of made-up keys cannot grow the table. */
const MAX_CAMEL_KEYS = 256;
const MAX_CAMEL_KEY_LENGTH = 64;

export function camelKey(key: string): string {
  // Most keys (`name`, `description`, `license`) have no hyphen: no regular expression for them (10,000 skills start
  // with 30,000 of these calls).
  if (!key.includes('-')) return key;
  const known = camelKeys.get(key);
  if (known !== undefined) return known;
  const renamed = key.replace(KEBAB_LETTER, (_match, letter: string) => letter.toUpperCase());
  if (camelKeys.size < MAX_CAMEL_KEYS && key.length <= MAX_CAMEL_KEY_LENGTH) camelKeys.set(flatCopy(key), renamed);
  return renamed;
}

/** Budget for a value parsed from `sourceLength` characters of YAML. */
export function expansionBudget(sourceLength: number): number {
  return 4 * sourceLength + 4096;
}

/**
 * A frozen copy of `value` with every map key camel-cased (or renamed by `rename`: the MCP face shows keys as
 * written). Throws `FrontmatterTooLargeError` past the budget.
 */
export function normaliseKeys(value: unknown, budget: number, rename: (key: string) => string = camelKey): unknown {
  const state = { left: budget, rename };
  return copy(value, state, 0);
}

function copy(value: unknown, state: { left: number; rename: (key: string) => string }, depth: number): unknown {
  if (typeof value === 'string') {
    spend(state, 1 + value.length);
    // A parsed string is cut out of the block's text: the kept copy holds nothing else (docs/memory.md).
    return flatCopy(value);
  }
  spend(state, 1);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) throw new FrontmatterTooLargeError();
  if (Array.isArray(value)) {
    return Object.freeze(value.map((item: unknown) => copy(item, state, depth + 1)));
  }
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    spend(state, key.length);
    const name = state.rename(key);
    const copied = copy(item, state, depth + 1);
    // A `__proto__` key must stay a plain own property, which only defineProperty makes; an assignment is the same
    // for every other key, and several times cheaper.
    if (name === '__proto__') {
      Object.defineProperty(result, name, { value: copied, enumerable: true, writable: true, configurable: true });
    } else {
      result[name] = copied;
    }
  }
  return Object.freeze(result);
}

function spend(state: { left: number }, amount: number): void {
  state.left -= amount;
  if (state.left < 0) throw new FrontmatterTooLargeError();
}
