// Cursor pagination of the list methods (`resources/list`, `prompts/list`, `skills/list`, `resources/directory/read`):
// the cursor is an opaque offset into the list as it is when the next page is asked for. A list that changed between
// pages is announced by `list_changed`; a client that cares starts again.

import { invalidParams } from './mcp-errors.js';

export const DEFAULT_PAGE_SIZE = 100;

const CURSOR = /^o(\d{1,9})$/;

export function paginate<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number,
): { page: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : offsetOf(cursor);
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length ? { page, nextCursor: encode(end) } : { page };
}

function offsetOf(cursor: string): number {
  let decoded: string;
  try {
    decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  } catch {
    decoded = '';
  }
  const match = CURSOR.exec(decoded);
  if (match === null || encode(Number(match[1])) !== cursor) throw invalidParams(`Invalid cursor: ${cursor}`);
  return Number(match[1]);
}

function encode(offset: number): string {
  return Buffer.from(`o${offset}`, 'utf8').toString('base64url');
}
