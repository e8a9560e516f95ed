// Gemini CLI's start (docs/agents.md "Gemini CLI"): its settings files, its folder trust (the variables, then the
// folder-trust setting, then the trusted-folders file, whose longest matching key decides), the `.env` file it loads
// into its environment, and the skills settings. A settings or trust file Gemini CLI cannot parse stops it: the view
// is then empty, with Gemini CLI's own message.
//
// Every file is read on every build and may be anyone's to place (`GEMINI_CLI_HOME`, a link in `~/.gemini`, a `.env`
// above the workspace): each is read through the guarded reader (side-file.ts), and the rules are bounded in number
// and compared without a realpath each, so a file of 200,000 rules cannot cost 200,000 realpaths per build.

import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { realpath, stat } from '../files/sliced-fs.js';
import type { SkillWarning } from '../types.js';
import { envPath, isUnder, walkBetween } from './agent-context.js';
import { readSideFile } from './side-file.js';
import type { AgentContext } from './types.js';

export interface GeminiSetup {
  /** The workspace is trusted for its skills (after the `.env` file). */
  trusted: boolean;
  /** Gemini CLI stops at start (a settings or trust file it cannot parse): nothing loads; its message. */
  fatal?: SkillWarning;
  /** A trusted-folders file skillsd does not read (a guard): the workspace is taken as untrusted. */
  error?: SkillWarning;
  /** Settings files that failed a guard of the bounded read. */
  warnings: SkillWarning[];
  /** The files the answer depends on. */
  files: string[];
  /** The home the user roots are under (`GEMINI_CLI_HOME`, from the environment or the `.env` file). */
  home: string;
  /** `skills.enabled` of the merged settings. */
  skillsEnabled: boolean;
  /** `skills.disabled` of the merged settings (a union), lower-cased, with the file each came from. */
  disabled: Map<string, string>;
}

const LEVELS = ['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST'];

/** 1 MiB, the cap the daemon puts on its own `--config` file: a settings, rules or `.env` file is a few KiB. */
const MAX_GEMINI_FILE_BYTES = 1024 * 1024;

/**
 * At most 1,000 rules are examined: each may cost a stat. A person trusts folders one at a time; a file of more is
 * not read, and the workspace is taken as untrusted, with a warning.
 */
const MAX_TRUST_RULES = 1000;

/** The variables of a `.env` file that change what Gemini CLI loads (the others do not concern skills). */
const DOTENV_NAMES = ['GEMINI_CLI_HOME', 'GEMINI_CLI_TRUST_WORKSPACE', 'GEMINI_RESTRICTED_MODE'];

type Env = Readonly<Record<string, string>>;

interface Settings {
  folderTrust?: unknown;
  skills?: { enabled?: unknown; disabled?: unknown };
}

type SettingsRead = { settings: Settings; warning?: SkillWarning } | { fatal: SkillWarning };

function homeOf(env: Env, ctx: AgentContext): string {
  const set = env.GEMINI_CLI_HOME;
  return set === undefined ? ctx.home : envPath(set, ctx);
}

export function geminiHome(ctx: AgentContext): string {
  return homeOf(ctx.env, ctx);
}

