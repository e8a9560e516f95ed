// The claude-plugins provider's roots and skills directories (docs/discovery.md §4a): the Claude Code registry with its scope
// binding and `enabledPlugins`, the agent's own registry that overrides it, the project registry that shadows both,
// and for each plugin root the default `skills/` plus the directories its manifest lists.

import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Level } from '../types.js';
import type { PluginContext } from './plugin-context.js';
import type { PluginInputs, PluginRoot } from './plugin-root.js';
import { isRecord, readJsonFile, readJsonObject } from './read-json-file.js';

const REGISTRY_FILE = 'installed_plugins.json';

interface RegistryPlugin {
  id: string;
  name: string;
  entries: Array<Record<string, unknown> & { installPath: string }>;
}

/** The part of a plugin context the Claude registry needs: where it is, and which project binds installs. */
export type ClaudeRegistryContext = Pick<PluginContext, 'claudeDir' | 'anchor' | 'activeProject'> & {
  ws: Pick<PluginContext['ws'], 'cwd'>;
};

/**
 * Step 1 of docs/discovery.md §4a alone: the roots of the Claude Code registry, with `enabledPlugins` and the project
 * binding applied (also what Claude Code's own view loads, docs/agents.md "Claude Code").
 */
export async function listClaudeRegistryRoots(
  pc: ClaudeRegistryContext,
  inputs: PluginInputs,
): Promise<{ roots: PluginRoot[]; warnings: string[] }> {
  const projectRoot = pc.anchor ?? pc.ws.cwd;
  const claudeRegistry = join(pc.claudeDir, 'plugins', REGISTRY_FILE);
  const [enabled, claudeRead] = await Promise.all([
    readEnabledPlugins(
      [
        join(pc.claudeDir, 'settings.json'),
        join(projectRoot, '.claude', 'settings.json'),
        join(projectRoot, '.claude', 'settings.local.json'),
      ],
      inputs,
    ),
    readRegistry(claudeRegistry, 'Claude Code', inputs),
  ]);
  const roots: PluginRoot[] = [];
  const projectPaths = new Map<string, string | null>();
  for (const plugin of claudeRead.plugins) {
    const switched = enabled.get(plugin.id);
    if (switched === false) continue;
    for (const entry of plugin.entries) {
      const level = levelOf(entry.scope);
      if (level === 'project' && switched !== true && !(await boundHere(entry.projectPath, pc, projectPaths))) continue;
      roots.push(rootOf(plugin, entry, level, claudeRegistry));
    }
  }
  return { roots, warnings: claudeRead.warnings };
}

/** The plugin roots of the three registries, in the order their skills are taken. */
export async function listClaudePluginRoots(
  pc: PluginContext,
  inputs: PluginInputs,
): Promise<{ roots: PluginRoot[]; warnings: string[] }> {
  const warnings: string[] = [];
  const agentRegistry = join(pc.agentPluginsDir, REGISTRY_FILE);
  const projectRegistry =
    pc.anchor === null ? null : join(pc.anchor, pc.ws.profile.configDir, 'plugins', REGISTRY_FILE);
  // Everything is read at once (a reload pays for the slowest read, not the sum); the order of the rules below is kept.
  const [claudeRead, agentRead, projectRead] = await Promise.all([
    listClaudeRegistryRoots(pc, inputs),
    readRegistry(agentRegistry, 'OMP', inputs),
    // A repository at HOME would make the project registry the agent's again: read once.
    projectRegistry === null || projectRegistry === agentRegistry
      ? undefined
      : readRegistry(projectRegistry, 'project', inputs),
  ]);

  // 1. Claude Code's own registry: enabledPlugins and the project binding apply.
  warnings.push(...claudeRead.warnings);
  let roots: PluginRoot[] = claudeRead.roots;

  // 2. The agent's registry replaces Claude's entries of the same id, ignoring enabledPlugins and the binding.
  warnings.push(...agentRead.warnings);
  for (const plugin of agentRead.plugins) {
    roots = roots.filter((root) => root.id !== plugin.id);
    for (const entry of plugin.entries) roots.push(rootOf(plugin, entry, levelOf(entry.scope), agentRegistry));
  }

  // 3. The project registry: level project, shadowing every earlier entry of the same id.
  if (projectRead !== undefined && projectRegistry !== null) {
    warnings.push(...projectRead.warnings);
    const projectRoots: PluginRoot[] = [];
    for (const plugin of projectRead.plugins) {
      for (const entry of plugin.entries) projectRoots.push(rootOf(plugin, entry, 'project', projectRegistry));
    }
    const shadowed = new Set(projectRoots.map((root) => root.id));
    roots = [...projectRoots, ...roots.filter((root) => !shadowed.has(root.id))];
  }

  // Roots with the same installPath are kept once.
  const seen = new Set<string>();
  return { roots: roots.filter((root) => !seen.has(root.path) && seen.add(root.path) !== undefined), warnings };
}

/**
 * The skills directories of one root: `<root>/skills` (unless the root's marketplace lists the plugin at `./`),
 * then each `skills` entry of `.claude-plugin/plugin.json` that stays inside the root.
 */
