// The system-prompt skills block (SKILLS.md §8), served by `GET /prompt` (API.md).
//
// One listing rule for every format: the block exists only when the tool set contains `read` (a model that cannot read
// `skill://` URLs gains nothing from the list), it lists the skills in loaded order, hidden ones left out (xcsh has no
// `hide`: every skill is listed), and it is the empty string when nothing is listed. The Agent Skills XML form follows
// the same rule so that switching `format` changes the presentation only, never which skills a model is told about.

import type { Profile, Skill } from './types.js';

export type SkillsPromptFormat = 'markdown' | 'xml';

export interface SkillsPromptOptions {
  tools: string[];
  profile: Profile;
  format: SkillsPromptFormat;
}

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
  if (options.format === 'xml') return renderAgentSkillsXml(listed);
  return options.profile === 'xcsh' ? renderXcsh(listed) : renderMusePi(listed);
}

function renderMusePi(skills: readonly Skill[]): string {
  return [
    '# Skills & Rules',
    'Skills are specialized knowledge. If one matches your task, you MUST read `skill://<name>` before proceeding.',
    '<skills>',
    ...skills.map((skill) => `- ${skill.name}: ${skill.description}`),
    '</skills>',
  ].join('\n');
}

/** `# Skills`, then one `## <name>` section per skill holding its description. */
function renderXcsh(skills: readonly Skill[]): string {
  const sections = skills.map((skill) =>
    skill.description === '' ? `## ${skill.name}` : `## ${skill.name}\n${skill.description}`,
  );
  return ['# Skills', ...sections].join('\n\n');
}

/** The Agent Skills standard's `<available_skills>` block; every value is XML-escaped. */
function renderAgentSkillsXml(skills: readonly Skill[]): string {
  const entries = skills.map((skill) =>
    [
      '  <skill>',
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(skill.description)}</description>`,
      `    <location>${escapeXml(skill.filePath)}</location>`,
      '  </skill>',
    ].join('\n'),
  );
  return ['<available_skills>', ...entries, '</available_skills>'].join('\n');
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}
