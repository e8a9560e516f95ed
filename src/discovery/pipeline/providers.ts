// The skill providers of docs/discovery.md §4 as one table: ids, priorities, display names, directories in their documented
// inner order, the description requirement, and which toggle enables each source.

import { join } from 'node:path';
import type { PluginPlans, PluginProviderId } from '../plugins/plan-plugin-providers.js';
import { claudeConfigDir } from '../plugins/plugin-context.js';
import type { Level, Profile, SkillsSettings } from '../types.js';
import type { WorkspaceContext } from '../workspace-context.js';
import type { ProviderDir } from './provider-dir.js';

// The table's directory type, for whoever runs its plans; the plugin planners import it from its own file.
export type { ProviderDir } from './provider-dir.js';

export interface ProviderPlan {
  id: string;
  priority: number;
  displayName: string;
  requireDescription: boolean;
  /** The managed (auto-learn) provider: skipped by §5 step 2 and resolved last (step 5). */
  managed: boolean;
  /** Skills directories in scan order. */
  dirs: ProviderDir[];
  /** Warnings found while placing the directories (plugin registries and manifests), before any scan's. */
  warnings?: string[];
}

interface ProviderRow {
  id: string;
  priority: number;
  requireDescription: boolean;
  /** Which profiles have this provider. */
  profiles: readonly Profile[];
  displayName: (ws: WorkspaceContext) => string;
  dirs: (ws: WorkspaceContext) => ProviderDir[];
  /** The plugin providers: directories and warnings come from `planPluginProviders`. */
  plugin?: PluginProviderId;
}

const ALL_PROFILES: readonly Profile[] = ['musepi', 'omp', 'xcsh'];
const MUSEPI_FAMILY: readonly Profile[] = ['musepi', 'omp'];

/** The plugin providers' directories are read from their registries (`planPluginProviders`), not placed here. */
const fromPlugins = (): ProviderDir[] => [];

// In the priority order of §4; equal priorities keep this order (claude-plugins, agents, codex at 70).
const PROVIDER_ROWS: readonly ProviderRow[] = [
  {
    id: 'native',
    priority: 100,
    requireDescription: true,
    profiles: ALL_PROFILES,
    displayName: (ws) => ws.profile.nativeDisplayName,
    // Project dirs closest first, HOME included when the walk reaches it; then the user dir.
    dirs: (ws) => [
      ...ws.walk.map((d) => project(join(d, ws.profile.configDir, 'skills'))),
      user(join(ws.agentDir, 'skills')),
    ],
  },
  {
    id: 'omp-plugins',
    priority: 90,
    requireDescription: true,
    profiles: MUSEPI_FAMILY,
    displayName: () => 'OMP Extension Packages',
    dirs: fromPlugins,
    plugin: 'omp-plugins',
  },
  {
    id: 'claude',
    priority: 80,
    requireDescription: false,
    profiles: ALL_PROFILES,
    displayName: () => 'Claude Code',
    // User first, then project closest first; the walk skips HOME (xcsh: does not).
    dirs: (ws) => [
      user(join(claudeUserDir(ws), 'skills')),
      ...projectWalk(ws).map((d) => project(join(d, '.claude', 'skills'))),
    ],
  },
  {
    id: 'agent-plugins',
    priority: 75,
    requireDescription: true,
    profiles: MUSEPI_FAMILY,
    displayName: () => 'Agent Plugins',
    dirs: fromPlugins,
    plugin: 'agent-plugins',
  },
  {
    id: 'claude-plugins',
    priority: 70,
    requireDescription: false,
    profiles: ALL_PROFILES,
    displayName: () => 'Claude Code Marketplace',
    dirs: fromPlugins,
    plugin: 'claude-plugins',
  },
  {
    id: 'agents',
    priority: 70,
    requireDescription: false,
    profiles: ALL_PROFILES,
    displayName: (ws) => (ws.profile.profile === 'xcsh' ? 'Agents (standard)' : 'Agent Dirs (.agent/.agents)'),
    // Project closest first (`.agent` before `.agents` in each), then the user dirs.
    dirs: (ws) => [
      ...projectWalk(ws).flatMap((d) => [project(join(d, '.agent', 'skills')), project(join(d, '.agents', 'skills'))]),
      user(join(ws.home, '.agent', 'skills')),
      user(join(ws.home, '.agents', 'skills')),
    ],
  },
  {
    id: 'codex',
    priority: 70,
    requireDescription: false,
    profiles: ALL_PROFILES,
    displayName: () => 'OpenAI Codex',
    dirs: (ws) => [user(join(ws.home, '.codex', 'skills')), project(join(ws.cwd, '.codex', 'skills'))],
  },
  {
    id: 'opencode',
    priority: 55,
    requireDescription: false,
    profiles: ALL_PROFILES,
    displayName: () => 'OpenCode',
    dirs: (ws) => [user(join(ws.home, '.config', 'opencode', 'skills')), project(join(ws.cwd, '.opencode', 'skills'))],
  },
  {
    id: 'github',
    priority: 30,
    requireDescription: true,
    profiles: MUSEPI_FAMILY,
    displayName: () => 'GitHub Copilot',
    dirs: (ws) => [project(join(ws.cwd, '.github', 'skills'))],
  },
];

