// Gemini CLI's folder trust (docs/agents.md "Gemini CLI"): the variable, then the folder-trust setting, then
// the trusted-folders file, whose longest matching rule decides.

import { readFile, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type ParseError, parse } from 'jsonc-parser';
import { envPath, isUnder } from './agent-context.js';
import type { AgentContext } from './types.js';

export interface Trust {
  trusted: boolean;
  /** A trusted-folders file Gemini CLI refuses: the warning it gives. */
  error?: { file: string; message: string };
  /** The files the answer depends on. */
  files: string[];
}

const LEVELS = new Set(['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST']);

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
  if (forced === 'true') return { trusted: true, files };
  if (forced === 'false') return { trusted: false, files };
  const settings = await readJsonc(settingsFile);
  const folderTrust = (settings as { security?: { folderTrust?: { enabled?: unknown } } } | undefined)?.security
    ?.folderTrust?.enabled;
  if (folderTrust === false) return { trusted: true, files };
  const text = await readFile(foldersFile, 'utf8').catch(() => undefined);
  if (text === undefined) return { trusted: false, files };
  const errors: ParseError[] = [];
  const rules = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || rules === null || typeof rules !== 'object' || Array.isArray(rules)) {
    return {
      trusted: false,
      files,
      error: { file: foldersFile, message: `Error in ${foldersFile}: not a JSON object` },
    };
  }
  const cwd = await realpath(ctx.cwd).catch(() => ctx.cwd);
  let best: { length: number; trusted: boolean } | undefined;
  for (const [path, level] of Object.entries(rules as Record<string, unknown>)) {
    if (typeof level !== 'string' || !LEVELS.has(level)) {
      return {
        trusted: false,
        files,
        error: {
          file: foldersFile,
          message: `Error in ${foldersFile}: unknown trust level ${JSON.stringify(level)} for ${path}`,
        },
      };
    }
    const rulePath = level === 'TRUST_PARENT' ? dirname(path) : path;
    const real = await realpath(rulePath).catch(() => rulePath);
    if (!isUnder(cwd, real)) continue;
    if (best === undefined || real.length > best.length)
      best = { length: real.length, trusted: level !== 'DO_NOT_TRUST' };
  }
  return { trusted: best?.trusted === true, files };
}

async function readJsonc(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parse(text, [], { allowTrailingComma: true });
}
