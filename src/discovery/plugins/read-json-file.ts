// Reading the small JSON files plugins are described by (registries, settings, manifests, lock files). Anyone who
// can write to a workspace controls some of them, so a read is bounded like every other file the daemon reads: only
// a regular file, at most a fixed size, never blocking on a FIFO (read-text-file.ts).

import { readTextFile } from '../read-text-file.js';

/** 1 MiB: a registry of thousands of plugins is a few hundred KiB. */
const MAX_JSON_FILE_BYTES = 1024 * 1024;

export type JsonFileRead =
  /** No such file (or a path through a file): not an error anywhere in docs/discovery.md §4a. */
  | { status: 'missing' }
  /** Unreadable, not a regular file, too large, or not JSON: "does not parse". */
  | { status: 'invalid' }
  | { status: 'ok'; value: unknown };

export async function readJsonFile(path: string): Promise<JsonFileRead> {
  let read: Awaited<ReturnType<typeof readTextFile>>;
  try {
    read = await readTextFile(path, MAX_JSON_FILE_BYTES);
  } catch {
    return { status: 'invalid' };
  }
  if (read.status === 'missing') return { status: 'missing' };
  if (read.status !== 'ok') return { status: 'invalid' };
  try {
    // A leading BOM is what editors on some platforms write; JSON.parse refuses it.
    const text = read.text.charCodeAt(0) === 0xfeff ? read.text.slice(1) : read.text;
    return { status: 'ok', value: JSON.parse(text) as unknown };
  } catch {
    return { status: 'invalid' };
  }
}

/** The parsed object, or undefined when the file is missing, invalid or not a JSON object. */
export async function readJsonObject(path: string): Promise<Record<string, unknown> | undefined> {
  const read = await readJsonFile(path);
  return read.status === 'ok' && isRecord(read.value) ? read.value : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
