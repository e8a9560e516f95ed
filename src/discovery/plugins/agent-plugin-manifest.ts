// Which plugin roots are Agent Plugins (SKILLS.md §4a): a root whose `plugin.json` declares the Agent Plugins 1.0.0
// manifest schema. Another version of that schema, or an invalid name, rejects the root for every provider; a
// `$schema` of any other kind (or none) leaves it to claude-plugins and omp-plugins.

import { join } from 'node:path';
import type { PluginInputs } from './plugin-root.js';
import { readJsonObject } from './read-json-file.js';

export const AGENT_PLUGIN_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json';
const AGENT_PLUGIN_SCHEMA_FAMILY = /^https:\/\/agent-plugins\.org\/schemas\/([^/]+)\/plugin\.schema\.json$/;
/** The manifest's name: lower-case letters, digits, inner `-` and `.`, never doubled; 1 to 64 characters. */
const PLUGIN_NAME = /^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;
const MAX_PLUGIN_NAME = 64;
/** The fields of the 1.0.0 manifest; any other is reported and ignored. */
const MANIFEST_FIELDS: ReadonlySet<string> = new Set([
  '$schema',
  'name',
  'version',
  'description',
  'author',
  'homepage',
  'repository',
  'license',
  'keywords',
  'extensions',
  'displayName',
]);

export type AgentPluginVerdict =
  | { kind: 'agent'; manifestName: string; warnings: string[] }
  | { kind: 'rejected'; warning: string }
  | { kind: 'other' };

export async function classifyPluginRoot(root: string, inputs: PluginInputs): Promise<AgentPluginVerdict> {
  const manifestPath = join(root, 'plugin.json');
  inputs.files.add(manifestPath);
  const manifest = await readJsonObject(manifestPath);
  const schema = manifest?.$schema;
  if (manifest === undefined || typeof schema !== 'string') return { kind: 'other' };
  if (schema !== AGENT_PLUGIN_SCHEMA) {
    const version = AGENT_PLUGIN_SCHEMA_FAMILY.exec(schema)?.[1];
    if (version === undefined) return { kind: 'other' };
    return { kind: 'rejected', warning: `Rejected plugin at ${root}: unsupported plugin schema version "${version}"` };
  }
  const { name } = manifest;
  if (typeof name !== 'string') return { kind: 'rejected', warning: `Rejected plugin at ${root}: missing plugin name` };
  if (name.length > MAX_PLUGIN_NAME || !PLUGIN_NAME.test(name)) {
    return { kind: 'rejected', warning: `Rejected plugin at ${root}: invalid plugin name "${name}"` };
  }
  const warnings = Object.keys(manifest)
    .filter((key) => !MANIFEST_FIELDS.has(key))
    .map((key) => `${name}: Ignoring unknown plugin.json field "${key}"`);
  return { kind: 'agent', manifestName: name, warnings };
}
