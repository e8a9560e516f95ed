// The YAML reading of docs/discovery.md §2 rule 4b: the agents read frontmatter with their runtime's own YAML reader, which
// is not a plain YAML 1.2 core reader. `yaml` does the reading here, adjusted where the two differ:
// - a block of several documents (`...` then more content) reads as the list of its documents (so: no keys);
// - duplicate keys are legal and the last one wins;
// - merge keys (`<<`) are honoured, keys written in the map winning over merged ones; a `<<` whose value is neither
//   a map nor a list stays a plain key, and the items of a list that are not maps are ignored;
// - tags are ignored, except the string tags (`!!str`, `!`, `!<tag:yaml.org,2002:str>`) on a scalar: a quoted scalar
//   stays a string; a plain one resolves as if untagged when that gives the tag's own kind (`!!int`/`!!float`: a
//   number, `!!bool`: a boolean, `!!null`: null) and is a string otherwise (`!!bool 1`, `!foo 12`: text);
// - a `\uD800`–`\uDFFF` escape in a double-quoted scalar is an error (an adjacent `\uHIGH\uLOW` pair excepted), and
//   so are a flow collection in a value position followed by more text on its line, a quoted scalar left open at the
//   end of the text, two tags on one node and a malformed tag;
// - a one-line plain value starting with `,` is text.
// Tags are dropped from the parser's token tree before the composer sees them, so no tag-specific conversion
// (binary, sets, timestamps) and none of its errors can happen.

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { CST } from 'yaml';
import { typePlain } from './frontmatter-scalars.js';

const YAML_OPTIONS = {
  version: '1.2',
  schema: 'core',
  // Duplicates are legal (rule 4b); `yaml`'s own check would also compare every key with every earlier one.
  uniqueKeys: false,
  // Merge keys are applied by `applyMerges` below, whose rules are the agents' (a scalar `<<` is a plain key).
  merge: false,
  // Warnings would go to process.emitWarning; errors are read from each document below.
  logLevel: 'silent',
  prettyErrors: false,
} as const;

/** Aliases allowed per anchor (weighted by nesting, as `yaml` counts them): stops "billion laughs" blocks. */
const MAX_ALIAS_COUNT = 100;

/** Tags that keep their meaning: the string tag in its usual spellings, and the non-specific `!`. */
const STRING_TAGS: ReadonlySet<string> = new Set(['!!str', '!', '!<tag:yaml.org,2002:str>']);

/** The kind of untagged value each core tag keeps on a plain scalar; any other tag makes it text. */
const TAG_KINDS: Readonly<Record<string, string>> = {
  '!!int': 'number',
  '!!float': 'number',
  '!!bool': 'boolean',
  '!!null': 'null',
};

const MERGE_KEY = '<<';

/** A tag the agents' reader accepts: verbatim `!<…>`, or an optional `!`/`!!`/`!name!` handle and URI characters. */
const TAG_SHAPE = /^!(?:<[^<>]+>|(?:[0-9A-Za-z-]*!)?[0-9A-Za-z\-#;/?:@&=+$_.~*'()%]*)$/;

/** A YAML text the agents' reader refuses although `yaml` reads it. */
export class AgentsYamlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentsYamlError';
  }
}

let yaml: typeof Yaml | undefined;

/** The value of one YAML text as the agents read it. Throws on anything their reader refuses. */
export function readAgentsYaml(text: string): unknown {
  // Required on the first block the fast path leaves to it: a daemon whose skills all have simple frontmatter never
  // loads `yaml` (docs/performance.md "Idle memory").
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  const { Composer, Parser } = yaml;
  const tokens = withoutEmptyDocuments(Array.from(new Parser().parse(text)));
  const hasTags = text.includes('!');
  const hasFlow = text.includes('[') || text.includes('{');
  const hasEscapes = text.includes('\\u') || text.includes('\\U');
  const check = { text, hasFlow, hasEscapes, hasTags };
  for (const token of tokens) visitTopToken(token, check);
  const documents = Array.from(new Composer(YAML_OPTIONS).compose(tokens, true, text.length));
  for (const document of documents) {
    const [error] = document.errors;
    if (error) throw error;
  }
  const values = documents.map((document) =>
    toAgentsValue(document.toJS({ maxAliasCount: MAX_ALIAS_COUNT, mapAsMap: true }), new Map()),
  );
  if (values.length > 1) return values;
  return values[0] ?? null;
}

