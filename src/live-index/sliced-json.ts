// JSON text of a large answer made in slices (docs/agents.md "Live"): the matrix of `GET /agents` at 10,000 skills is
// about 10 MB of JSON, and one `JSON.stringify` of it held the event loop for most of 0.1 s. Long arrays are written
// an element at a time, the event loop turning between slices (src/discovery/time-slices.ts); the text is the same,
// byte for byte, as `JSON.stringify` gives for the plain data the answers are made of (no `toJSON`, no cycles).

import { nextSlice, sliceSpent } from '../discovery/time-slices.js';

/** Arrays shorter than this are written in one call: splitting them costs more than it spares. */
const SPLIT_FROM = 64;

/**
 * The parts whose concatenation is `JSON.stringify(value)`. `known` keeps the text of each object element of a long
 * array, for answers made again from mostly the same objects (the matrix's rows, kept between its makings): such an
 * object must not change once written.
 */
export async function jsonParts(
  value: unknown,
  parts: string[] = [],
  known?: WeakMap<object, string>,
): Promise<string[]> {
  if (Array.isArray(value) && value.length >= SPLIT_FROM) {
    parts.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) parts.push(',');
      const item: unknown = value[i];
      if (known !== undefined && typeof item === 'object' && item !== null) {
        let text = known.get(item);
        if (text === undefined) {
          text = JSON.stringify(item);
          known.set(item, text);
        }
        parts.push(text);
      }
      // As JSON.stringify writes them in an array: undefined, functions and symbols are null.
      else parts.push(JSON.stringify(item) ?? 'null');
      if (sliceSpent()) await nextSlice();
    }
    parts.push(']');
    return parts;
  }
  if (
    isPlainObject(value) &&
    Object.values(value).some((field) => Array.isArray(field) && field.length >= SPLIT_FROM)
  ) {
    parts.push('{');
    let first = true;
    for (const [key, field] of Object.entries(value)) {
      // As JSON.stringify leaves them out of an object.
      if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
      parts.push(first ? '' : ',', JSON.stringify(key), ':');
      first = false;
      await jsonParts(field, parts, known);
    }
    parts.push('}');
    return parts;
  }
  parts.push(JSON.stringify(value));
  return parts;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
