// `/skill:<name>` invocations (docs/discovery.md §7): recognising one in what the user typed, and building the message the
// agent receives in its place, from a fresh read of the skill's SKILL.md.

import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import { SkillsdError } from './errors.js';
import { formatPromptText } from './format-prompt-text.js';
import { stripFrontmatter } from './frontmatter/strip-frontmatter.js';
import { linkNotFollowed, untrustedLinkOnPath } from './link-trust.js';
import { readTextFile } from './read-text-file.js';
import { MAX_SKILL_FILE_BYTES } from './scan/read-skill-file.js';
import { LOCAL_LOCATIONS, type SkillLocations } from './skill-locations.js';
import { skillDirOnDisk, skillFileOnDisk } from './skill-paths.js';
import type { Profile, Settings, Skill } from './types.js';

export { stripFrontmatter } from './frontmatter/strip-frontmatter.js';

export interface SkillInvocationSyntax {
  name: string;
  args: string;
}

export interface InvocationDetails {
  name: string;
  /** The skill's `filePath`. */
  path: string;
  /** What the user typed around the command; absent when empty. */
  args?: string;
  /** Number of `\n`-separated lines of the body, 0 for an empty body. */
  lineCount: number;
}

export interface InvokeOptions {
  /**
   * The realpath discovery read a skill's SKILL.md through (`filePath` → realpath). Given, contain mode invokes a
   * SKILL.md only inside its skill or at that recorded place (SECURITY.md); absent, the file is read wherever it leads.
   */
  knownRealPath?: (filePath: string) => string | undefined;
  /** How the message names the skill's directory and file: local paths (the reference, default) or URLs. */
  locations?: SkillLocations;
}

export type InvocationResult = { handled: false } | { handled: true; message: string; details: InvocationDetails };

const COMMAND_PREFIX = '/skill:';
// `$` or `$$` then end, space, tab, CR or LF: a shell sigil. `$echo`, `${HOME}` and `$200` are ordinary text.
const SHELL_SIGIL = /^\$\$?(?:$|[ \t\r\n])/;
// Form 3: a `/skill:<name>` token preceded by start or whitespace and followed by whitespace or end.
const INLINE_COMMAND = /(?<=^|\s)\/skill:([^\s/]+)(?=\s|$)/;
const PATHS_HINT =
  'Resolve relative paths in this skill (e.g. `scripts/foo.js`, `templates/config.yaml`) against this absolute directory; read referenced assets and templates; run scripts with the terminal tool when skill instructions call for it.';

const NOT_HANDLED: InvocationResult = { handled: false };

/** The syntax of §7 only: whether the text names a skill (loaded or not) and with which arguments. */
export function parseSkillInvocation(text: string, profile: Profile): SkillInvocationSyntax | null {
  const typed = text.trimStart();

  if (typed.startsWith(COMMAND_PREFIX)) {
    const rest = typed.slice(COMMAND_PREFIX.length);
    // Only a plain space ends the name here (§7.1).
    const space = rest.indexOf(' ');
    const name = space === -1 ? rest : rest.slice(0, space);
    if (name === '') return null;
    return { name, args: space === -1 ? '' : rest.slice(space + 1).trim() };
  }
  if (profile === 'xcsh') return null;

  // Another slash command, or a shell line, is never rewritten into a skill invocation.
  if (typed.startsWith('/') || typed.startsWith('!') || SHELL_SIGIL.test(typed)) return null;

  const match = INLINE_COMMAND.exec(typed);
  if (match?.[1] === undefined) return null;
  const before = typed.slice(0, match.index).trimEnd();
  const after = typed.slice(match.index + match[0].length).trimStart();
  const args = [before, after]
    .filter((part) => part !== '')
    .join(' ')
    .trim();
  return { name: match[1], args };
}

/**
 * Handles `text` when it invokes a loaded skill (hidden ones included) and skill commands are enabled. The SKILL.md
 * is read again, not taken from the index: the user invokes what is on disk now. Throws `FileNotFound` when it has
 * gone, `NotAFile` when it is no longer a regular file, and `TooLarge` when it has grown past the read cap.
 */
