// What one SKILL.md says about itself: why it did not load (empty, `enabled: false`, a required description missing),
// how its frontmatter was read (missing, unclosed, YAML repaired or read line by line: the scan's diagnostics), what
// the model will read (an empty description, raw text of broken YAML, a file its body names that is not there), and
// the Agent Skills specification's advice. Advice never changes what loads: the agents' semantics stay exact
// (docs/discovery.md §1 does not validate names). A hint that proposes a name passes every naming rule itself
// (spec-name.ts).

import { basename, dirname } from 'node:path';
import { readdir } from '../files/sliced-fs.js';
import { parseFrontmatter } from '../frontmatter/frontmatter.js';
import { readSkillFileHeadSliced } from '../scan/read-skill-file.js';
import type { Profile, Skill } from '../types.js';
import { fileReferences, missingReferencedFiles, type SkillFolder } from './referenced-files.js';
import { isSpecName, nameFix, SPEC_NAME_MAX, specName, specNameCharset, specNameLength } from './spec-name.js';
import type { Finding, SharedReads } from './types.js';

export interface SkillFileInput {
  filePath: string;
  /** The skill the scan made of it, or undefined when it skipped the file. */
  skill: Skill | undefined;
  /** The scan's diagnostics for this file (see `SkillDiagnostic`). */
  diagnostics: readonly string[];
  requireDescription: boolean;
  providerName: string;
  profile: Profile;
  /**
   * The skill folder on disk and its entries as the doctor's look listed them (near-misses.ts); absent for a plugin
   * root that is a skill itself, listed only when its body names a file.
   */
  folder?: SkillFolder;
  /** The file's path when it is its real path (near-misses.ts `realFiles`): its text is then the views' read. */
  realPath?: string;
}

const SPEC_DESCRIPTION_MAX = 1024;
const SPEC_COMPATIBILITY_MAX = 500;
/** The specification's fields (normalised), and those the agents themselves read. */
const SPEC_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowedTools']);
const AGENT_FIELDS = new Set(['enabled', 'hide', 'disableModelInvocation', 'globs', 'alwaysApply']);

/** `shared`: the views' texts, where the file is read already (`SkillFileInput.realPath`). */
export async function skillFileFindings(input: SkillFileInput, shared?: SharedReads): Promise<Finding[]> {
  const { filePath, skill } = input;
  const findings = input.diagnostics.map((message) => diagnosticFinding(filePath, message));
  const unreadable = findings.some((finding) => finding.severity === 'error');
  const whole = unreadable ? undefined : await fileText(filePath, input.realPath, shared);
  if (whole === undefined) return findings;
  const text = whole.startsWith('\uFEFF') ? whole.slice(1) : whole;
  if (text === '') {
    findings.push({
      rule: 'empty-skill-md',
      severity: 'error',
      path: filePath,
      message: 'SKILL.md is empty: the skill is skipped',
      hint: 'write a frontmatter with a name and a description, then the instructions',
    });
    return findings;
  }
  const state = frontmatterState(text);
  const { frontmatter } = parseFrontmatter(text, input.profile);
  const lines = keyLines(text);
  const folder = basename(dirname(filePath));
  const fallback = findings.some((finding) => finding.rule === 'yaml-line-fallback');

  if (state === 'unclosed') {
    findings.push({
      rule: 'unclosed-frontmatter',
      severity: 'error',
      path: filePath,
      line: 1,
      message: 'the frontmatter opened on line 1 is never closed by a --- line: the file is read as having none',
      hint: 'add a line --- after the last key',
    });
  }
  if (skill === undefined) {
    if (frontmatter.enabled === false) {
      findings.push({
        rule: 'enabled-false',
        severity: 'info',
        path: filePath,
        ...at(lines, 'enabled'),
        message: 'enabled: false in the frontmatter: the skill is skipped',
        hint: 'remove the line to load it',
      });
    } else if (input.requireDescription && !frontmatter.description) {
      const why =
        state === 'none'
          ? 'it has no frontmatter, so no description'
          : 'its frontmatter has no (or an empty) description';
      findings.push({
        rule: 'description-required',
        severity: 'error',
        path: filePath,
        ...at(lines, 'description'),
        message: `${why}, which ${input.providerName} requires: the skill is skipped`,
        hint: state === 'none' ? frontmatterHint(folder) : 'add description: <when to use this skill>',
      });
    }
    return findings;
  }

  if (state === 'none') {
    findings.push({
      rule: 'no-frontmatter',
      severity: 'warning',
      path: filePath,
      message: `no frontmatter: the skill is named after its folder and listed as "- ${skill.name}: " with no description`,
      hint: frontmatterHint(folder),
    });
  } else if (skill.description === '') {
    findings.push({
      rule: 'description-empty',
      severity: 'warning',
      path: filePath,
      ...at(lines, 'description'),
      message: `no description: the prompt lists "- ${skill.name}: " and the model cannot tell when to use it`,
      hint: 'add description: <what it does and when to use it>',
    });
  } else if (fallback) {
    findings.push({
      rule: 'description-raw-yaml',
      severity: 'warning',
      path: filePath,
      ...at(lines, 'description'),
      message: `the frontmatter is not valid YAML: the model reads the raw line text as the description: ${JSON.stringify(skill.description)}`,
      hint: 'quote the value, e.g. description: "Use when: …"',
    });
  }
  findings.push(...specAdvice(filePath, skill, frontmatter, folder, lines));
  findings.push(...(await referenceFindings(input, text)));
  return findings;
}

