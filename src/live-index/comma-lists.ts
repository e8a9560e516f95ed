// Lists of JSON fragments joined with ',' (docs/api.md §GET /skills: the body's skills and diagnostics arrays):
// serialised in one go, measured, written into a body and re-pointed at it, for snapshot-json.ts.

export const COMMA = Buffer.from(',', 'utf8');

/**
 * Each item's JSON as a view of one Buffer holding them all, joined with ','. Where the text is ASCII (its UTF-8 is
 * as long as it), an item's bytes start where its characters do; otherwise each item's UTF-8 length is counted.
 */
export function serialiseAll(items: readonly object[]): Buffer[] {
  const texts = items.map((item) => JSON.stringify(item));
  const joinedText = texts.join(',');
  const bytes = Buffer.from(joinedText, 'utf8');
  const ascii = bytes.length === joinedText.length;
  const views = new Array<Buffer>(texts.length);
  let offset = 0;
  for (let i = 0; i < texts.length; i++) {
    const length = ascii ? texts[i]!.length : Buffer.byteLength(texts[i]!, 'utf8');
    views[i] = bytes.subarray(offset, offset + length);
    offset += length + 1;
  }
  return views;
}

/** The view of `body` at `offset` that holds the same bytes as `part`. */
export function view(body: Buffer, offset: number, part: Buffer): Buffer {
  return body.subarray(offset, offset + part.length);
}

/** Re-points each of `items` (as `copyList` wrote them from `offset`) to its view of `body`; returns the end. */
export function viewList(body: Buffer, items: Buffer[], offset: number): number {
  for (let i = 0; i < items.length; i++) {
    if (i > 0) offset++; // ','
    items[i] = view(body, offset, items[i]!);
    offset += items[i]!.length;
  }
  return offset;
}

export function copy(target: Buffer, source: Buffer, offset: number): number {
  target.set(source, offset);
  return offset + source.length;
}

/** `items` written one after the other, separated by ','. */
export function copyList(target: Buffer, items: readonly Buffer[], offset: number): number {
  for (let i = 0; i < items.length; i++) {
    if (i > 0) target[offset++] = 0x2c; // ','
    offset = copy(target, items[i]!, offset);
  }
  return offset;
}

/** The bytes `copyList` writes. */
export function listLength(items: readonly Buffer[]): number {
  let length = Math.max(0, items.length - 1);
  for (const item of items) length += item.length;
  return length;
}

/** `fragments` with a ',' between each two, as parts to concatenate. */
export function joined(fragments: readonly Buffer[]): Buffer[] {
  const parts: Buffer[] = [];
  for (let i = 0; i < fragments.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(fragments[i]!);
  }
  return parts;
}
