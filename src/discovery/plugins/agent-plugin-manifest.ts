// Which plugin roots are Agent Plugins (docs/plugins.md, "Agent Plugins"): a root whose `plugin.json` declares the
// Agent Plugins 1.0.0 manifest schema. Any other version of that schema, or a manifest failing one of the checks
// below, rejects the root for every provider; a `$schema` of any other kind (or none) leaves it to claude-plugins and
// omp-plugins. The checks run in a fixed order and the first failure is the reason given.

import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from './agent-plugins.js';
import type { PluginInputs } from './plugin-root.js';
import { isRecord, readJsonFile } from './read-json-file.js';

export const AGENT_PLUGIN_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json';
const AGENT_PLUGIN_SCHEMA_PREFIX = 'https://agent-plugins.org/schemas/';
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
]);
/** Checked in this order: the first present one that is not a string is the reason. */
const STRING_FIELDS = ['version', 'description', 'homepage', 'repository', 'license'] as const;
const AUTHOR_FIELDS: ReadonlySet<string> = new Set(['name', 'email', 'url']);

export type AgentPluginVerdict =
  /** `warnings` without the `<manifest name>: ` prefix. */
  | { kind: 'agent'; manifestName: string; warnings: string[] }
  /** The whole warning, `Rejected plugin at <root>: <reason>`. */
  | { kind: 'rejected'; warning: string }
  | { kind: 'other' };

/** `root` as configured (it names the plugin in a rejection); `realRoot` its real path. */
export async function classifyPluginRoot(
  root: string,
  realRoot: string,
  inputs: PluginInputs,
): Promise<AgentPluginVerdict> {
  const manifestPath = join(root, 'plugin.json');
  inputs.files.add(manifestPath);
  const reject = (reason: string): AgentPluginVerdict => ({
    kind: 'rejected',
    warning: `Rejected plugin at ${root}: ${reason}`,
  });
  const realManifest = await realpath(manifestPath).catch(() => undefined);
  if (realManifest === undefined) return { kind: 'other' };
  // A manifest linked in from elsewhere does not describe this plugin; it is not even read.
  if (!isInside(realRoot, realManifest)) return reject('plugin.json resolves outside the plugin root');
  const read = await readJsonFile(manifestPath);
  const manifest = read.status === 'ok' && isRecord(read.value) ? read.value : undefined;
  const schema = manifest?.$schema;
  if (manifest === undefined || typeof schema !== 'string' || !schema.startsWith(AGENT_PLUGIN_SCHEMA_PREFIX)) {
    return { kind: 'other' };
  }
  if (schema !== AGENT_PLUGIN_SCHEMA) return reject(`unsupported Agent Plugins version ($schema: ${schema})`);
  const warnings = Object.keys(manifest)
    .filter((key) => !MANIFEST_FIELDS.has(key))
    .map((key) => `Ignoring unknown plugin.json field "${key}"`);
  const reason = manifestProblem(manifest);
  if (reason !== undefined) return reject(reason);
  if (manifest.extensions !== undefined && !isRecord(manifest.extensions)) {
    warnings.push('Ignoring non-object "extensions" field');
  }
  return { kind: 'agent', manifestName: manifest.name as string, warnings };
}

/** Why the manifest is refused, or undefined. */
function manifestProblem(manifest: Record<string, unknown>): string | undefined {
  const { name } = manifest;
  if (typeof name !== 'string' || name.length > MAX_PLUGIN_NAME || !PLUGIN_NAME.test(name)) {
    return `invalid plugin name ${String(JSON.stringify(name))}`;
  }
  for (const field of STRING_FIELDS) {
    if (manifest[field] !== undefined && typeof manifest[field] !== 'string') return `"${field}" must be a string`;
  }
  const { keywords, author } = manifest;
  if (keywords !== undefined && !(Array.isArray(keywords) && keywords.every((word) => typeof word === 'string'))) {
    return '"keywords" must be an array of strings';
  }
  if (author !== undefined) {
    if (!isRecord(author)) return '"author" must be an object';
    for (const [key, value] of Object.entries(author)) {
      if (!AUTHOR_FIELDS.has(key)) return `unknown "author" field "${key}"`;
      if (typeof value !== 'string') return `"author.${key}" must be a string`;
    }
  }
  return undefined;
}
