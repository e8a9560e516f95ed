// A fresh HOME `H` and git project `P` (P/.git, CWD = P) per call, all under one temporary root per test file, which
// is removed after the file's tests.

import { join } from 'node:path';
import { after, before } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { DiscoveryContext } from '../../src/discovery/types.js';
import { makeTempDir, type TreeEntry, writeTree } from './temp-tree.js';

export type WorkspaceFactory = (tree: Record<string, TreeEntry>) => Promise<{ base: string; ctx: DiscoveryContext }>;

/** Registers the root's `before`/`after` hooks where it is called (a test file's top level). */
export function workspaceFactory(prefix: string): WorkspaceFactory {
  let root = '';
  let cleanup: () => Promise<void> = async () => {};
  let counter = 0;
  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir(prefix));
  });
  after(() => cleanup());
  return async (tree) => {
    const base = join(root, String(counter++));
    await writeTree(base, { 'H/.keep': '', 'P/.git/HEAD': '', ...tree });
    return { base, ctx: { home: join(base, 'H'), cwd: join(base, 'P'), env: {}, settings: defaultSettings() } };
  };
}
