// The line a client command prints for a skill name that is not loaded (docs/cli.md "Errors"): a near miss the doctor
// knows (a lower-case `skill.md`, a candidate filtered out or skipped) is pointed at the doctor; any other name gets
// the closest loaded names and the count of skills, in the words of every face (src/discovery/unknown-skill.ts).

import type { SkillsdClient } from '../client/skillsd-client.js';
import { unknownSkillNote } from '../discovery/unknown-skill.js';
import { CliError } from './cli-error.js';

export async function unknownSkillError(client: SkillsdClient, name: string): Promise<CliError> {
  const report = await client.doctorSkill(name);
  if (report.candidates.length > 0 || report.findings.length > 0) {
    return new CliError(`no skill ${JSON.stringify(name)} is loaded; skillsd doctor ${name} says why`, 1);
  }
  const names = (await client.skills()).skills.map((skill) => skill.name);
  return new CliError(`no skill ${JSON.stringify(name)} is loaded: ${unknownSkillNote(name, names)}`, 1);
}
