// The files the views read besides SKILL.md: a `.git` file, Gemini CLI's settings and trusted folders, Codex's
// `agents/openai.yaml`. They lie where others can put things: a FIFO another local user plants at `/tmp/.git` sits
// above every workspace under `/tmp`, and a plain `readFile` of it parks a thread of libuv's pool for good (four of
// them stop every file operation of the daemon); a link to `/dev/zero` is read until Node's 2 GiB limit. So each is
// read through the one guarded reader (read-text-file.ts: a regular file only, a size cap, a non-blocking open), and
// one that fails a guard says why instead of being waited on.

import type { Dirent } from 'node:fs';
import { readdir } from '../files/sliced-fs.js';
import { readTextFile } from '../read-text-file.js';

export type SideFileRead = { status: 'ok'; text: string } | { status: 'missing' } | { status: 'refused'; why: string };

export async function readSideFile(path: string, maxBytes: number): Promise<SideFileRead> {
  try {
    const read = await readTextFile(path, maxBytes);
    if (read.status === 'ok' || read.status === 'missing') return read;
    if (read.status === 'not-a-file') return { status: 'refused', why: 'not a regular file' };
    return { status: 'refused', why: `larger than ${maxBytes} bytes` };
  } catch (error) {
    // EACCES, ELOOP, EIO: unreadable, said as the system says it.
    return { status: 'refused', why: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
}

/**
 * Side-file lookups shared by one run of an agent over its files (run-agent.ts): a directory is listed, a side file
 * read, once per run however many skills look at it (Codex looks for plugin manifests in every ancestor of each skill).
 */
export interface SideLookups {
  /** The names in `dir`, or undefined when it cannot be listed. */
  listing(dir: string): Promise<string[] | undefined>;
  sideFile(path: string, maxBytes: number): Promise<SideFileRead>;
}

/** Listings a run may take instead of its own (walk-memo.ts): the walks list every skill folder Codex looks in. */
export interface KnownListings {
  /** The entries of `dir` when a walk listed it since the last change reported there. */
  listedAlready(dir: string): Promise<readonly Dirent[]> | undefined;
}

export function sideLookups(known?: KnownListings): SideLookups {
  const listings = new Map<string, Promise<string[] | undefined>>();
  const files = new Map<string, Promise<SideFileRead>>();
  return {
    listing(dir) {
      let names = listings.get(dir);
      if (names === undefined) {
        const listed = known?.listedAlready(dir);
        names = (
          listed === undefined ? readdir(dir) : listed.then((entries) => entries.map((entry) => entry.name))
        ).catch(() => undefined);
        listings.set(dir, names);
      }
      return names;
    },
    sideFile(path, maxBytes) {
      const key = `${maxBytes}\0${path}`;
      let known = files.get(key);
      if (known === undefined) {
        known = readSideFile(path, maxBytes);
        files.set(key, known);
      }
      return known;
    },
  };
}
