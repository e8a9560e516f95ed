// Lays a scenario out on disk: the tree's files, links, pipes and repositories, under a fresh root.

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MaterialisedScenario, Scenario, TreeEntry } from './types.js';

/** Replaces `{root}`, `{home}` and `{cwd}` with the absolute paths of the laid-out tree. */
export function fillPlaceholders(text: string, paths: { root: string; home: string; cwd: string }): string {
  return text.replaceAll('{root}', paths.root).replaceAll('{home}', paths.home).replaceAll('{cwd}', paths.cwd);
}

/** Creates the scenario at `<parent>/<id>` (anything there before is removed) and returns its absolute paths. */
export function materialiseScenario(scenario: Scenario, parent: string): MaterialisedScenario {
  // A fixed path per scenario: catalog budgets count path bytes, so the same scenario must always lie at the same
  // place for its answers (and the known differences) to be reproducible.
  const root = join(parent, scenario.id);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const home = join(root, scenario.home ?? 'home');
  const cwd = join(root, scenario.cwd ?? 'home/proj');
  const paths = { root, home, cwd };
  mkdirSync(home, { recursive: true });
  // Links last: a link into a folder the tree also creates must not make that folder's files land through it.
  const entries = Object.entries(scenario.tree).sort(([, a], [, b]) => Number(isLink(a)) - Number(isLink(b)));
  for (const [relative, entry] of entries) writeEntry(join(root, relative), entry, paths);
  mkdirSync(cwd, { recursive: true });
  for (const repo of scenario.git ?? []) {
    const dir = join(root, repo);
    mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', dir], { stdio: 'ignore', env: gitEnv(home) });
  }
  for (const command of scenario.setup ?? []) {
    execFileSync('sh', ['-c', fillPlaceholders(command, paths)], { cwd: root, stdio: 'pipe', env: gitEnv(home) });
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(scenario.env ?? {})) env[key] = fillPlaceholders(value, paths);
  return { scenario, root, home, cwd, env };
}

function isLink(entry: TreeEntry): boolean {
  return typeof entry === 'object' && 'link' in entry;
}

function writeEntry(path: string, entry: TreeEntry, paths: { root: string; home: string; cwd: string }): void {
  mkdirSync(dirname(path), { recursive: true });
  if (typeof entry === 'string') writeFileSync(path, fillPlaceholders(entry, paths));
  else if ('base64' in entry) writeFileSync(path, Buffer.from(entry.base64, 'base64'));
  else if ('size' in entry) {
    const head = Buffer.from(fillPlaceholders(entry.head, paths));
    const body = Buffer.alloc(Math.max(0, entry.size - head.length), entry.fill ?? 'x');
    writeFileSync(path, Buffer.concat([head, body]));
  } else if ('link' in entry) symlinkSync(fillPlaceholders(entry.link, paths), path);
  else if ('dir' in entry) mkdirSync(path, { recursive: true });
  else execFileSync('mkfifo', [path]);
}

/** git with no user configuration of the machine and an identity for the commits a setup step makes. */
function gitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'skillsd',
    GIT_AUTHOR_EMAIL: 'skillsd@localhost',
    GIT_COMMITTER_NAME: 'skillsd',
    GIT_COMMITTER_EMAIL: 'skillsd@localhost',
  };
}
