// The context of one discovery (docs/discovery.md §0): profile names, HOME, CWD, AGENT, REPO, STOP and the upward walk.
// Paths are joined lexically and never realpath-ed: a workspace reached through a symlink keeps the path it was
// given, exactly as the agents see it.

import { lstat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { DiscoveryContext, DiscoveryEnv, Profile } from './types.js';

export interface ProfileInfo {
  profile: Profile;
  /** `CFG`: the per-profile config directory name (`.musepi`, `.omp`, `.xcsh`). */
  configDir: string;
  /** Display name of the `native` provider. */
  nativeDisplayName: string;
  /** Provider id of the managed (auto-learn) skills, or null when the profile has none (xcsh). */
  managedProviderId: string | null;
}

const PROFILE_TABLE: Readonly<Record<Profile, ProfileInfo>> = {
  musepi: { profile: 'musepi', configDir: '.musepi', nativeDisplayName: 'MusePi', managedProviderId: 'musepi-managed' },
  omp: { profile: 'omp', configDir: '.omp', nativeDisplayName: 'OMP', managedProviderId: 'omp-managed' },
  xcsh: { profile: 'xcsh', configDir: '.xcsh', nativeDisplayName: 'OMP', managedProviderId: null },
};

export function profileInfo(profile: Profile): ProfileInfo {
  return PROFILE_TABLE[profile];
}

/** Everything the providers need to place their directories (docs/discovery.md §0). */
export interface WorkspaceContext {
  profile: ProfileInfo;
  home: string;
  cwd: string;
  /** `AGENT` = `HOME/CFG/agent`, or `PI_CODING_AGENT_DIR`. */
  agentDir: string;
  /** `REPO`: nearest ancestor of CWD (inclusive) holding a `.git` entry, or null. */
  repoRoot: string | null;
  /** `STOP` = REPO, else HOME. */
  stop: string;
  /** `walk(CWD→STOP)`: CWD first, STOP last (or the filesystem root when STOP is never met). */
  walk: string[];
  env: DiscoveryEnv;
}

export async function resolveWorkspaceContext(ctx: DiscoveryContext): Promise<WorkspaceContext> {
  const profile = profileInfo(ctx.settings.profile);
  const home = resolve(ctx.home);
  const cwd = resolve(ctx.cwd);
  const repoRoot = await findRepoRoot(cwd);
  const stop = repoRoot ?? home;
  return {
    profile,
    home,
    cwd,
    agentDir: agentDirOf(profile, home, cwd, ctx.env),
    repoRoot,
    stop,
    walk: walkUp(cwd, stop),
    env: ctx.env,
  };
}

/**
 * `AGENT`: `PI_CODING_AGENT_DIR` when set (non-empty), else `HOME/CFG/agent`. The variable may start with `~`
 * (expanded against HOME, as a shell would have) and, when relative, is taken relative to the workspace: the agent
 * resolves it against its own working directory, which is the workspace.
 */
export function agentDirOf(profile: ProfileInfo, home: string, cwd: string, env: DiscoveryEnv): string {
  const override = env.PI_CODING_AGENT_DIR;
  if (override !== undefined && override !== '') return expandEnvPath(override, home, cwd);
  return join(home, profile.configDir, 'agent');
}

/** A directory named by an environment variable: `~` and `~/x` against HOME, relative against CWD. */
export function expandEnvPath(value: string, home: string, cwd: string): string {
  if (value === '~') return home;
  if (value.startsWith('~/')) return join(home, value.slice(2));
  return resolve(cwd, value);
}

/** A custom skills directory: as the records and warnings show it, and the path read. */
export interface CustomDirectory {
  shown: string;
  path: string;
}

/**
 * A `skills.customDirectories` entry (§5 step 4), or undefined for an empty entry (it finds nothing). `~` is HOME,
 * `~/x` is HOME followed by `/x` and `~x` HOME followed by `/x` (not another user's home), joined as text. Nothing is
 * normalised: `T/missing/../C` is read as written (and fails when `missing` does not exist). A relative entry is read
 * relative to CWD but stays relative in what is shown.
 */
export function expandCustomDirectory(value: string, home: string, cwd: string): CustomDirectory | undefined {
  if (value === '') return undefined;
  let expanded = value;
  if (value === '~') expanded = home;
  else if (value.startsWith('~/')) expanded = home + value.slice(1);
  else if (value.startsWith('~')) expanded = `${home}/${value.slice(1)}`;
  if (isAbsolute(expanded)) return { shown: expanded, path: expanded };
  return { shown: expanded, path: `${cwd}/${expanded}` };
}

/** Nearest directory from `cwd` up to the filesystem root holding an entry named `.git` (file or directory). */
export async function findRepoRoot(cwd: string): Promise<string | null> {
  let dir = resolve(cwd);
  for (;;) {
    if (await entryExists(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** `walk(CWD→STOP)`: `cwd`, its parent, … ending with `stop` inclusive, or with the root when `stop` is never met. */
export function walkUp(cwd: string, stop: string): string[] {
  const end = resolve(stop);
  const out: string[] = [];
  let dir = resolve(cwd);
  for (;;) {
    out.push(dir);
    if (dir === end) return out;
    const parent = dirname(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}

async function entryExists(path: string): Promise<boolean> {
  try {
    // lstat: a `.git` symlink is an entry too, whatever it points to (§0 asks for an entry, not a target).
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
