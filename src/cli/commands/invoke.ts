// `skillsd invoke "TEXT"`: the `/skill:` message for what a user typed (POST /invocations); exit 1 when TEXT is not
// an invocation of a loaded skill (docs/discovery.md §7).

import { CliError } from '../cli-error.js';
import { formatJson, printable } from '../output.js';
import { unknownSkillError } from '../unknown-skill.js';
import { type ClientCommand, EXIT } from './command.js';

/** The skill a `/skill:NAME …` in the text names (the name ends at white space). */
const SKILL_COMMAND = /(?:^|\s)\/skill:(\S+)/;

export const invokeCommand: ClientCommand = {
  usage: 'invoke "TEXT" [--json] [--paths local|url]',
  summary: 'The message the agent would hand the model for TEXT (e.g. "/skill:pdf focus on tables").',
  options: { paths: { type: 'string' } },
  optionHelp: ['--paths url       the skill directory as a URL of the daemon'],
  positionals: { min: 1, max: 1 },
  inProcess: true,
  async run({ client, output, values, positionals }) {
    const paths = values.paths as string | undefined;
    if (paths !== undefined && paths !== 'local' && paths !== 'url')
      throw new CliError('option --paths: expected local or url');
    const text = positionals[0]!;
    const answer = await client.invoke(text, paths === undefined ? {} : { paths });
    if (values.json === true) output.out(formatJson(answer));
    // The message is a skill's body: multi-line, its control characters escaped (colour included).
    else if (answer.handled) output.out(`${printable(answer.message ?? '')}\n`);
    else {
      // A `/skill:NAME` whose NAME is not loaded is named, with the doctor's pointer for a near miss; TEXT that
      // names a loaded skill and still is no invocation (`!echo /skill:pdf`) gets the general line.
      const name = SKILL_COMMAND.exec(text)?.[1];
      const loaded = name === undefined || (await client.skills()).skills.some((skill) => skill.name === name);
      if (!loaded) throw await unknownSkillError(client, name);
      output.err('skillsd: invoke: not a /skill: invocation of a loaded skill\n');
    }
    return answer.handled ? EXIT.ok : EXIT.negative;
  },
};