export async function claudePluginSkillDirs(
  root: PluginRoot,
  inputs: PluginInputs,
): Promise<{ dirs: string[]; warnings: string[] }> {
  const warnings: string[] = [];
  const manifestPath = join(root.path, '.claude-plugin', 'plugin.json');
  inputs.files.add(manifestPath);
  const dirs: string[] = [];
  if (!(await marketplaceListsItself(root, inputs))) dirs.push(join(root.path, 'skills'));
  const manifest = await readJsonObject(manifestPath);
  const declared = manifest?.skills;
  const entries = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared : [];
  for (const entry of entries) {
    if (typeof entry !== 'string' || entry.trim() === '') continue;
    const dir = resolve(root.path, entry);
    const inside = relative(root.path, dir);
    // `..` as a whole first segment leaves the root; `..foo` is a name inside it.
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      warnings.push(`[claude-plugins] Ignoring skills path outside plugin root for ${root.id}: ${entry}`);
      continue;
    }
    if (!dirs.includes(dir)) dirs.push(dir);
  }
  return { dirs, warnings };
}

/** A marketplace at the root that lists this very plugin with `source: "./"` states its skills itself. */
async function marketplaceListsItself(root: PluginRoot, inputs: PluginInputs): Promise<boolean> {
  for (const path of [join(root.path, '.claude-plugin', 'marketplace.json'), join(root.path, 'marketplace.json')]) {
    inputs.files.add(path);
    const plugins = (await readJsonObject(path))?.plugins;
    if (!Array.isArray(plugins)) continue;
    if (plugins.some((plugin) => isRecord(plugin) && plugin.name === root.name && plugin.source === './')) return true;
  }
  return false;
}

/**
 * The plugins of one registry, in its order, each with its usable entries. A registry that does not parse (or whose
 * `version` is not a number) contributes nothing and a warning; a missing one, nothing.
 */
async function readRegistry(
  path: string,
  label: string,
  inputs: PluginInputs,
): Promise<{ plugins: RegistryPlugin[]; warnings: string[] }> {
  inputs.files.add(path);
  const warnings: string[] = [];
  const read = await readJsonFile(path);
  if (read.status === 'missing') return { plugins: [], warnings };
  const registry = read.status === 'ok' ? read.value : undefined;
  if (!isRecord(registry) || typeof registry.version !== 'number' || !isRecord(registry.plugins)) {
    warnings.push(`Failed to parse ${label} plugin registry: ${path}`);
    return { plugins: [], warnings };
  }
  const out: RegistryPlugin[] = [];
  for (const [id, list] of Object.entries(registry.plugins)) {
    if (!Array.isArray(list) || list.length === 0) continue;
    const at = id.lastIndexOf('@');
    if (at === -1) {
      warnings.push(`Invalid plugin ID format (missing @marketplace): ${id}`);
      continue;
    }
    const entries: RegistryPlugin['entries'] = [];
    for (const entry of list) {
      if (!isRecord(entry) || typeof entry.installPath !== 'string' || entry.installPath === '') {
        warnings.push(`Plugin ${id} entry has no installPath`);
        continue;
      }
      if (entry.enabled === false) continue;
      entries.push(entry as RegistryPlugin['entries'][number]);
    }
    out.push({ id, name: id.slice(0, at), entries });
  }
  return { plugins: out, warnings };
}

/** `enabledPlugins` of each settings file in turn, later files winning; only booleans count. */
async function readEnabledPlugins(paths: string[], inputs: PluginInputs): Promise<Map<string, boolean>> {
  for (const path of paths) inputs.files.add(path);
  const files = await Promise.all(paths.map((path) => readJsonObject(path)));
  const enabled = new Map<string, boolean>();
  for (const file of files) {
    const map = file?.enabledPlugins;
    if (!isRecord(map)) continue;
    for (const [id, value] of Object.entries(map)) if (typeof value === 'boolean') enabled.set(id, value);
  }
  return enabled;
}

/** A project-bound install counts only in its own project: the realpath of its `projectPath` is the active root. */
async function boundHere(
  projectPath: unknown,
  pc: ClaudeRegistryContext,
  cache: Map<string, string | null>,
): Promise<boolean> {
  if (typeof projectPath !== 'string' || projectPath === '' || pc.activeProject === null) return false;
  let real = cache.get(projectPath);
  if (real === undefined) {
    real = await realpath(resolve(pc.ws.cwd, projectPath)).catch(() => null);
    cache.set(projectPath, real);
  }
  return real === pc.activeProject;
}

function levelOf(scope: unknown): Level {
  return scope === 'project' || scope === 'local' ? 'project' : 'user';
}

function rootOf(
  plugin: RegistryPlugin,
  entry: { installPath: string },
  level: Level,
  registryPath: string,
): PluginRoot {
  // Registries hold absolute paths; a relative one is read against the registry's own directory.
  return { id: plugin.id, name: plugin.name, path: resolve(join(registryPath, '..'), entry.installPath), level };
}
