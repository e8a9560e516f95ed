// `skillsd show NAME`: one skill (GET /skills/{name}), its frontmatter and the candidates it shadowed.

import { SkillsdApiError } from '../../client/errors.js';
import { formatJson, formatJsonLine, inline, paint } from '../output.js';
import { unknownSkillError } from '../unknown-skill.js';
import { type ClientCommand, EXIT } from './command.js';

export const showCommand: ClientCommand = {
  usage: 'show NAME [--json]',
  summary: 'One loaded skill: where it comes from, its frontmatter, and the candidates of its name that lost.',
  options: {},
  positionals: { min: 1, max: 1 },
  inProcess: true,
  async run({ client, output, values, positionals }) {
    const name = positionals[0]!;
    const skill = await client.skill(name).catch(async (error: unknown) => {
      if (error instanceof SkillsdApiError && error.code === 'SkillNotFound')
        throw await unknownSkillError(client, name);
      throw error;
    });
    if (values.json === true) {
      output.out(formatJson(skill));
      return EXIT.ok;
    }
    // Every field is one line: a name or description holding a line break or escape sequences cannot draw lines of
    // its own (docs/cli.md "Output").
    const lines = [
      `${paint(output, 'bold', inline(skill.name))}`,
      `  description  ${skill.description === '' ? paint(output, 'dim', '(empty)') : inline(skill.description)}`,
      `  source       ${inline(skill.source.id)} (${inline(skill.source.providerName)})`,
      `  file         ${inline(skill.filePath)}`,
      `  hidden       ${skill.hide ? 'yes' : 'no'}`,
      '  frontmatter',
    ];
    const keys = Object.entries(skill.frontmatter);
    if (keys.length === 0) lines.push(`    ${paint(output, 'dim', '(none)')}`);
    for (const [key, value] of keys) lines.push(`    ${inline(key)}: ${inline(formatJsonLine(value).trimEnd())}`);
    if (skill.shadowed.length > 0) {
      lines.push('  shadowed');
      for (const lost of skill.shadowed) {
        lines.push(`    ${inline(lost.filePath)} (${inline(lost.source.id)}, ${inline(lost.reason)})`);
      }
    }
    output.out(`${lines.join('\n')}\n`);
    return EXIT.ok;
  },
};
