// Whether two values serialise to the same JSON, without serialising them when that can be told cheaply: the same
// object, or plain objects and arrays whose keys come in the same order with the same primitive values (recursively).
// Reloads compare thousands of skill records that are mostly the very same objects or share their frozen frontmatter;
// anything this cannot decide on structure alone (a `toJSON`, a non-plain object, a number that JSON would rewrite)
// falls back to comparing `JSON.stringify` of both, so the answer is always that of the string comparison.

export function sameJson(a: unknown, b: unknown): boolean {
  const quick = structurallySame(a, b);
  return quick ?? JSON.stringify(a) === JSON.stringify(b);
}

/** Two lists of the same length whose items are each the same object or serialise alike (`sameJson`). */
export function sameJsonItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !sameJson(a[i], b[i])) return false;
  return true;
}

/** true or false when decided on structure; undefined when only the serialisations can tell. */
function structurallySame(a: unknown, b: unknown): boolean | undefined {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // Different primitives serialise differently, except numbers JSON rewrites (-0 and 0, NaN and Infinity → null).
    if (typeof a === 'number' || typeof b === 'number') return undefined;
    if (typeof a === 'string' && typeof b === 'string') return false;
    if (typeof a === 'boolean' && typeof b === 'boolean') return false;
    return undefined;
  }
  if (!isPlain(a) || !isPlain(b)) return undefined;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return undefined;
    for (let i = 0; i < a.length; i++) {
      const same = structurallySame(a[i], b[i]);
      if (same !== true) return same;
    }
    return true;
  }
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  // Keys holding `undefined` are left out of JSON: different key lists may still serialise alike.
  if (aKeys.length !== bKeys.length) return undefined;
  const aRecord = a as Record<string, unknown>;
  const bRecord = b as Record<string, unknown>;
  for (let i = 0; i < aKeys.length; i++) {
    const key = aKeys[i]!;
    if (key !== bKeys[i]) return undefined;
    const same = structurallySame(aRecord[key], bRecord[key]);
    if (same !== true) return same;
  }
  return true;
}

function isPlain(value: object): boolean {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}
