// How V8 holds some strings, asked of a child `node --allow-natives-syntax`: whether each is flat or a tree of pieces,
// and where it lives (two equal strings at one address are one string). The child runs `body` as an ES module with
// `show(value)` at hand; every value shown is reported in order.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StringShape {
  address: string;
  /** V8's instance type, e.g. `ONE_BYTE_STRING_TYPE` (flat) or `CONS_ONE_BYTE_STRING_TYPE` (a tree). */
  type: string;
  /**
   * What the type says, whatever V8 calls it: the names change between releases (a flat one-byte string is
   * `ONE_BYTE_STRING_TYPE` in Node 20's V8 and `SEQ_ONE_BYTE_STRING_TYPE` in Node 22.12's).
   */
  kind: 'flat' | 'cons' | 'sliced' | 'thin' | 'external' | 'other';
}

/** The kind of a V8 string instance type name. */
export function kindOf(type: string): StringShape['kind'] {
  if (type.startsWith('CONS_')) return 'cons';
  if (type.startsWith('SLICED_')) return 'sliced';
  if (type.startsWith('THIN_')) return 'thin';
  if (type.includes('EXTERNAL')) return 'external';
  if (/^(?:SEQ_|INTERNALIZED_|SEQ_INTERNALIZED_)?(?:ONE_BYTE_|TWO_BYTE_)?STRING_TYPE$/.test(type)) return 'flat';
  return 'other';
}

/** Runs `body` in a child (files written to `dir`) and gives the shape of every `show`n string, in order. */
export function stringShapes(dir: string, body: string): StringShape[] {
  const script = join(dir, 'shapes.mjs');
  // Bodies call `gc()` before their `show`s: nothing moves between prints that allocate nothing, so equal addresses
  // mean one string.
  writeFileSync(script, `const show = (value) => %DebugPrint(value);\n${body}\n`);
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', script], { encoding: 'utf8' });
  const shapes: StringShape[] = [];
  for (const block of out.split('DebugPrint: ').slice(1)) {
    const address = /^(0x[0-9a-f]+)/.exec(block)?.[1];
    const type = /- type: (\w+)/.exec(block)?.[1];
    if (address === undefined || type === undefined) throw new Error(`unexpected DebugPrint output: ${block}`);
    shapes.push({ address, type, kind: kindOf(type) });
  }
  return shapes;
}

/** A one-byte or two-byte string that is not a tree of pieces, a slice or an indirection. */
export function isFlat(shape: StringShape): boolean {
  return shape.kind === 'flat';
}
