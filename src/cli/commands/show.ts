// `skillsd show NAME`: one skill (GET /skills/{name}), its frontmatter and the candidates it shadowed.

import { SkillsdApiError } from '../../client/errors.js';
import { formatJson, paint } from '../output.js';
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
    const lines = [
      `${paint(output, 'bold', skill.name)}`,
      `  description  ${skill.description === '' ? paint(output, 'dim', '(empty)') : skill.description}`,
      `  source       ${skill.source.id} (${skill.source.providerName})`,
      `  file         ${skill.filePath}`,
      `  hidden       ${skill.hide ? 'yes' : 'no'}`,
      '  frontmatter',
    ];
    const keys = Object.entries(skill.frontmatter);
    if (keys.length === 0) lines.push(`    ${paint(output, 'dim', '(none)')}`);
    for (const [key, value] of keys) lines.push(`    ${key}: ${JSON.stringify(value)}`);
    if (skill.shadowed.length > 0) {
      lines.push('  shadowed');
      for (const lost of skill.shadowed) lines.push(`    ${lost.filePath} (${lost.source.id}, ${lost.reason})`);
    }
    output.out(`${lines.join('\n')}\n`);
    return EXIT.ok;
  },
};