export async function geminiSetup(ctx: AgentContext): Promise<GeminiSetup> {
  const home = geminiHome(ctx);
  const settingsFile = join(home, '.gemini', 'settings.json');
  const workspaceFile = join(ctx.cwd, '.gemini', 'settings.json');
  const set = ctx.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH;
  const foldersFile = set === undefined ? join(home, '.gemini', 'trustedFolders.json') : envPath(set, ctx);
  const files = [settingsFile, workspaceFile, foldersFile];
  const base = {
    warnings: [] as SkillWarning[],
    files,
    home,
    skillsEnabled: true,
    disabled: new Map<string, string>(),
  };
  // Nothing else is said of a start that stops: the one message is why.
  const stopped = (fatal: SkillWarning): GeminiSetup => ({ ...base, warnings: [], trusted: false, fatal });

  const user = await readSettings(settingsFile, 'folder trust is taken as on');
  // The workspace settings are read (and must parse) unless the workspace is the home itself.
  const atHome = (await realOf(ctx.cwd)) === (await realOf(home));
  const workspace: SettingsRead = atHome
    ? { settings: {} }
    : await readSettings(workspaceFile, 'its skills settings are not applied');
  const warnings = [user, workspace].flatMap((read) => ('warning' in read && read.warning ? [read.warning] : []));
  base.warnings = warnings;

  // The first trust check, from the user settings and the environment the CLI started with: it decides which
  // `.env` is loaded and whether the workspace settings are merged. A broken trust file stops the CLI here.
  const userSettings = 'settings' in user ? user.settings : {};
  const rules = new RulesFile(foldersFile, ctx.cwd);
  const first = await checkTrust(ctx.env, userSettings.folderTrust, rules);
  if (first.fatal !== undefined) return stopped(first.fatal);
  if ('fatal' in user) return stopped(user.fatal);
  if ('fatal' in workspace) return stopped(workspace.fatal);
  const workspaceSettings = first.trusted ? workspace.settings : {};

  const dotenv = await loadDotenv(ctx, first.trusted === true, home);
  files.push(...dotenv.files);
  if (dotenv.warning !== undefined) warnings.push(dotenv.warning);
  const env: Env = { ...dotenv.values, ...ctx.env };

  // The trust the skills are loaded with: again, with the variables of the `.env` file.
  const folderTrust =
    workspaceSettings.folderTrust === undefined ? userSettings.folderTrust : workspaceSettings.folderTrust;
  const second = await checkTrust(env, folderTrust, rules);
  const enabled =
    workspaceSettings.skills?.enabled === undefined ? userSettings.skills?.enabled : workspaceSettings.skills.enabled;
  const disabled = new Map<string, string>();
  for (const [file, settings] of [
    [settingsFile, userSettings],
    [workspaceFile, workspaceSettings],
  ] as const) {
    const list = settings.skills?.disabled;
    if (!Array.isArray(list)) continue;
    for (const name of list)
      if (typeof name === 'string' && !disabled.has(name.toLowerCase())) disabled.set(name.toLowerCase(), file);
  }
  return {
    ...base,
    trusted: second.trusted === true,
    ...(second.error === undefined ? {} : { error: second.error }),
    home: homeOf(env, ctx),
    // `skills.enabled ?? true`: only a falsy value that is set turns skills off.
    skillsEnabled: enabled === undefined || enabled === null || Boolean(enabled),
    disabled,
  };
}

async function realOf(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

/** A settings file: JSON after stripping comments (a trailing comma is an error), an object. */
async function readSettings(path: string, refused: string): Promise<SettingsRead> {
  const read = await readSideFile(path, MAX_GEMINI_FILE_BYTES);
  if (read.status === 'missing') return { settings: {} };
  if (read.status === 'refused') {
    const message = `[skillsd] Gemini CLI settings ${path} are not read (${read.why}): ${refused}`;
    return { settings: {}, warning: { skillPath: path, message } };
  }
  const parsed = parseJsonWithComments(read.text);
  if (!parsed.ok) return { fatal: geminiError(path, parsed.error) };
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { fatal: geminiError(path, 'Settings file is not a valid JSON object.') };
  }
  const settings = value as { security?: { folderTrust?: { enabled?: unknown } }; skills?: Settings['skills'] };
  return {
    settings: {
      ...(settings.security?.folderTrust?.enabled === undefined
        ? {}
        : { folderTrust: settings.security.folderTrust.enabled }),
      ...(settings.skills !== null && typeof settings.skills === 'object' ? { skills: settings.skills } : {}),
    },
  };
}

/** Gemini CLI's own words for a configuration file that stops it. */
function geminiError(path: string, message: string): SkillWarning {
  return { skillPath: path, message: `Error in ${path}: ${message}` };
}

