// `skillsd ls`: the loaded skills (GET /skills), as a table or the API's JSON.

import { homedir } from 'node:os';
import type { SkillsFilter } from '../../client/api-types.js';
import type { SkillsdClient } from '../../client/skillsd-client.js';
import { CliError } from '../cli-error.js';
import { type Column, formatJson, formatTable, type Output } from '../output.js';
import { type ClientCommand, EXIT } from './command.js';
import { displayPath } from './display-path.js';

export const lsCommand: ClientCommand = {
  usage: 'ls [--json] [--agent ID] [--hidden=false] [--provider ID] [--level user|project] [-q TEXT]',
  summary: 'The loaded skills: name, provider, level, hidden, description (cut to the terminal).',
  options: {
    agent: { type: 'string' },
    hidden: { type: 'string' },
    provider: { type: 'string' },
    level: { type: 'string' },
    q: { type: 'string', short: 'q' },
  },
  optionHelp: [
    '--agent ID         what that agent loads (claude-code, codex, opencode, gemini-cli, copilot-cli, vscode, goose)',
    '--hidden=false     leave hidden skills out',
    '--provider ID      one provider (claude) or source (claude:project)',
    '--level L          user or project',
    '-q TEXT            name or description contains TEXT (any case)',
  ],
  positionals: { min: 0, max: 0 },
  inProcess: true,
  async run({ client, output, values }) {
    if (typeof values.agent === 'string') return listAgent(values.agent, client, output, values);
    const answer = await client.skills(filterOf(values));
    if (values.json === true) {
      output.out(formatJson(answer));
      return EXIT.ok;
    }
    if (answer.skills.length === 0) {
      // A provider no loaded skill comes from is most often a misspelt id (`claude-code`): say which ones would
      // have matched instead of an empty table (docs/cli.md "Errors").
      if (typeof values.provider === 'string') {
        const unknown = await unknownProvider(client, values.provider);
        if (unknown !== undefined) throw new CliError(unknown, EXIT.negative);
      }
      output.err('no skills\n');
      return EXIT.ok;
    }
    const rows = answer.skills.map((skill) => [
      skill.name,
      skill.source.provider,
      skill.source.level,
      skill.hide ? 'yes' : 'no',
      skill.description,
    ]);
    output.out(formatTable(output, ['NAME', 'PROVIDER', 'LEVEL', 'HIDDEN', 'DESCRIPTION'], rows));
    return EXIT.ok;
  },
};

async function listAgent(
  agent: string,
  client: SkillsdClient,
  output: Output,
  values: Record<string, unknown>,
): Promise<number> {
  const filter = filterOf(values);
  if (filter.provider !== undefined) throw new CliError('option --provider cannot be combined with --agent');
  const answer = await client.agentSkills(agent, {
    ...(filter.hidden === undefined ? {} : { hidden: filter.hidden }),
    ...(filter.level === undefined ? {} : { level: filter.level }),
    ...(filter.q === undefined ? {} : { q: filter.q }),
  });
  if (values.json === true) {
    output.out(formatJson(answer));
    return EXIT.ok;
  }
  if (answer.skills.length === 0) {
    output.err(`no skills (${answer.agent.name}: ${answer.agent.describes})\n`);
    return EXIT.ok;
  }
  const home = homedir();
  const rows = answer.skills.map((skill) => [
    skill.name,
    skill.source.scope,
    displayPath(skill.filePath, answer.cwd, home),
    skill.description,
  ]);
  const header: Column[] = [
    { header: 'NAME', fit: 'wrap' },
    { header: 'SCOPE', fit: 'fixed' },
    { header: 'PATH', fit: 'cut' },
    { header: 'DESCRIPTION', fit: 'text' },
  ];
  output.out(formatTable(output, header, rows));
  return EXIT.ok;
}

/** The line for `--provider ID` when no loaded skill has that provider or source id, else undefined. */
async function unknownProvider(client: SkillsdClient, provider: string): Promise<string | undefined> {
  const { skills } = await client.skills();
  if (skills.length === 0) return undefined;
  if (skills.some((skill) => skill.source.provider === provider || skill.source.id === provider)) return undefined;
  const sorted = (values: string[]) => [...new Set(values)].sort().join(', ');
  const providers = sorted(skills.map((skill) => skill.source.provider));
  const sources = sorted(skills.map((skill) => skill.source.id));
  return `no skill is loaded from ${JSON.stringify(provider)} (providers: ${providers}; sources: ${sources})`;
}

function filterOf(values: Record<string, unknown>): SkillsFilter {
  const filter: SkillsFilter = {};
  if (typeof values.hidden === 'string') {
    if (values.hidden !== 'true' && values.hidden !== 'false') {
      throw new CliError('option --hidden: expected true or false');
    }
    filter.hidden = values.hidden === 'true';
  }
  if (typeof values.provider === 'string') filter.provider = values.provider;
  if (typeof values.level === 'string') {
    if (values.level !== 'user' && values.level !== 'project')
      throw new CliError('option --level: expected user or project');
    filter.level = values.level;
  }
  if (typeof values.q === 'string') filter.q = values.q;
  return filter;
}