/** `missing-referenced-file`: the body's references to files of the skill that are not there. */
async function referenceFindings(input: SkillFileInput, text: string): Promise<Finding[]> {
  const references = fileReferences(text, bodyStart(text));
  if (references.length === 0) return [];
  const path = input.folder?.path ?? dirname(input.filePath);
  const entries = input.folder?.entries ?? (await readdir(path).catch(() => undefined));
  if (entries === undefined) return [];
  return missingReferencedFiles(input.filePath, references, { path, entries });
}

/** Where the body starts: after the line that closes the frontmatter (docs/discovery.md §2 rule 2), else at 0. */
function bodyStart(text: string): number {
  if (!text.startsWith('---')) return 0;
  const close = text.indexOf('\n---', 3);
  if (close === -1) return 0;
  const end = text.indexOf('\n', close + 1);
  return end === -1 ? text.length : end + 1;
}

/** The Agent Skills specification's rules, as advice. */
function specAdvice(
  filePath: string,
  skill: Skill,
  frontmatter: Record<string, unknown>,
  folder: string,
  lines: ReadonlyMap<string, number>,
): Finding[] {
  const out: Finding[] = [];
  const advice = (
    rule: string,
    key: string | undefined,
    message: string,
    hint?: string,
    severity: Finding['severity'] = 'warning',
  ) =>
    out.push({
      rule,
      severity,
      path: filePath,
      ...(key === undefined ? {} : at(lines, key)),
      message,
      ...(hint === undefined ? {} : { hint }),
    });
  const { name } = skill;
  if (typeof frontmatter.name !== 'string' || frontmatter.name.trim() === '') {
    advice(
      'spec-name-missing',
      undefined,
      `no name field: the folder's name "${folder}" is used`,
      `add ${nameFix(folder, folder)}`,
      // Info, not a warning: the folder's name is what the agents use, and many skills rely on it.
      'info',
    );
  }
  if (!specNameCharset(name)) {
    advice(
      'spec-name-charset',
      'name',
      `name ${JSON.stringify(name)} is not lower-case letters, digits and single hyphens (Agent Skills)`,
      `set ${nameFix(name, folder)}`,
    );
  }
  if (!specNameLength(name)) {
    advice(
      'spec-name-length',
      'name',
      `name is ${name.length} characters long (Agent Skills allows ${SPEC_NAME_MAX})`,
      `set ${nameFix(name, folder)}`,
    );
  }
  if (name !== folder) {
    advice(
      'spec-name-folder',
      'name',
      `name ${JSON.stringify(name)} differs from its folder ${JSON.stringify(folder)} (Agent Skills: they must be equal)`,
      !isSpecName(name)
        ? `set ${nameFix(name, folder)}`
        : isSpecName(folder)
          ? `rename the folder to ${name} or set name: ${folder}`
          : `rename the folder to ${name}`,
    );
  }
  if (skill.description.length > SPEC_DESCRIPTION_MAX) {
    advice(
      'spec-description-length',
      'description',
      `description is ${skill.description.length} characters long (Agent Skills allows ${SPEC_DESCRIPTION_MAX})`,
      'shorten it; put details in the body',
    );
  }
  const { compatibility, metadata } = frontmatter;
  if (
    compatibility !== undefined &&
    (typeof compatibility !== 'string' || compatibility.length > SPEC_COMPATIBILITY_MAX)
  ) {
    advice(
      'spec-compatibility',
      'compatibility',
      typeof compatibility === 'string'
        ? `compatibility is ${compatibility.length} characters long (Agent Skills allows ${SPEC_COMPATIBILITY_MAX})`
        : 'compatibility is not a string (Agent Skills)',
    );
  }
  if (metadata !== undefined && !isStringMap(metadata)) {
    advice(
      'spec-metadata',
      'metadata',
      'metadata is not a map of strings to strings (Agent Skills)',
      'quote every value',
    );
  }
  for (const key of Object.keys(frontmatter)) {
    if (SPEC_FIELDS.has(key) || AGENT_FIELDS.has(key)) continue;
    advice(
      'spec-unknown-field',
      key,
      `field ${JSON.stringify(key)} is not in the Agent Skills specification`,
      undefined,
      'info',
    );
  }
  return out;
}