/** `JSON.parse` after comments are blanked out, strings kept (strip-json-comments, as Gemini CLI reads). */
export function parseJsonWithComments(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(stripJsonComments(text)) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const ch = text[i] as string;
    if (inString) {
      out += ch;
      if (ch === '\\' && i + 1 < text.length) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      if (ch === '"') inString = false;
      i++;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      i++;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : text[end - 1] === '\r' ? end - 1 : end;
      out += ' '.repeat(stop - i);
      i = stop;
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\r\n]/g, ' ');
      i = stop;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/** The trusted-folders file, read and decided once per build (Gemini CLI reads it once per start). */
class RulesFile {
  private decided?: Promise<{ trusted?: boolean; fatal?: SkillWarning; error?: SkillWarning }>;
  constructor(
    readonly path: string,
    readonly cwd: string,
  ) {}
  decide(): Promise<{ trusted?: boolean; fatal?: SkillWarning; error?: SkillWarning }> {
    this.decided ??= readRules(this.path).then(async (read) => {
      if ('fatal' in read) return { fatal: read.fatal };
      if ('error' in read) return { trusted: false, error: read.error };
      return { trusted: await longestRule(read.entries, this.cwd) };
    });
    return this.decided;
  }
}

/** Gemini CLI's `checkPathTrust`: true, false, or undefined (no rule: untrusted). */
async function checkTrust(
  env: Env,
  folderTrust: unknown,
  rules: RulesFile,
): Promise<{ trusted?: boolean; fatal?: SkillWarning; error?: SkillWarning }> {
  if (env.GEMINI_RESTRICTED_MODE === 'true' || env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return { trusted: false };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return { trusted: true };
  // `security.folderTrust.enabled ?? true`: a set falsy value switches folder trust off.
  if (folderTrust !== undefined && folderTrust !== null && !folderTrust) return { trusted: true };
  return rules.decide();
}

/** The rules of the trusted-folders file (none when there is no file), or what keeps them out. */
async function readRules(
  path: string,
): Promise<{ entries: Array<[string, string]> } | { fatal: SkillWarning } | { error: SkillWarning }> {
  const read = await readSideFile(path, MAX_GEMINI_FILE_BYTES);
  if (read.status === 'missing') return { entries: [] };
  if (read.status === 'refused') {
    const message = `[skillsd] Gemini CLI trusted folders ${path} are not read (${read.why}): workspace not trusted`;
    return { error: { skillPath: path, message } };
  }
  const parsed = parseJsonWithComments(read.text);
  if (!parsed.ok) return { fatal: geminiError(path, parsed.error) };
  const rules = parsed.value;
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) {
    return { fatal: geminiError(path, 'Trusted folders file is not a valid JSON object.') };
  }
  const entries = Object.entries(rules as Record<string, unknown>);
  for (const [key, level] of entries) {
    if (typeof level !== 'string' || !LEVELS.includes(level)) {
      return {
        fatal: geminiError(
          path,
          `Invalid trust level "${String(level)}" for path "${key}". Possible values are: ${LEVELS.join(', ')}.`,
        ),
      };
    }
  }
  if (entries.length > MAX_TRUST_RULES) {
    const message = `[skillsd] Gemini CLI trusted folders ${path} hold ${entries.length} rules, more than the ${MAX_TRUST_RULES} skillsd examines: workspace not trusted`;
    return { error: { skillPath: path, message } };
  }
  // Keys are normalized (made absolute) as Gemini CLI loads them; a later key of the same normal form replaces one.
  const normal = new Map<string, string>();
  for (const [key, level] of entries) normal.set(resolve(key), level as string);
  return { entries: [...normal] };
}

/**
 * Whether the matching rule with the longest key (as written, made absolute) trusts the workspace; undefined when no
 * rule holds it. A rule holds the workspace when its real path (for TRUST_PARENT: its parent's) holds the
 * workspace's real path.
 */
async function longestRule(entries: Array<[string, string]>, cwd: string): Promise<boolean | undefined> {
  const place = await placeOf(cwd);
  let best: { length: number; trusted: boolean } | undefined;
  for (const [key, level] of entries) {
    if (best !== undefined && key.length <= best.length) continue;
    if (!(await holds(level === 'TRUST_PARENT' ? dirname(key) : key, place))) continue;
    best = { length: key.length, trusted: level !== 'DO_NOT_TRUST' };
  }
  return best?.trusted;
}