export const MANAGED_DISPLAY_NAME = 'Managed Skills (auto-learn)';
const MANAGED_PRIORITY = 5;

/**
 * Every provider of the workspace's profile, highest priority first, with its directories placed. The plugin
 * providers get theirs from `plugins` (none without it).
 */
export function planProviders(ws: WorkspaceContext, plugins?: PluginPlans): ProviderPlan[] {
  const plans: ProviderPlan[] = PROVIDER_ROWS.filter((row) => row.profiles.includes(ws.profile.profile)).map((row) => {
    const placed = row.plugin === undefined ? undefined : plugins?.providers[row.plugin];
    return {
      id: row.id,
      priority: row.priority,
      displayName: row.displayName(ws),
      requireDescription: row.requireDescription,
      managed: false,
      dirs: placed === undefined ? row.dirs(ws) : placed.dirs,
      warnings: placed === undefined ? [] : placed.warnings,
    };
  });
  const managedId = ws.profile.managedProviderId;
  if (managedId !== null) {
    plans.push({
      id: managedId,
      priority: MANAGED_PRIORITY,
      displayName: MANAGED_DISPLAY_NAME,
      requireDescription: true,
      managed: true,
      dirs: [user(join(ws.agentDir, 'managed-skills'))],
      warnings: [],
    });
  }
  // Stable: equal priorities keep table order.
  return plans.sort((a, b) => b.priority - a.priority);
}

/**
 * Whether the source `<provider>:<level>` is enabled by the toggles of §4. Managed skills are always on;
 * `custom` has no toggle. Providers without a toggle of their own follow the fallback gate.
 */
export function isSourceEnabled(profile: Profile, provider: string, level: Level, skills: SkillsSettings): boolean {
  switch (provider) {
    case 'native':
      return level === 'project' ? skills.enablePiProject : skills.enablePiUser;
    case 'claude':
      return level === 'project' ? skills.enableClaudeProject : skills.enableClaudeUser;
    case 'agents':
      // xcsh has no agents toggles: the agents follow the fallback gate there.
      if (profile === 'xcsh') return fallbackGate(skills);
      return level === 'project' ? skills.enableAgentsProject : skills.enableAgentsUser;
    case 'codex':
      return level === 'user' ? skills.enableCodexUser : fallbackGate(skills);
    case 'custom':
    case 'musepi-managed':
    case 'omp-managed':
      return true;
    default:
      return fallbackGate(skills);
  }
}

/** On iff one of the codex/claude/pi toggles is on; the agents toggles do not count (§4). */
export function fallbackGate(skills: SkillsSettings): boolean {
  return (
    skills.enableCodexUser ||
    skills.enableClaudeUser ||
    skills.enableClaudeProject ||
    skills.enablePiUser ||
    skills.enablePiProject
  );
}

/** `HOME/.claude`, or `$CLAUDE_CONFIG_DIR` when set (non-empty). */
function claudeUserDir(ws: WorkspaceContext): string {
  return claudeConfigDir(ws);
}

/** The project walk of claude and agents: HOME skipped, except in xcsh. */
function projectWalk(ws: WorkspaceContext): string[] {
  if (ws.profile.profile === 'xcsh') return ws.walk;
  return ws.walk.filter((d) => d !== ws.home);
}

function user(path: string): ProviderDir {
  return { path, level: 'user' };
}

function project(path: string): ProviderDir {
  return { path, level: 'project' };
}
