// Settings of docs/discovery.md §10: defaults, and validation of user input into a typed object.
// Unknown keys are an error naming the key: a typo in a toggle must not silently re-enable a source.

import { SkillsdError } from './errors.js';
import type {
  LocalPeers,
  McpServerSettings,
  Profile,
  ServerSettings,
  Settings,
  SkillsSettings,
  SymlinkMode,
  ViewWalkLimitSettings,
} from './types.js';

const PROFILES: readonly Profile[] = ['musepi', 'omp', 'xcsh'];
const SYMLINK_MODES: readonly SymlinkMode[] = ['contain', 'follow'];
const LOCAL_PEERS: readonly LocalPeers[] = ['same-user', 'any'];

const SKILL_BOOLEANS = [
  'enabled',
  'enableSkillCommands',
  'enableCodexUser',
  'enableClaudeUser',
  'enableClaudeProject',
  'enablePiUser',
  'enablePiProject',
  'enableAgentsUser',
  'enableAgentsProject',
] as const;
const SKILL_LISTS = ['customDirectories', 'ignoredSkills', 'includeSkills'] as const;
const SERVER_STRINGS = ['host', 'token', 'tokenFile'] as const;
const SERVER_LISTS = ['allowedHosts', 'allowedOrigins', 'allowedWorkspaces'] as const;

export function defaultSettings(): Settings {
  return {
    skills: {
      enabled: true,
      enableSkillCommands: true,
      enableCodexUser: true,
      enableClaudeUser: true,
      enableClaudeProject: true,
      enablePiUser: true,
      enablePiProject: true,
      enableAgentsUser: true,
      enableAgentsProject: true,
      customDirectories: [],
      ignoredSkills: [],
      includeSkills: [],
    },
    disabledExtensions: [],
    disabledProviders: [],
    profile: 'musepi',
    symlinks: 'contain',
    server: { allowedHosts: [], allowedOrigins: [], allowedWorkspaces: [], localPeers: 'same-user' },
  };
}

/**
 * Validates `input` (the parsed JSON/YAML of a config file, or a partial object) and merges it over the defaults.
 * Throws `SkillsdError('InvalidSettings')` whose message names the offending key path.
 */
export function parseSettings(input: unknown): Settings {
  const settings = defaultSettings();
  if (input === undefined || input === null) return settings;
  const root = expectObject(input, '(root)');
  for (const [key, value] of Object.entries(root)) {
    switch (key) {
      case 'skills':
        settings.skills = parseSkills(expectObject(value, 'skills'), settings.skills);
        break;
      case 'disabledExtensions':
      case 'disabledProviders':
        settings[key] = expectStringList(value, key);
        break;
      case 'profile':
        settings.profile = expectOneOf(value, key, PROFILES);
        break;
      case 'symlinks':
        settings.symlinks = expectOneOf(value, key, SYMLINK_MODES);
        break;
      case 'server':
        settings.server = parseServer(expectObject(value, 'server'), settings.server);
        break;
      default:
        throw invalid(`unknown setting "${key}"`);
    }
  }
  return settings;
}

function parseSkills(input: Record<string, unknown>, base: SkillsSettings): SkillsSettings {
  const out = { ...base };
  for (const [key, value] of Object.entries(input)) {
    const path = `skills.${key}`;
    if ((SKILL_BOOLEANS as readonly string[]).includes(key)) {
      if (typeof value !== 'boolean') throw invalid(`"${path}" must be a boolean, got ${describe(value)}`);
      out[key as (typeof SKILL_BOOLEANS)[number]] = value;
    } else if ((SKILL_LISTS as readonly string[]).includes(key)) {
      out[key as (typeof SKILL_LISTS)[number]] = expectStringList(value, path);
    } else {
      throw invalid(`unknown setting "${path}"`);
    }
  }
  return out;
}