/** The workspace as rules are matched against it: its real path and every directory holding it. */
interface Place {
  real: string;
  /** The real path and its ancestors: every prefix of a real path is a real path too. */
  ancestors: Set<string>;
  /** `dev:ino` of each of them, taken the first time a rule needs them. */
  inodes?: Promise<Set<string>>;
}

async function placeOf(cwd: string): Promise<Place> {
  const real = await realpath(cwd).catch(() => cwd);
  return { real, ancestors: new Set(walkBetween(real, '/')) };
}

/**
 * Whether a rule's real path holds the workspace. It does when its real path is one of the workspace's ancestors, so
 * a realpath is taken only for a rule that is the very same directory as one of them; every other rule is decided by
 * its text or by one stat.
 */
async function holds(rulePath: string, place: Place): Promise<boolean> {
  // Absolute, without `..`, and naming an ancestor: that ancestor is real, so it is the rule's real path as well.
  if (isAbsolute(rulePath) && !rulePath.split(sep).includes('..')) {
    if (place.ancestors.has(resolve(rulePath))) return true;
  }
  const info = await stat(rulePath).catch(() => undefined);
  // A rule naming nothing is compared as written (its realpath fails).
  if (info === undefined) return isUnder(place.real, rulePath);
  // A link or `..` can lead to an ancestor only if it ends at the same directory: same device and inode.
  place.inodes ??= inodesOf(place.ancestors);
  if (!(await place.inodes).has(`${info.dev}:${info.ino}`)) return false;
  const real = await realpath(rulePath).catch(() => rulePath);
  return isUnder(place.real, real);
}

async function inodesOf(dirs: Set<string>): Promise<Set<string>> {
  const infos = await Promise.all([...dirs].map((dir) => stat(dir).catch(() => undefined)));
  return new Set(infos.flatMap((info) => (info === undefined ? [] : [`${info.dev}:${info.ino}`])));
}

/**
 * The `.env` file Gemini CLI loads (its `findEnvFile`): from the workspace upward, in each directory
 * `.gemini/.env` (trusted only) then `.env`; past the top, `~/.gemini/.env` (trusted only) then `~/.env`. The first
 * that exists is the one; untrusted, it gives only API keys, none of which moves a root.
 */
async function loadDotenv(
  ctx: AgentContext,
  trusted: boolean,
  home: string,
): Promise<{ values: Record<string, string>; files: string[]; warning?: SkillWarning }> {
  const candidates: string[] = [];
  for (const dir of walkBetween(resolve(ctx.cwd), '/')) {
    if (trusted) candidates.push(join(dir, '.gemini', '.env'));
    candidates.push(join(dir, '.env'));
  }
  if (trusted) candidates.push(join(home, '.gemini', '.env'));
  candidates.push(join(home, '.env'));
  const files: string[] = [];
  for (const path of candidates) {
    files.push(path);
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    if (!exists) continue;
    if (!trusted) return { values: {}, files };
    const read = await readSideFile(path, MAX_GEMINI_FILE_BYTES);
    if (read.status === 'missing') return { values: {}, files };
    if (read.status === 'refused') {
      const message = `[skillsd] Gemini CLI loads ${path} into its environment; skillsd does not read it (${read.why})`;
      return { values: {}, files, warning: { skillPath: path, message } };
    }
    const parsed = parseDotenv(read.text);
    const values: Record<string, string> = {};
    for (const name of DOTENV_NAMES) {
      const value = parsed[name];
      if (value !== undefined) values[name] = value;
    }
    return { values, files };
  }
  return { values: {}, files };
}

/** dotenv's `parse` (the package Gemini CLI uses): `KEY=value` lines, quotes, `#` comments, `export `. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/\r\n?/gm, '\n');
  const line =
    /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/gm;
  for (let match = line.exec(lines); match !== null; match = line.exec(lines)) {
    const key = match[1] as string;
    let value = (match[2] ?? '').trim();
    const quote = value[0];
    value = value.replace(/^(['"`])([\s\S]*)\1$/gm, '$2');
    if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    out[key] = value;
  }
  return out;
}
