// One installed plugin, as the plugin providers of docs/discovery.md §4a pass it around.

import type { Level } from '../types.js';

export interface PluginRoot {
  /** Identity recorded as `source.plugin`: `<plugin>@<marketplace>` (claude-plugins), the package (omp-plugins). */
  id: string;
  /** The plugin's own name: the id before its last `@` (claude-plugins), the package (omp-plugins). */
  name: string;
  /** The install directory, as the registry or settings give it. */
  path: string;
  level: Level;
}

/** Everything the plugin providers read besides skills directories: a change to any of them re-runs them. */
export interface PluginInputs {
  /** Files (registries, settings, manifests, lock files) and plugin roots, watched for any change. */
  files: Set<string>;
  /** Directories watched for presence only (a `CFG/` that would move the project anchor). */
  markers: Set<string>;
}

export function emptyInputs(): PluginInputs {
  return { files: new Set(), markers: new Set() };
}
