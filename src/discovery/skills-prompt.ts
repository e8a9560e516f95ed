// The system-prompt skills block (docs/discovery.md §8), served by `GET /prompt` (docs/api.md).
//
// One listing rule for every format: the block exists only when the tool set contains `read` (a model that cannot read
// `skill://` URLs gains nothing from the list), it lists the skills in loaded order, hidden ones left out (xcsh has no
// `hide`: every skill is listed), and it is the empty string when nothing is listed. The Agent Skills XML form follows
// the same rule so that switching `format` changes the presentation only, never which skills a model is told about.

import { formatPromptText } from './format-prompt-text.js';
import { LOCAL_LOCATIONS, type SkillLocations } from './skill-locations.js';
import { skillFileOnDisk } from './skill-paths.js';
import type { Profile, Skill } from './types.js';

export type SkillsPromptFormat = 'markdown' | 'xml';

export interface SkillsPromptOptions {
  tools: string[];
  profile: Profile;
  format: SkillsPromptFormat;
  /** How `<location>` names each SKILL.md: its local path (the reference, default) or its URL. */
  locations?: SkillLocations;
}

const XCSH_INTRO = [
  '# Skills',
  'Specialized knowledge packs loaded for this session. Relative paths in skill files resolve against the skill directory.',
  '',
  'You **MUST** use the following skills, to save you time, when working in their domain:',
];

/** A run of line breaks (CR, LF, VT, FF, NEL, U+2028, U+2029) with the spaces and tabs around it. */
const LINE_BREAK_RUN = /[ \t]*(?:[\n\r\v\f\u0085\u2028\u2029][ \t]*)+/g;
/** The `<` opening a `<skills>` or `</skills>` tag (any case, any attributes). */
const SKILLS_TAG_START = /<(?=\/?\s*skills\b)/gi;
/** Characters XML 1.0 cannot hold even escaped: C0 controls but TAB/LF/CR, U+FFFE/U+FFFF, lone surrogates. */
const NOT_XML_CHAR =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** The block, without a trailing newline; `''` when no skill is listed. */
export function renderSkillsPrompt(skills: Skill[], options: SkillsPromptOptions): string {
  if (!options.tools.includes('read')) return '';
  const listed = options.profile === 'xcsh' ? skills : skills.filter((skill) => skill.hide !== true);
  if (listed.length === 0) return '';
  if (options.format === 'xml') return renderAgentSkillsXml(listed, options.locations ?? LOCAL_LOCATIONS);
  return options.profile === 'xcsh' ? renderXcsh(listed) : renderMusePi(listed);
}

function renderMusePi(skills: readonly Skill[]): string {
  return [
    '# Skills & Rules',
    'Skills are specialized knowledge. If one matches your task, you MUST read `skill://<name>` before proceeding.',
    '<skills>',
    ...skills.map((skill) => `- ${listValue(skill.name)}: ${listValue(skill.description)}`),
    '</skills>',
  ].join('\n');
}

/**
 * `# Skills`, the intro lines, then `## <name>` and the description for every skill, with no blank line between
 * entries; the whole block then goes through the tidy pass of invocation messages (docs/discovery.md §7a), as xcsh
 * renders it: a table-shaped description loses its padding, trailing spaces go, nothing is HTML-escaped.
 */
function renderXcsh(skills: readonly Skill[]): string {
  const entries = skills.map((skill) => `## ${oneLine(skill.name)}\n${oneLine(skill.description)}`);
  return formatPromptText([...XCSH_INTRO, ...entries].join('\n'));
}

/**
 * The markdown forms are read line by line: a name or description holding a line break could close `<skills>`
 * early, add list items or fake a `##` section, steering the model that reads the prompt. Each run of line
 * breaks (with the spaces around it) becomes one space, or nothing at either end (the trailing newline of a YAML
 * block scalar). A one-line value, i.e. every ordinary skill, is printed byte for byte as the reference prints it.
 */
function oneLine(text: string): string {
  return text.replace(LINE_BREAK_RUN, (run: string, offset: number) =>
    offset === 0 || offset + run.length === text.length ? '' : ' ',
  );
}

/**
 * A value of the MusePi `<skills>` list: on one line, and without a `<skills>`/`</skills>` tag of its own (its `<`
 * written `&lt;`), so that a client cutting the block at `</skills>` stops at the real end.
 */
function listValue(text: string): string {
  return oneLine(text).replace(SKILLS_TAG_START, '&lt;');
}

/** The Agent Skills standard's `<available_skills>` block; every value is XML-escaped. */
function renderAgentSkillsXml(skills: readonly Skill[], locations: SkillLocations): string {
  const entries = skills.map((skill) =>
    [
      '  <skill>',
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(skill.description)}</description>`,
      // The standard's location is an absolute path, also for a skill of a relative custom directory.
      `    <location>${escapeXml(locations === LOCAL_LOCATIONS ? skillFileOnDisk(skill) : locations.file(skill))}</location>`,
      '  </skill>',
    ].join('\n'),
  );
  return ['<available_skills>', ...entries, '</available_skills>'].join('\n');
}

/** XML-escapes `text`; characters XML cannot hold at all (NUL, most controls) become U+FFFD, so it stays well-formed. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char).replace(NOT_XML_CHAR, '\ufffd');
}
