// `skillsd cat NAME [PATH]`: a file of a skill (GET /skill/{name}/{path}), its bytes as served. `--body` prints it
// without its frontmatter, stripped exactly as a `/skill:` invocation hands it to the model (docs/discovery.md): the
// text a script gets is the text the agent reads. To a terminal or a pipe, control characters are shown escaped
// (docs/cli.md "Output"); redirected to a regular file, the bytes are written exactly.

import { SkillsdApiError } from '../../client/errors.js';
import { stripFrontmatter } from '../../discovery/frontmatter/strip-frontmatter.js';
import { printable } from '../output.js';
import { unknownSkillError } from '../unknown-skill.js';
import { type ClientCommand, EXIT } from './command.js';

export const catCommand: ClientCommand = {
  usage: 'cat NAME [PATH] [--body]',
  summary: 'A file of the skill (its SKILL.md by default), as the daemon serves skill://NAME/PATH.',
  options: { body: { type: 'boolean' } },
  optionHelp: [
    '--body            without the frontmatter, as /skill: hands it to the model (trimmed, one final newline)',
  ],
  positionals: { min: 1, max: 2 },
  inProcess: true,
  async run({ client, output, values, positionals }) {
    const [name, path] = positionals as [string, string | undefined];
    const file = await client.file(name, path).catch(async (error: unknown) => {
      if (error instanceof SkillsdApiError && error.code === 'SkillNotFound')
        throw await unknownSkillError(client, name);
      throw error;
    });
    if (values.body !== true) {
      output.out(file.body);
      return EXIT.ok;
    }
    const body = stripFrontmatter(file.body.toString('utf8')).trim();
    output.out(body === '' ? '' : `${printable(body)}\n`);
    return EXIT.ok;
  },
};