function parseServer(input: Record<string, unknown>, base: ServerSettings): ServerSettings {
  const out: ServerSettings = { ...base };
  for (const [key, value] of Object.entries(input)) {
    const path = `server.${key}`;
    if ((SERVER_STRINGS as readonly string[]).includes(key)) {
      if (typeof value !== 'string' || value === '') throw invalid(`"${path}" must be a non-empty string`);
      out[key as (typeof SERVER_STRINGS)[number]] = value;
    } else if ((SERVER_LISTS as readonly string[]).includes(key)) {
      out[key as (typeof SERVER_LISTS)[number]] = expectStringList(value, path);
    } else if (key === 'publicUrl') {
      out.publicUrl = expectHttpUrl(value, path);
    } else if (key === 'port') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65535) {
        throw invalid(`"${path}" must be an integer from 0 to 65535, got ${describe(value)}`);
      }
      out.port = value;
    } else if (key === 'localPeers') {
      out.localPeers = expectOneOf(value, path, LOCAL_PEERS);
    } else if (key === 'generation') {
      out.generation = expectOneOf(value, path, ['counter', 'content'] as const);
    } else if (key === 'metrics') {
      out.metrics = expectOneOf(value, path, ['public', 'token'] as const);
    } else if (key === 'watchMode') {
      out.watchMode = expectOneOf(value, path, ['events', 'poll'] as const);
    } else if (key === 'pollIntervalMs') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 50 || value > 3_600_000) {
        throw invalid(`"${path}" must be an integer from 50 to 3600000, got ${describe(value)}`);
      }
      out.pollIntervalMs = value;
    } else if (key === 'mcp') {
      out.mcp = parseMcpServer(expectObject(value, path), out.mcp ?? {});
    } else if (key === 'walkLimits') {
      out.walkLimits = parseWalkLimits(expectObject(value, path), path, WALK_LIMITS);
    } else if (key === 'viewWalkLimits') {
      out.viewWalkLimits = parseWalkLimits(expectObject(value, path), path, VIEW_WALK_LIMITS);
    } else if (key === 'maxViewWorkspaces') {
      out.maxViewWorkspaces = expectInteger(value, path, 1, 1_000);
    } else {
      throw invalid(`unknown setting "${path}"`);
    }
  }
  return out;
}

/** `server.mcp`: the session bounds of the MCP face (docs/mcp.md "Session bounds"). */
function parseMcpServer(input: Record<string, unknown>, base: McpServerSettings): McpServerSettings {
  const out: McpServerSettings = { ...base };
  for (const [key, value] of Object.entries(input)) {
    const path = `server.mcp.${key}`;
    if (key === 'maxSessions') {
      out.maxSessions = expectInteger(value, path, 1, 100_000);
    } else if (key === 'idleTimeoutS') {
      out.idleTimeoutS = expectInteger(value, path, 1, 86_400);
    } else {
      throw invalid(`unknown setting "${path}"`);
    }
  }
  return out;
}

const WALK_LIMITS = ['maxEntries', 'maxDirectories', 'maxDepth'] as const;
/** `server.viewWalkLimits`: the same bounds for the agent views' walks of their roots, and their watches. */
const VIEW_WALK_LIMITS = [...WALK_LIMITS, 'maxWatchedDirectories'] as const;
/** Far past any skill, still a bound: a walk of this many entries takes seconds, not hours. */
const MAX_WALK_LIMIT = 10_000_000;

function parseWalkLimits(
  input: Record<string, unknown>,
  path: string,
  keys: readonly (keyof ViewWalkLimitSettings)[],
): Partial<ViewWalkLimitSettings> {
  const out: Partial<ViewWalkLimitSettings> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!(keys as readonly string[]).includes(key)) {
      throw invalid(`unknown setting "${path}.${key}" (one of ${keys.join(', ')})`);
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_WALK_LIMIT) {
      throw invalid(`"${path}.${key}" must be an integer from 1 to ${MAX_WALK_LIMIT}, got ${describe(value)}`);
    }
    out[key as keyof ViewWalkLimitSettings] = value;
  }
  return out;
}

function expectInteger(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`"${path}" must be an integer from ${min} to ${max}, got ${describe(value)}`);
  }
  return value;
}

/** An absolute http(s) URL without query or fragment; kept without its trailing slashes. */
function expectHttpUrl(value: unknown, path: string): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw invalid(`"${path}" must be an http or https URL without query or fragment, got ${describe(value)}`);
  }
  return (value as string).replace(/\/+$/, '');
}

function expectObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`"${path}" must be an object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

function expectStringList(value: unknown, path: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw invalid(`"${path}" must be a list of strings, got ${describe(value)}`);
  }
  return [...value];
}

function expectOneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalid(`"${path}" must be one of ${allowed.join(', ')}, got ${describe(value)}`);
  }
  return value as T;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  // The value itself where it is short and plain (`got 70000`, `got true`), so the message shows what was wrong.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

function invalid(message: string): SkillsdError {
  return new SkillsdError('InvalidSettings', message);
}
