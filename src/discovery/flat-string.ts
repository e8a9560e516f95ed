// Strings a snapshot keeps for its whole life (the paths of every record, realpaths, the keys of the skill-file cache and
// of the scan memo) are built as one flat string where they are made. V8 keeps a concatenation (`a + b`, a template
// literal, what `path.join` returns) as a tree of pieces; the first use that needs the characters in a row (a Map key,
// a comparison) copies them into a flat string but leaves the tree's top node holding it. At 10,000 skills a heap
// snapshot held 196,000 such nodes (6 MiB) beside the flat copies (docs/memory.md "Kept strings").

/** `parts` written one after the other, as a single flat string (`Array.prototype.join` builds its result flat). */
export function concatFlat(...parts: string[]): string {
  return parts.join('');
}

/**
 * A flat copy of `text`, for results of library calls (`path.join`) that cannot be built with `concatFlat`: its two
 * halves joined anew, so that nothing of the pieces it was made of stays reachable from the copy.
 */
export function flattened(text: string): string {
  if (text.length < 2) return text;
  return concatFlat(text.slice(0, 1), text.slice(1));
}

/**
 * V8 copies a piece shorter than this rather than keeping a slice or a tree of it (`SlicedString::kMinLength`,
 * `ConsString::kMinLength`): such a string never holds another.
 */
const SHORTEST_SHARED_PIECE = 13;

/**
 * `text`, holding nothing else alive: a value cut out of a larger text (a frontmatter value out of its SKILL.md) is a
 * slice that keeps the whole text (docs/memory.md "Kept strings"). Short ones are returned as they are.
 */
export function flatCopy(text: string): string {
  if (text.length < SHORTEST_SHARED_PIECE) return text;
  return concatFlat(text.slice(0, 1), text.slice(1));
}
