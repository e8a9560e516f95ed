// The omp-plugins provider's roots (docs/discovery.md §4a): extension packages named in settings (`extensions`), then the
// packages installed under the agent's `plugins/node_modules` that declare themselves agent extensions.

import { realpath, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Level } from '../types.js';
import type { PluginContext } from './plugin-context.js';
import type { PluginInputs, PluginRoot } from './plugin-root.js';
import { isRecord, readJsonObject } from './read-json-file.js';

/**
 * An npm package name, scoped or not. Names come from files anyone with write access to the project controls: one
 * like `../../x` must never lead out of `node_modules`.
 */
const PACKAGE_NAME = /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;

/** Roots in §4a order, first path wins; `claudeRoots` holds the realpaths of claude-plugins' roots. */
export async function listOmpPluginRoots(
  pc: PluginContext,
  claudeRoots: ReadonlySet<string>,
  inputs: PluginInputs,
): Promise<PluginRoot[]> {
  const { ws } = pc;
  const cfg = ws.profile.configDir;
  const roots: PluginRoot[] = [];
  const add = (root: PluginRoot) => {
    if (!roots.some((known) => known.path === root.path)) roots.push(root);
  };
  // Extension packages from settings, CWD's (no walk) then the agent's; installed packages, the project's (under the
  // anchor) then the user's. Everything is read at once; the roots keep that order.
  const disabled = await overridesDisabled(join(ws.cwd, cfg, 'plugin-overrides.json'), inputs);
  const installDirs: Array<[string, Level]> = [];
  const projectDir = pc.anchor === null ? null : join(pc.anchor, cfg, 'plugins');
  if (projectDir !== null && projectDir !== pc.agentPluginsDir) installDirs.push([projectDir, 'project']);
  installDirs.push([pc.agentPluginsDir, 'user']);
  const lists = await Promise.all([
    extensionRoots(join(ws.cwd, cfg, 'settings.json'), 'project', pc, inputs),
    extensionRoots(join(ws.agentDir, 'settings.json'), 'user', pc, inputs),
    ...installDirs.map(([dir, level]) => installedRoots(dir, level, disabled, claudeRoots, inputs)),
  ]);
  for (const list of lists) for (const root of list) add(root);
  return roots;
}

async function extensionRoots(
  settingsPath: string,
  level: Level,
  pc: PluginContext,
  inputs: PluginInputs,
): Promise<PluginRoot[]> {
  inputs.files.add(settingsPath);
  const list = (await readJsonObject(settingsPath))?.extensions;
  if (!Array.isArray(list)) return [];
  const paths = list
    .filter((entry): entry is string => typeof entry === 'string' && entry !== '')
    .map((entry) => expandEntry(entry, pc.ws.home, pc.ws.cwd));
  const found = await Promise.all(
    paths.map(async (path): Promise<PluginRoot | undefined> => {
      // Its appearing (or turning into a directory) adds a root.
      inputs.files.add(path);
      const info = await stat(path).catch(() => null);
      if (info?.isDirectory() !== true) return undefined;
      const manifest = join(path, 'package.json');
      inputs.files.add(manifest);
      const name = (await readJsonObject(manifest))?.name;
      const id = typeof name === 'string' && name !== '' ? name : basename(path);
      return { id, name: id, path, level };
    }),
  );
  return found.filter((root) => root !== undefined);
}

/**
 * The packages of one plugins directory: every name in `package.json`'s `dependencies` and in the lock file's
 * `plugins`, whose own `package.json` has an `omp` or `pi` field, not disabled by the lock file or the project's
 * overrides, and not a claude-plugins root already.
 */
async function installedRoots(
  pluginsDir: string,
  level: Level,
  disabled: ReadonlySet<string>,
  claudeRoots: ReadonlySet<string>,
  inputs: PluginInputs,
): Promise<PluginRoot[]> {
  const manifestPath = join(pluginsDir, 'package.json');
  const lockPath = join(pluginsDir, 'omp-plugins.lock.json');
  inputs.files.add(manifestPath);
  inputs.files.add(lockPath);
  const [manifest, lock] = await Promise.all([readJsonObject(manifestPath), readJsonObject(lockPath)]);
  const dependencies = isRecord(manifest?.dependencies) ? Object.keys(manifest.dependencies) : [];
  const locked = isRecord(lock?.plugins) ? lock.plugins : {};
  const names = [...new Set([...dependencies, ...Object.keys(locked)])];
  const found = await Promise.all(
    names.map(async (name): Promise<PluginRoot | undefined> => {
      if (!PACKAGE_NAME.test(name)) return undefined;
      const path = join(pluginsDir, 'node_modules', name);
      const packageJson = join(path, 'package.json');
      inputs.files.add(packageJson);
      const own = await readJsonObject(packageJson);
      if (own === undefined || (own.omp === undefined && own.pi === undefined)) return undefined;
      const state = locked[name];
      if (isRecord(state) && state.enabled === false) return undefined;
      if (disabled.has(name)) return undefined;
      const real = await realpath(path).catch(() => path);
      if (claudeRoots.has(real)) return undefined;
      return { id: name, name, path, level };
    }),
  );
  return found.filter((root) => root !== undefined);
}

async function overridesDisabled(path: string, inputs: PluginInputs): Promise<Set<string>> {
  inputs.files.add(path);
  const list = (await readJsonObject(path))?.disabled;
  return new Set(Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : []);
}

/** `~` and `~/x` against HOME; anything else relative to CWD (also in the user's settings). */
function expandEntry(entry: string, home: string, cwd: string): string {
  if (entry === '~') return home;
  if (entry.startsWith('~/')) return join(home, entry.slice(2));
  return resolve(cwd, entry);
}
