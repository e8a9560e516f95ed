// Gemini CLI's folder trust (docs/agents.md "Gemini CLI"): the variable, then the folder-trust setting, then
// the trusted-folders file, whose longest matching rule decides.
//
// Both files are read on every build and may be anyone's to place (`GEMINI_CLI_HOME`, a link in `~/.gemini`): each
// is read through the guarded reader (side-file.ts), and the rules are bounded in number and compared without a
// realpath each, so a file of 200,000 rules cannot cost 200,000 realpaths per build.

import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { type ParseError, parse } from 'jsonc-parser';
import type { SkillWarning } from '../types.js';
import { envPath, isUnder, walkBetween } from './agent-context.js';
import { readSideFile } from './side-file.js';
import type { AgentContext } from './types.js';

export interface Trust {
  trusted: boolean;
  /** A trusted-folders file Gemini CLI refuses (or skillsd does not read): the warning it gives. */
  error?: { file: string; message: string };
  /** A settings file that failed a guard of the bounded read. */
  warnings: SkillWarning[];
  /** The files the answer depends on. */
  files: string[];
}

const LEVELS = new Set(['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST']);

/** 1 MiB, the cap the daemon puts on its own `--config` file: a settings or rules file is a few KiB. */
const MAX_GEMINI_FILE_BYTES = 1024 * 1024;

/**
 * At most 1,000 rules are examined: each may cost a stat. A person trusts folders one at a time; a file of more is
 * not read, and the workspace is taken as untrusted, with a warning.
 */
const MAX_TRUST_RULES = 1000;

export function geminiHome(ctx: AgentContext): string {
  const set = ctx.env.GEMINI_CLI_HOME;
  return set === undefined ? ctx.home : envPath(set, ctx);
}

export async function geminiTrust(ctx: AgentContext): Promise<Trust> {
  const home = geminiHome(ctx);
  const settingsFile = join(home, '.gemini', 'settings.json');
  const set = ctx.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH;
  const foldersFile = set === undefined ? join(home, '.gemini', 'trustedFolders.json') : envPath(set, ctx);
  const files = [settingsFile, foldersFile];
  const forced = ctx.env.GEMINI_CLI_TRUST_WORKSPACE;
  if (forced === 'true') return { trusted: true, warnings: [], files };
  if (forced === 'false') return { trusted: false, warnings: [], files };
  const settings = await readSettings(settingsFile);
  if (settings.folderTrust === false) return { trusted: true, warnings: settings.warnings, files };
  const rules = await readRules(foldersFile);
  const warnings = settings.warnings;
  if (rules === undefined) return { trusted: false, warnings, files };
  if ('message' in rules) return { trusted: false, error: { file: foldersFile, ...rules }, warnings, files };
  const decided = await longestRule(rules.entries, ctx.cwd);
  if (typeof decided === 'string') {
    return {
      trusted: false,
      error: { file: foldersFile, message: `Error in ${foldersFile}: ${decided}` },
      warnings,
      files,
    };
  }
  return { trusted: decided, warnings, files };
}

/** `security.folderTrust.enabled` of settings.json (comments allowed); a file that fails a guard is a warning. */
async function readSettings(path: string): Promise<{ folderTrust?: unknown; warnings: SkillWarning[] }> {
  const read = await readSideFile(path, MAX_GEMINI_FILE_BYTES);
  if (read.status === 'missing') return { warnings: [] };
  if (read.status === 'refused') {
    const message = `[skillsd] Gemini CLI settings ${path} are not read (${read.why}): folder trust is taken as on`;
    return { warnings: [{ skillPath: path, message }] };
  }
  const settings = parse(read.text, [], { allowTrailingComma: true }) as
    | { security?: { folderTrust?: { enabled?: unknown } } }
    | undefined;
  return { folderTrust: settings?.security?.folderTrust?.enabled, warnings: [] };
}

/** The rules of the trusted-folders file, undefined when there is none, or the warning that keeps them out. */
async function readRules(
  path: string,
): Promise<{ entries: Array<[string, unknown]> } | { message: string } | undefined> {
  const read = await readSideFile(path, MAX_GEMINI_FILE_BYTES);
  if (read.status === 'missing') return undefined;
  if (read.status === 'refused') {
    return {
      message: `[skillsd] Gemini CLI trusted folders ${path} are not read (${read.why}): workspace not trusted`,
    };
  }
  const errors: ParseError[] = [];
  const rules = parse(read.text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || rules === null || typeof rules !== 'object' || Array.isArray(rules)) {
    return { message: `Error in ${path}: not a JSON object` };
  }
  const entries = Object.entries(rules as Record<string, unknown>);
  if (entries.length > MAX_TRUST_RULES) {
    return {
      message: `[skillsd] Gemini CLI trusted folders ${path} hold ${entries.length} rules, more than the ${MAX_TRUST_RULES} skillsd examines: workspace not trusted`,
    };
  }
  return { entries };
}

/** Whether the longest rule that holds the workspace trusts it, or the error of an unknown level. */
async function longestRule(entries: Array<[string, unknown]>, cwd: string): Promise<boolean | string> {
  const place = await placeOf(cwd);
  let best: { length: number; trusted: boolean } | undefined;
  for (const [path, level] of entries) {
    if (typeof level !== 'string' || !LEVELS.has(level)) {
      return `unknown trust level ${JSON.stringify(level)} for ${path}`;
    }
    const length = await matchLength(level === 'TRUST_PARENT' ? dirname(path) : path, place);
    if (length === undefined) continue;
    if (best === undefined || length > best.length) best = { length, trusted: level !== 'DO_NOT_TRUST' };
  }
  return best?.trusted === true;
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
 * The length of a rule's real path when it holds the workspace (the workspace's real path is under it), else
 * undefined. A rule holds the workspace when its real path is one of the workspace's ancestors, so a realpath is
 * taken only for a rule that is the very same directory as one of them; every other rule is decided by its text or
 * by one stat.
 */
async function matchLength(rulePath: string, place: Place): Promise<number | undefined> {
  // Absolute, without `..`, and naming an ancestor: that ancestor is real, so it is the rule's real path as well.
  if (isAbsolute(rulePath) && !rulePath.split(sep).includes('..')) {
    const lexical = resolve(rulePath);
    if (place.ancestors.has(lexical)) return lexical.length;
  }
  const info = await stat(rulePath).catch(() => undefined);
  // A rule naming nothing is compared as written (its realpath fails).
  if (info === undefined) return isUnder(place.real, rulePath) ? rulePath.length : undefined;
  // A link or `..` can lead to an ancestor only if it ends at the same directory: same device and inode.
  place.inodes ??= inodesOf(place.ancestors);
  if (!(await place.inodes).has(`${info.dev}:${info.ino}`)) return undefined;
  const real = await realpath(rulePath).catch(() => rulePath);
  return isUnder(place.real, real) ? real.length : undefined;
}

async function inodesOf(dirs: Set<string>): Promise<Set<string>> {
  const infos = await Promise.all([...dirs].map((dir) => stat(dir).catch(() => undefined)));
  return new Set(infos.flatMap((info) => (info === undefined ? [] : [`${info.dev}:${info.ino}`])));
}
