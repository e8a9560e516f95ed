// Fixture helpers: every test builds its own HOME and workspace in a fresh temp directory.

import { accessSync, constants, statSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** A fresh, realpath-ed temp directory; removed by the returned `cleanup`. */
export async function makeTempDir(
  prefix = 'skillsd-test-',
  base = tmpdir(),
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(base, prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Where a test makes a tree of 100,000 entries: the system's memory file system when it has one (`/dev/shm`), else
 * the temporary directory. On a virtual disk, making 100,000 directories took 3.8 s and removing them 13.5–17.8 s
 * (`rm -rf` as Node's `rm`); in memory, 0.6 s and 1.4 s.
 */
export function largeTreeBase(): string {
  try {
    accessSync(MEMORY_FS, constants.W_OK);
    if (statSync(MEMORY_FS).isDirectory()) return MEMORY_FS;
  } catch {
    // No memory file system to write to: the disk it is.
  }
  return tmpdir();
}

const MEMORY_FS = '/dev/shm';

/** A tree entry: file content, or `{ symlink: target }`, or `{ dir: true }` for an empty directory. */
export type TreeEntry = string | Buffer | { symlink: string } | { dir: true };

/** Writes `entries` (paths relative to `root`) creating parent directories as needed. */
export async function writeTree(root: string, entries: Record<string, TreeEntry>): Promise<void> {
  for (const [relative, entry] of Object.entries(entries)) {
    const path = join(root, relative);
    if (typeof entry === 'object' && 'dir' in entry) {
      await mkdir(path, { recursive: true });
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    if (typeof entry === 'object' && 'symlink' in entry) await symlink(entry.symlink, path);
    else await writeFile(path, entry);
  }
}

/**
 * Replaces a file in one step, as editors save: written in `staging` (by default beside it; a directory on the same
 * file system, outside the watched trees, leaves no trace in them), then renamed over it. A plain `writeFile`
 * truncates first, and on a loaded machine the daemon may find the file empty for longer than it waits for a rewrite
 * (src/live-index/settle-rewrites.ts): two index changes and a diagnostic, where the test makes one edit.
 */
export async function replaceFile(path: string, text: string, staging = dirname(path)): Promise<void> {
  const staged = join(staging, `.${basename(path)}.staged`);
  await writeFile(staged, text);
  await rename(staged, path);
}

/**
 * Adds a skill folder in one step, as a checkout or an installer does: its SKILL.md is written in a folder under
 * `staging` (on the same file system, outside the watched trees), which is then renamed to `dir`. Created in place,
 * the folder exists without its SKILL.md until the file is written, and on a loaded machine the live doctor, which
 * reads the trees again once they have been quiet for a moment, may look in between: a `no-skill-md` finding, new
 * and then resolved, in a test that adds one skill.
 */
export async function addSkillFolder(dir: string, text: string, staging: string): Promise<void> {
  const staged = join(staging, `.${basename(dir)}.staged`);
  await mkdir(staged, { recursive: true });
  await writeFile(join(staged, 'SKILL.md'), text);
  await mkdir(dirname(dir), { recursive: true });
  await rename(staged, dir);
}

/**
 * The worked examples' `SK{k: v; …}` (docs/discovery.md §11): `---\n` + one `k: v` line each + `---\n\n# Body\n`.
 * `SK({ name: 'pdf', description: 'PDF tools' })`.
 */
export function SK(fields: Record<string, string | number | boolean>): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${value}`);
  return `---\n${lines.join('\n')}\n---\n\n# Body\n`;
}

/**
 * `pdf` and `skill-000` … `skill-999` under `dir` (e.g. `work/.musepi/skills`): 1,001 skills, for the messages that
 * must stay short however many skills are loaded.
 */
export function thousandSkills(dir: string): Record<string, string> {
  const tree: Record<string, string> = { [`${dir}/pdf/SKILL.md`]: SK({ name: 'pdf', description: 'PDF tools' }) };
  for (let i = 0; i < 1000; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`;
    tree[`${dir}/${name}/SKILL.md`] = SK({ name, description: `Skill ${i}` });
  }
  return tree;
}
