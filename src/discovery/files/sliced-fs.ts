// The file system calls of the per-agent views and the doctor (docs/performance.md "The views' file system calls"):
// the promise API's signatures, each call made synchronously inside the shared slice of time-slices.ts. A walk of
// 10,000 skill folders makes some 100,000 calls on small files and directories; through the promise API each is a
// round trip to the thread pool whose completion costs the main thread more than the call itself (the first views
// at 10,000 spent most of their 4.7 s in those completions). Synchronous, a call is a few microseconds, and the event
// loop still turns between slices. The results and errors are those of the promise API: the same Node calls
// (`realpath` is the native one, as `fs/promises` uses), the same error messages.

import * as fs from 'node:fs';
import { nextSlice, sliceSpent } from '../time-slices.js';

async function inSlice<T>(call: () => T): Promise<T> {
  if (sliceSpent()) await nextSlice();
  return call();
}

export function stat(path: string): Promise<fs.Stats> {
  return inSlice(() => fs.statSync(path));
}

export function lstat(path: string): Promise<fs.Stats> {
  return inSlice(() => fs.lstatSync(path));
}

export function realpath(path: string): Promise<string> {
  return inSlice(() => fs.realpathSync.native(path));
}

export function readlink(path: string): Promise<string> {
  return inSlice(() => fs.readlinkSync(path));
}

export function readdir(path: string, options: { withFileTypes: true }): Promise<fs.Dirent[]>;
export function readdir(path: string): Promise<string[]>;
export function readdir(path: string, options?: { withFileTypes: true }): Promise<fs.Dirent[] | string[]> {
  return inSlice(() => (options === undefined ? fs.readdirSync(path) : fs.readdirSync(path, options)));
}

/** Runs `call` (a synchronous read of one small file) inside the shared slice. */
export function sliced<T>(call: () => T): Promise<T> {
  return inSlice(call);
}
