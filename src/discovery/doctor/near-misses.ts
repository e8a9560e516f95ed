// What a skills directory holds that looks like a skill but is not one (docs/discovery.md §3 step 2 skips all of these
// silently): dangling or looping links, folders without SKILL.md, a SKILL.md of the wrong case, a SKILL.md one level
// too deep, a SKILL.md lying directly in the skills directory.

import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { readdir, readlink, realpath, stat } from '../files/sliced-fs.js';
import { compareCodeUnits } from '../pipeline/sort-skills.js';
import { specName } from './spec-name.js';
import type { Finding, SharedReads } from './types.js';

export interface DirectoryLook {
  exists: boolean;
  readable: boolean;
  findings: Finding[];
  /** Entries (folders or links to folders) that hold a SKILL.md: the scan judges those. */
  skillFiles: string[];
  /**
   * Per SKILL.md of `skillFiles`, the names in its folder, as listed to find it: what `missing-referenced-file`
   * checks the body's references against, with no second listing (referenced-files.ts).
   */
  folderEntries: Map<string, readonly string[]>;
  /**
   * The SKILL.md files of `skillFiles` that lie at their real path (a real skills directory, a folder and a SKILL.md
   * that are no links): their texts can be taken from the views' reads (`SharedReads`).
   */
  realFiles: Set<string>;
}

const SKILL_FILE = 'SKILL.md';
/** The entries of the most common skill folder, shared rather than kept once per skill. */
const ONLY_SKILL_FILE: readonly string[] = Object.freeze([SKILL_FILE]);

/**
 * `shared`: the views' listings and texts (a live workspace's views): a folder whose path is its real path is listed
 * through them, once for the walks and the doctor alike.
 */
export async function lookAtSkillsDirectory(dir: string, shared?: SharedReads): Promise<DirectoryLook> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return {
        exists: false,
        readable: false,
        findings: [],
        skillFiles: [],
        folderEntries: new Map(),
        realFiles: new Set(),
      };
    const finding: Finding = {
      rule: 'unreadable-directory',
      severity: 'error',
      path: dir,
      message: `the skills directory cannot be read (${code ?? String(error)}): none of its skills load`,
      hint: code === 'ENOTDIR' ? 'this path is a file: remove it or make it a directory' : 'check its permissions',
    };
    return {
      exists: true,
      readable: false,
      findings: [finding],
      skillFiles: [],
      folderEntries: new Map(),
      realFiles: new Set(),
    };
  }
  const findings: Finding[] = [];
  const skillFiles: string[] = [];
  const folderEntries = new Map<string, readonly string[]>();
  const realFiles = new Set<string>();
  // A folder that is no link in a directory that is its real path lies at its real path.
  const real = shared !== undefined && (await realpath(dir).catch(() => undefined)) === dir ? shared : undefined;
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of sorted) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isFile()) {
      if (entry.name.toLowerCase() === 'skill.md') {
        findings.push({
          rule: 'skill-md-in-skills-dir',
          severity: 'warning',
          path,
          message: `${entry.name} lies directly in the skills directory: a skill is a folder one level below it`,
          hint: `move it to ${join(dir, '<name>', SKILL_FILE)}`,
        });
      }
      continue;
    }
    if (entry.isSymbolicLink()) {
      const target = await readlink(path).catch(() => '?');
      const info = await stat(path).catch((error: NodeJS.ErrnoException) => error);
      if (info instanceof Error) {
        if (info.code === 'ELOOP') {
          findings.push({
            rule: 'link-loop',
            severity: 'error',
            path,
            message: `the link ${entry.name} -> ${target} loops back on itself: it is skipped`,
            hint: 'point the link at the real skill folder',
          });
        } else if (info.code === 'ENOENT' || info.code === 'ENOTDIR') {
          findings.push({
            rule: 'dangling-link',
            severity: 'error',
            path,
            message: `the link ${entry.name} -> ${target} points to nothing: it is skipped`,
            hint: 'fix or remove the link',
          });
        } else {
          findings.push({
            rule: 'unreadable-link',
            severity: 'error',
            path,
            message: `the link ${entry.name} -> ${target} cannot be followed (${info.code}): it is skipped`,
          });
        }
        continue;
      }
      if (!info.isDirectory()) continue;
    } else if (!entry.isDirectory()) {
      continue;
    }
    const list = real !== undefined && entry.isDirectory() ? real : undefined;
    await lookAtFolder(dir, entry.name, { findings, skillFiles, folderEntries, realFiles }, list);
  }
  return { exists: true, readable: true, findings, skillFiles, folderEntries, realFiles };
}

/** One folder of the skills directory: a SKILL.md, or the reason there is none. */
async function lookAtFolder(
  dir: string,
  name: string,
  look: Pick<DirectoryLook, 'findings' | 'skillFiles' | 'folderEntries' | 'realFiles'>,
  shared: SharedReads | undefined,
): Promise<void> {
  const { findings, skillFiles, folderEntries } = look;
  const folder = join(dir, name);
  let inner: readonly Dirent[];
  try {
    // In code-unit order either way, as the shared listings are: the first file named in the wrong case is the same.
    inner =
      shared === undefined
        ? (await readdir(folder, { withFileTypes: true })).sort((a, b) => compareCodeUnits(a.name, b.name))
        : await shared.list(folder);
  } catch (error) {
    findings.push({
      rule: 'unreadable-directory',
      severity: 'error',
      path: folder,
      message: `the folder cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): it is skipped`,
      hint: 'check its permissions',
    });
    return;
  }
  const own = inner.find((entry) => entry.name === SKILL_FILE);
  if (own !== undefined) {
    const skillFile = join(folder, SKILL_FILE);
    skillFiles.push(skillFile);
    if (shared !== undefined && own.isFile()) look.realFiles.add(skillFile);
    folderEntries.set(skillFile, inner.length === 1 ? ONLY_SKILL_FILE : inner.map((entry) => entry.name));
    return;
  }
  const wrongCase = inner.find((entry) => entry.name.toLowerCase() === 'skill.md');
  if (wrongCase !== undefined) {
    findings.push({
      rule: 'wrong-case-skill-md',
      severity: 'error',
      path: join(folder, wrongCase.name),
      message: `the file is named ${wrongCase.name}: only SKILL.md, in exactly that case, is read`,
      hint: `rename it to ${join(folder, SKILL_FILE)}`,
    });
    return;
  }
  const deeper: string[] = [];
  for (const entry of inner) {
    if (entry.name.startsWith('.') || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
    const nested = join(folder, entry.name, SKILL_FILE);
    if ((await stat(nested).catch(() => undefined))?.isFile()) deeper.push(entry.name);
  }
  for (const sub of deeper.sort()) {
    findings.push({
      rule: 'skill-md-too-deep',
      severity: 'error',
      path: join(folder, sub, SKILL_FILE),
      message: `SKILL.md is two levels below ${dir}: only ${join(dir, '<name>', SKILL_FILE)} is found (no groups)`,
      // The folder it moves to is named by the naming rules (spec-name.ts): the fix raises no other finding.
      hint: `move ${join(folder, sub)} to ${join(dir, specName(sub))}`,
    });
  }
  if (deeper.length > 0) return;
  findings.push({
    rule: 'no-skill-md',
    severity: 'warning',
    path: folder,
    message:
      inner.length === 0 ? 'the folder is empty: it is not a skill' : 'the folder has no SKILL.md: it is not a skill',
    hint: `add ${join(folder, SKILL_FILE)} with a name and a description, or remove the folder`,
  });
}
