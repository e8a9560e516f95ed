// One skills directory a provider scans (docs/discovery.md §4): shared by the provider table (providers.ts) and the
// plugin planners (plugins/plan-plugin-providers.ts), which place the plugin providers' directories.

import type { Level } from '../types.js';

export interface ProviderDir {
  path: string;
  level: Level;
  /** Plugin providers (docs/discovery.md §4a): the plugin the directory belongs to, recorded as `source.plugin`. */
  plugin?: string;
  /** Put before every name found there (xcsh's claude-plugins: `<plugin>:`). */
  namePrefix?: string;
  /** A SKILL.md directly inside the directory is a skill too (claude-plugins). */
  includeSelf?: boolean;
  /** An Agent Plugins root's `skills/`: scanned strictly, contained in the root's realpath (agent-plugins.ts). */
  agentPlugin?: { realRoot: string; manifestName: string; warnings?: readonly string[]; rejection?: string };
}
