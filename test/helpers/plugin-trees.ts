// Plugin fixtures (docs/discovery.md §4a): registries, manifests and settings written as the agents write them.

export interface RegistryEntry {
  scope?: string;
  installPath?: unknown;
  version?: string;
  enabled?: boolean;
  projectPath?: string;
}

/** An `installed_plugins.json` of version 2 (Claude Code's current format). */
export function registry(plugins: Record<string, unknown>): string {
  return JSON.stringify({ version: 2, plugins });
}

/** One registry entry installed at `installPath`. */
export function entry(installPath: string, fields: Omit<RegistryEntry, 'installPath'> = {}): RegistryEntry {
  return { scope: 'user', installPath, version: '1.0.0', ...fields };
}

/** A settings file switching plugins on or off. */
export function enabledPlugins(map: Record<string, boolean>): string {
  return JSON.stringify({ enabledPlugins: map });
}

export const AGENT_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json';

/** An Agent Plugins `plugin.json`. */
export function agentManifest(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ $schema: AGENT_SCHEMA, name, ...extra });
}