/** The scan's diagnostic text, as a finding with a rule (see frontmatter.ts and scan/ for the texts). */
function diagnosticFinding(path: string, message: string): Finding {
  const line = /line (\d+) of the block/.exec(message);
  const where = line === null ? {} : { line: Number(line[1]) + 1 };
  const rule = (id: string, severity: Finding['severity'], hint?: string): Finding => ({
    rule: id,
    severity,
    path,
    ...where,
    message,
    ...(hint === undefined ? {} : { hint }),
  });
  if (message.includes('cannot be read')) return rule('unreadable-skill-md', 'error', 'check the file permissions');
  if (message.includes('not a regular file'))
    return rule('skill-md-not-a-file', 'error', 'make SKILL.md a regular file');
  if (message.includes('non-YAML engine')) return rule('engine-fence', 'error', 'start the file with a plain --- line');
  if (message.includes('safety limit')) return rule('frontmatter-limit', 'warning', 'keep the frontmatter small');
  if (message.includes('quoted')) {
    return rule('yaml-repaired', 'warning', 'quote values that contain ": ", e.g. description: "Use when: …"');
  }
  if (message.includes('line by line')) return rule('yaml-line-fallback', 'warning', 'fix the YAML syntax');
  if (message.includes('read limit')) return rule('file-truncated', 'warning', 'move material into other files');
  if (message.includes('UTF-8')) return rule('invalid-utf8', 'warning', 'save the file as UTF-8');
  if (message.startsWith('skill name')) return rule('unusual-name', 'warning', 'use a plain name');
  return rule('read-note', 'warning');
}

type FrontmatterState = 'none' | 'unclosed' | 'closed';

/**
 * docs/discovery.md §2 rule 2: a block only when the text starts with `---`, closed by the first `\n---` after offset 3
 * once line breaks are normalised: a `\r\n---` holds a `\n---`, and a lone `\r` before `---` is a line break too. No
 * normalised copy of the text is made.
 */
function frontmatterState(text: string): FrontmatterState {
  if (!text.startsWith('---')) return 'none';
  return text.indexOf('\n---', 3) === -1 && text.indexOf('\r---', 3) === -1 ? 'unclosed' : 'closed';
}

/** A top-level key at the start of a frontmatter line (tried sticky at the line's start, never past its end). */
const KEY = /([A-Za-z_][\w-]*)[^\S\n]*:/y;

/**
 * The 1-based line of each top-level key of the frontmatter block, by its normalised (camel-cased) name. Only the
 * block's lines are looked at, in place; a text with a `\r` has its line breaks normalised first.
 */
function keyLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  if (!text.startsWith('---')) return out;
  if (text.includes('\r')) return keyLinesOf(text.replace(/\r\n?/g, '\n'), out);
  return keyLinesOf(text, out);
}

/** `keyLines` of a text whose only line break is `\n`. */
function keyLinesOf(text: string, out: Map<string, number>): Map<string, number> {
  let line = 1;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', end + 1)) {
    const start = end + 1;
    line++;
    if (text.startsWith('---', start)) break;
    KEY.lastIndex = start;
    const match = KEY.exec(text);
    if (match === null) continue;
    const written = match[1] as string;
    const key = written.includes('-')
      ? written.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
      : written;
    if (!out.has(key)) out.set(key, line);
  }
  return out;
}

function at(lines: ReadonlyMap<string, number>, key: string): { line?: number } {
  const line = lines.get(key);
  return line === undefined ? {} : { line };
}

function isStringMap(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((item) => typeof item === 'string');
}

function frontmatterHint(folder: string): string {
  const name = specName(folder);
  const rename = name === folder ? '' : `, and rename the folder to ${name}`;
  return `start the file with: ---, name: ${name}, description: <when to use it>, ---${rename}`;
}

/**
 * The whole text of the SKILL.md, as `readSkillFileHead` gives it up to its 1 MiB cap: from the views' read when they
 * read the file at that real path (the same bytes decoded the same way), else read here. Undefined when unreadable.
 */
async function fileText(
  filePath: string,
  realPath: string | undefined,
  shared: SharedReads | undefined,
): Promise<string | undefined> {
  if (shared !== undefined && realPath !== undefined) {
    const read = await shared.text(realPath);
    if (read.ok) return read.text;
  }
  const head = await readSkillFileHeadSliced(filePath).catch(() => undefined);
  return head?.text;
}