export async function invokeSkill(
  text: string,
  skills: Skill[],
  settings: Settings,
  options: InvokeOptions = {},
): Promise<InvocationResult> {
  if (settings.skills.enableSkillCommands === false) return NOT_HANDLED;
  const syntax = parseSkillInvocation(text, settings.profile);
  if (syntax === null) return NOT_HANDLED;
  const skill = skills.find((candidate) => candidate.name === syntax.name);
  if (skill === undefined) return NOT_HANDLED;

  const knownRealPath = options.knownRealPath;
  const onDisk = skillFileOnDisk(skill);
  const real = await realpath(onDisk).catch(() => undefined);
  // In every mode: a SKILL.md swapped since discovery for another user's link is not followed (link-trust.ts).
  const untrusted = await untrustedLinkOnPath(onDisk, real);
  if (untrusted !== undefined) throw linkNotFollowed(untrusted);
  if (settings.symlinks === 'contain' && knownRealPath !== undefined && real !== undefined) {
    await checkContained(skill, real, knownRealPath(skill.filePath));
  }
  // The checked real path, never following a link put in its place since: whatever a swap could still reach is a
  // file named SKILL.md.
  const body = stripFrontmatter(await readSkillText(real ?? onDisk, skill.filePath)).trim();
  const details: InvocationDetails = { name: skill.name, path: skill.filePath, lineCount: countLines(body) };
  if (syntax.args !== '') details.args = syntax.args;
  const locations = options.locations ?? LOCAL_LOCATIONS;

  if (settings.profile === 'xcsh') {
    const user = syntax.args !== '' ? `\nUser: ${syntax.args}` : '';
    return { handled: true, message: `${body}\n\n---\n\nSkill: ${locations.file(skill)}${user}`, details };
  }
  const lines = [
    `[IMPORTANT: User invoked the "${skill.name}" skill; follow its instructions. Full skill below.]`,
    '',
    body,
    '',
    '---',
    '',
    `[Skill directory: ${locations.directory(skill)}]`,
    PATHS_HINT,
  ];
  if (syntax.args !== '') lines.push(`User: ${syntax.args}`);
  return { handled: true, message: formatPromptText(lines.join('\n')), details };
}

function countLines(body: string): number {
  return body === '' ? 0 : body.split('\n').length;
}

/**
 * The whole SKILL.md, or an error. Discovery reads at most `MAX_SKILL_FILE_BYTES` of it (the frontmatter is at the
 * head), but an invocation hands the whole body to the model: a longer file is refused rather than cut.
 */
async function readSkillText(path: string, filePath: string): Promise<string> {
  let read: Awaited<ReturnType<typeof readTextFile>>;
  try {
    read = await readTextFile(path, MAX_SKILL_FILE_BYTES, true);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new SkillsdError(
        'PathEscapesSkill',
        `File was replaced by a symbolic link after it was checked: ${filePath}`,
      );
    }
    throw error;
  }
  switch (read.status) {
    case 'ok':
      return read.text;
    case 'missing':
      throw new SkillsdError('FileNotFound', `File not found: ${filePath}`);
    case 'not-a-file':
      throw new SkillsdError('NotAFile', `Skill file is not a regular file: ${filePath}`);
    case 'too-large':
      throw new SkillsdError(
        'TooLarge',
        `Skill file is too large to invoke: ${filePath} (over ${MAX_SKILL_FILE_BYTES} bytes)`,
      );
  }
}

/**
 * Contain mode: a skill's SKILL.md, at its real path `real`, must be inside the skill's real directory, or be the file
 * discovery read through its links; a SKILL.md swapped after discovery for a link to anything else outside would
 * otherwise hand that file to the model until the next reload. What does not resolve is left to the read, which
 * reports it.
 */
async function checkContained(skill: Skill, real: string, recorded: string | undefined): Promise<void> {
  let realBase: string;
  try {
    realBase = await realpath(skillDirOnDisk(skill));
  } catch {
    return;
  }
  if (real === recorded || real.startsWith(realBase.endsWith(sep) ? realBase : realBase + sep)) return;
  throw new SkillsdError('PathEscapesSkill', `Path resolves outside the skill directory: ${skill.filePath}`);
}
