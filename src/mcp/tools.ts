// Tools (docs/mcp.md §Methods), for hosts with neither resources nor the Skills Extension:
// - `load_skill { name, args? }`: the invocation text of `POST /invocations`, plus the skill's base URI;
// - `read_skill_file { name, path }`: one file of the skill under the guards of the file route;
// - `search_skills { query, limit? }`: `GET /search` as lines of text, and its JSON as structured content.
// A refused call is a result with `isError: true` carrying the REST message, so the model reads why.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isSkillsdError, SkillsdError } from '../discovery/errors.js';
import { skillUri, uriSegment } from '../discovery/skill-locations.js';
import { unknownSkillError } from '../discovery/unknown-skill.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, MAX_SEARCH_QUERY_LENGTH } from '../live-index/search-index.js';
import { invalidParams } from './mcp-errors.js';
import type { McpSession } from './mcp-session.js';
import { invocableSkills, invocationText } from './prompts.js';
import { readSkillResource } from './resources.js';

const TOOLS = [
  {
    name: 'load_skill',
    title: 'Load a skill',
    description:
      'Loads a skill by name: its instructions (as the /skill:<name> command gives them) and the base URI of its ' +
      'files. Use it when a skill of the catalog matches the task.',
    inputSchema: {
      type: 'object' as const,
      properties: {
        name: { type: 'string', description: 'The skill name' },
        args: { type: 'string', description: 'What to do with it (optional)' },
      },
      required: ['name'],
    },
  },
  {
    name: 'read_skill_file',
    title: 'Read a file of a skill',
    description: "Reads a file inside a skill's directory, by a path relative to it (e.g. scripts/run.sh).",
    inputSchema: {
      type: 'object' as const,
      properties: {
        name: { type: 'string', description: 'The skill name' },
        path: { type: 'string', description: "A path relative to the skill's directory" },
      },
      required: ['name', 'path'],
    },
  },
  {
    name: 'search_skills',
    title: 'Search the skills',
    description:
      'Finds the skills that fit a task, best first, by their name, description and instructions (the last word also ' +
      'as a prefix, longer words with one typo). Use it to pick a skill when the catalog is large, then load_skill.',
    inputSchema: {
      type: 'object' as const,
      properties: {
        query: {
          type: 'string',
          maxLength: MAX_SEARCH_QUERY_LENGTH,
          description: 'What the skill should do, in words: "extract tables from pdf"',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_SEARCH_LIMIT,
          description: `At most this many results (default ${DEFAULT_SEARCH_LIMIT})`,
        },
      },
      required: ['query'],
    },
  },
];

export function registerTools(server: Server, session: McpSession): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    try {
      const { workspace, snapshot } = await session.view(extra.sendRequest);
      switch (request.params.name) {
        case 'load_skill': {
          const name = stringArgument(args, 'name');
          const skill = invocableSkills(session, snapshot).find((candidate) => candidate.name === name);
          if (skill === undefined) {
            // The resolution error of an unknown name (`Unknown skill: …` and the closest names), as REST words it.
            if (!session.skills(snapshot).some((candidate) => candidate.name === name)) {
              throw unknownSkillError(
                name,
                session.skills(snapshot).map((candidate) => candidate.name),
              );
            }
            if (session.deps.getSettings().skills.enableSkillCommands === false) {
              throw new SkillsdError('BadRequest', `Skill commands are disabled: ${name} cannot be loaded`);
            }
            // A name a `/skill:` message cannot carry (a space): its instructions are its SKILL.md (docs/doctor.md).
            throw new SkillsdError(
              'BadRequest',
              `${name} cannot be loaded as /skill:${name}: a /skill: message cannot carry its name; ` +
                `read its SKILL.md with read_skill_file { name: "${name}", path: "SKILL.md" }`,
            );
          }
          const text = await invocationText(session, snapshot, skill, optionalString(args, 'args'));
          return {
            content: [
              { type: 'text' as const, text },
              { type: 'text' as const, text: `Skill base URI: ${skillUri(skill.name)}` },
            ],
          };
        }
        case 'read_skill_file': {
          const name = stringArgument(args, 'name');
          const path = stringArgument(args, 'path');
          // The path is text, not a URI: each segment is encoded so that it is decoded back to itself once, and the
          // traversal and absolute-path guards see exactly what was asked for.
          const uri = `${skillUri(name)}/${path.split('/').map(uriSegment).join('/')}`;
          const contents = await readSkillResource(session, snapshot, uri);
          if ('text' in contents) return { content: [{ type: 'text' as const, text: contents.text }] };
          return { content: [{ type: 'resource' as const, resource: contents }] };
        }
        case 'search_skills': {
          const query = stringArgument(args, 'query');
          if (query.trim() === '') throw new SkillsdError('BadRequest', 'arguments.query: the search text is blank');
          // As `GET /search` bounds `q`: the text is tokenised whole before its words are counted.
          if (query.length > MAX_SEARCH_QUERY_LENGTH) {
            throw new SkillsdError(
              'BadRequest',
              `arguments.query: the search text is longer than ${MAX_SEARCH_QUERY_LENGTH} characters`,
            );
          }
          const { answer } = await workspace.searchAnswer(query, limitArgument(args), extra.signal);
          const lines = answer.results.map(
            (result) => `${result.name}\t${result.score}\t${result.description}\t${skillUri(result.name)}`,
          );
          return {
            content: [{ type: 'text' as const, text: lines.length > 0 ? lines.join('\n') : 'No skill matches.' }],
            structuredContent: answer as unknown as Record<string, unknown>,
          };
        }
        default:
          throw invalidParams(`Unknown tool: ${request.params.name}`);
      }
    } catch (error) {
      if (isSkillsdError(error)) return { isError: true, content: [{ type: 'text' as const, text: error.message }] };
      throw error;
    }
  });
}

function stringArgument(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string') throw new SkillsdError('BadRequest', `arguments.${key} must be a string`);
  return value;
}

function limitArgument(args: Record<string, unknown>): number {
  const value = args.limit;
  if (value === undefined) return DEFAULT_SEARCH_LIMIT;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_SEARCH_LIMIT) {
    throw new SkillsdError('BadRequest', `arguments.limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
  }
  return value;
}

function optionalString(args: Record<string, unknown>, key: string): string {
  return args[key] === undefined ? '' : stringArgument(args, key);
}