/**
 * `...` twice in a row leaves an empty document between the markers, which the agents' reader does not count (an
 * empty document before the first marker does count).
 */
function withoutEmptyDocuments(tokens: CST.Token[]): CST.Token[] {
  return tokens.filter(
    (token, index) =>
      !(
        token.type === 'document' &&
        token.value === undefined &&
        index > 0 &&
        tokens[index - 1]!.type === 'doc-end' &&
        token.start.every((start) => start.type === 'space' || start.type === 'newline' || start.type === 'comment')
      ),
  );
}

interface Check {
  text: string;
  hasFlow: boolean;
  hasEscapes: boolean;
  hasTags: boolean;
}

function visitTopToken(token: CST.Token, check: Check): void {
  if (token.type !== 'document') return;
  if (check.hasTags) dropTags(token.start, token.value);
  if (token.value !== undefined) visitNode(token.value, check, true);
}

/** Walks the token tree: drops tags, and throws where the agents' reader fails (rule 4b). */
function visitNode(token: CST.Token, check: Check, valuePosition: boolean): void {
  switch (token.type) {
    case 'double-quoted-scalar':
      assertClosed(token.source);
      if (check.hasEscapes) assertNoSurrogateEscape(token.source);
      return;
    case 'single-quoted-scalar':
      assertClosed(token.source);
      return;
    case 'block-scalar':
      if (check.hasTags) dropTags(token.props, token);
      return;
    case 'flow-collection':
      if (check.hasFlow && valuePosition) assertLineEndsAfter(token, check.text);
      for (const item of token.items) visitItem(item, check, false);
      return;
    case 'block-map':
    case 'block-seq':
      for (const item of token.items) visitItem(item, check, true);
      return;
    default:
      return;
  }
}

function visitItem(item: CST.CollectionItem, check: Check, block: boolean): void {
  const { key, sep, value } = item;
  if (check.hasTags) {
    // Properties in `start` belong to the key when there is one (even an empty key), else to the value.
    dropTags(item.start, key !== undefined ? key : value);
    if (sep !== undefined) dropTags(sep, value);
  }
  if (key !== undefined && key !== null) visitNode(key, check, false);
  // In a block collection a value is in value position; inside a flow collection everything is.
  if (value !== undefined) visitNode(value, check, block);
  // A one-line plain value starting with `,` is text to the agents' reader (`yaml` refuses it): read as quoted.
  if (block && value?.type === 'scalar' && value.source.startsWith(',') && !value.source.includes('\n')) {
    const text = value as CST.FlowScalar;
    text.type = 'double-quoted-scalar';
    text.source = JSON.stringify(text.source);
  }
}

/**
 * Removes every tag from `props` except a string tag on a scalar (or on an empty node, which reads as `""`). A removed
 * tag leaves spaces in its place, so that what surrounds it reads as it did. Two tags on one node are an error.
 */
function dropTags(props: CST.Token[], target: CST.Token | null | undefined): void {
  const onScalar =
    target === undefined ||
    target === null ||
    target.type === 'scalar' ||
    target.type === 'single-quoted-scalar' ||
    target.type === 'double-quoted-scalar' ||
    target.type === 'block-scalar';
  let tags = 0;
  for (let i = 0; i < props.length; i++) {
    const prop = props[i]!;
    if (prop.type !== 'tag') continue;
    if (++tags > 1) throw new AgentsYamlError('a node has more than one tag');
    if (!TAG_SHAPE.test(prop.source)) throw new AgentsYamlError(`malformed tag ${prop.source.slice(0, 40)}`);
    if (onScalar && STRING_TAGS.has(prop.source)) continue;
    if (target?.type === 'scalar' && !keepsUntaggedValue(prop.source, target.source)) {
      // A plain scalar whose untagged value is not of the tag's kind reads as text: the non-specific tag says so.
      props[i] = { ...prop, source: '!' };
    } else {
      props[i] = { type: 'space', offset: prop.offset, indent: prop.indent, source: ' '.repeat(prop.source.length) };
    }
  }
}

