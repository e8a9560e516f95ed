// Scanning one Agent Plugins root (docs/plugins.md, "Agent Plugins"): `<root>/skills/<dir>/SKILL.md`, names sorted,
// each SKILL.md resolving (realpath) inside the root's realpath, its frontmatter read strictly. A skill that fails any
// rule is skipped with a warning naming the rule; `filePath` is the realpath, so nothing served later leads elsewhere.
// The root's own warnings (its manifest's, or its rejection) come first, so that each plugin's warnings stay together
// and plugins are reported in root order.

import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { readTextFile } from '../read-text-file.js';
import type { Level, Skill } from '../types.js';
import { readStrictFrontmatter } from './agent-skill-frontmatter.js';

export const AGENT_PLUGINS_PROVIDER = 'agent-plugins';
export const AGENT_PLUGINS_DISPLAY_NAME = 'Agent Plugins';
/** The provider's own tag, inside the display-name prefix every provider warning gets. */
const TAG = '[agent-plugins]';

export interface AgentPluginDir {
  /** `<root>/skills`. */
  path: string;
  level: Level;
  /** realpath of the plugin root: every skill file must resolve inside it. */
  realRoot: string;
  manifestName: string;
  /** The manifest's warnings, without the `<manifest name>: ` prefix. */
  warnings?: readonly string[];
  /** A rejected root: this whole warning, and nothing is read. */
  rejection?: string;
}

export async function scanAgentPluginDir(dir: AgentPluginDir): Promise<{ skills: Skill[]; warnings: string[] }> {
  if (dir.rejection !== undefined) return { skills: [], warnings: [`${TAG} ${dir.rejection}`] };
  const warnings = (dir.warnings ?? []).map((warning) => `${TAG} ${dir.manifestName}: ${warning}`);
  const folder = await skillsFolderProblem(dir);
  if (folder === null) return { skills: [], warnings };
  if (folder !== undefined) return { skills: [], warnings: [...warnings, `${TAG} ${dir.manifestName}: ${folder}`] };
  let entries: Dirent[];
  try {
    entries = await readdir(dir.path, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { skills: [], warnings };
    warnings.push(`${TAG} Failed to read skills directory: ${dir.path} (${String(error)})`);
    return { skills: [], warnings };
  }
  const names = entries
    .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()))
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const skills: Skill[] = [];
  for (const name of names) {
    const outcome = await loadAgentSkill(dir, name);
    if (outcome === undefined) continue;
    if (typeof outcome === 'string') warnings.push(`${TAG} ${dir.manifestName}: Skipping skill "${name}": ${outcome}`);
    else skills.push(outcome);
  }
  return { skills, warnings };
}

/**
 * Why `skills/` cannot be scanned: it resolves outside the root, or to something that is not a directory. `null`:
 * there is none (silently nothing); undefined: scan it.
 */
async function skillsFolderProblem(dir: AgentPluginDir): Promise<string | null | undefined> {
  const real = await realpath(dir.path).catch(() => undefined);
  if (real === undefined) return null;
  if (!isInside(dir.realRoot, real)) return 'skills/ resolves outside the plugin root';
  const info = await stat(real).catch(() => undefined);
  if (info === undefined) return null;
  return info.isDirectory() ? undefined : 'skills/ does not resolve to a directory';
}

/** The skill, the reason it is skipped, or undefined when there is no SKILL.md at all (not a skill, silently). */
async function loadAgentSkill(dir: AgentPluginDir, name: string): Promise<Skill | string | undefined> {
  const real = await realpath(join(dir.path, name, 'SKILL.md')).catch(() => undefined);
  if (real === undefined) return undefined;
  // A link inside the plugin may lead anywhere: only what really lies inside the root belongs to the plugin.
  if (!isInside(dir.realRoot, real)) return 'SKILL.md resolves outside the plugin root';
  let read: Awaited<ReturnType<typeof readTextFile>>;
  try {
    read = await readTextFile(real);
  } catch {
    return 'failed to read SKILL.md';
  }
  if (read.status === 'missing') return undefined;
  if (read.status === 'not-a-file') return 'SKILL.md is not a regular file';
  if (read.status === 'too-large') return 'SKILL.md is too large';
  const parsed = readStrictFrontmatter(read.text, name);
  if (!parsed.ok) return parsed.reason;
  return {
    name: parsed.name,
    description: parsed.description,
    filePath: real,
    baseDir: dirname(real),
    hide: false,
    source: {
      id: `${AGENT_PLUGINS_PROVIDER}:${dir.level}`,
      provider: AGENT_PLUGINS_PROVIDER,
      providerName: AGENT_PLUGINS_DISPLAY_NAME,
      level: dir.level,
      path: real,
      plugin: dir.manifestName,
    },
    frontmatter: parsed.frontmatter,
  };
}

export function isInside(base: string, path: string): boolean {
  if (path === base) return true;
  return path.startsWith(base.endsWith(sep) ? base : base + sep);
}