/** The plain scalar `source` resolves untagged to a value of the kind `tag` names. */
function keepsUntaggedValue(tag: string, source: string): boolean {
  const kind = TAG_KINDS[tag];
  if (kind === undefined) return false;
  const value = typePlain(source.trim());
  return kind === 'null' ? value === null : typeof value === kind;
}

/** A flow collection in a value position: after its closing bracket only spaces, then a comment or the line end. */
function assertLineEndsAfter(token: CST.FlowCollection, text: string): void {
  const close = token.end.find((end) => end.type === 'flow-seq-end' || end.type === 'flow-map-end');
  if (close === undefined) return;
  let at = close.offset + 1;
  while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at++;
  if (at < text.length && text[at] !== '\n' && text[at] !== '#') {
    throw new AgentsYamlError('a flow collection is followed by more text on its line');
  }
}

/**
 * A quoted scalar must end with its closing quote: `yaml` reads one left open at the end of the text up to there,
 * the agents' reader refuses it.
 */
function assertClosed(source: string): void {
  const quote = source[0]!;
  let i = 1;
  while (i < source.length) {
    const char = source[i]!;
    if (quote === '"' && char === '\\') i += 2;
    else if (char === quote && quote === "'" && source[i + 1] === "'") i += 2;
    else if (char === quote) return;
    else i++;
  }
  throw new AgentsYamlError('a quoted scalar is not closed');
}

/** `\uD800`–`\uDFFF` escapes are refused, except a `\uHIGH` immediately followed by a `\uLOW` (one code point). */
function assertNoSurrogateEscape(source: string): void {
  for (let i = source.indexOf('\\'); i !== -1 && i < source.length; i = source.indexOf('\\', i)) {
    const letter = source[i + 1];
    if (letter === 'u' || letter === 'U') {
      const length = letter === 'u' ? 4 : 8;
      const code = Number.parseInt(source.slice(i + 2, i + 2 + length), 16);
      if (code >= 0xd800 && code <= 0xdfff) {
        const low =
          source[i + 6] === '\\' && source[i + 7] === 'u' ? Number.parseInt(source.slice(i + 8, i + 12), 16) : 0;
        const paired = letter === 'u' && code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
        if (!paired) throw new AgentsYamlError('a double-quoted scalar escapes a lone surrogate');
        i += 12;
        continue;
      }
      i += 2 + length;
    } else {
      // An escaped character (possibly a backslash) is skipped whole.
      i += 2;
    }
  }
}

/**
 * The composed value (maps as `Map`s) as the agents' reader gives it: maps become plain objects whose keys are the
 * key values as JavaScript strings them (`null:` is the key `null`, `[k]:` the key `k`), and merge keys are applied:
 * a map's `<<` map (or each map of a `<<` list, the first one winning) adds the keys the map does not have. Shared
 * parts (aliases) are converted once; a cycle keeps the unconverted node where it closes.
 */
function toAgentsValue(value: unknown, done: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = done.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    done.set(value, value);
    for (let i = 0; i < value.length; i++) value[i] = toAgentsValue(value[i], done);
    return value;
  }
  if (!(value instanceof Map)) return value;
  const result: Record<string, unknown> = {};
  done.set(value, result);
  const explicit = new Set<string>();
  for (const key of value.keys()) explicit.add(keyString(key));
  const merge = value.get(MERGE_KEY);
  const merges = value.has(MERGE_KEY) && (Array.isArray(merge) || merge instanceof Map);
  for (const [key, item] of value) {
    if (merges && key === MERGE_KEY) {
      for (const from of Array.isArray(merge) ? merge : [merge]) {
        const source = toAgentsValue(from, done);
        if (source === null || typeof source !== 'object' || Array.isArray(source)) continue;
        for (const [fromKey, fromValue] of Object.entries(source)) {
          if (!Object.hasOwn(result, fromKey) && !explicit.has(fromKey)) define(result, fromKey, fromValue);
        }
      }
      continue;
    }
    define(result, keyString(key), toAgentsValue(item, done));
  }
  return result;
}

/** A key as JavaScript makes a property name of it (`String`), a map being an object. */
function keyString(key: unknown): string {
  if (key instanceof Map) return '[object Object]';
  if (Array.isArray(key))
    return key.map((item) => (item === null || item === undefined ? '' : keyString(item))).join(',');
  return String(key);
}

/** An own property, even for `__proto__`. */
function define(map: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}
