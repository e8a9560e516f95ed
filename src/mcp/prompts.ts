// Prompts (docs/mcp.md §Methods): one `skill:<name>` prompt per loaded skill while skill commands are enabled;
// `prompts/get` answers, as one user message, the text `POST /invocations` gives for `/skill:<name> <args>`.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { invokeSkill, parseSkillInvocation } from '../discovery/skill-invocation.js';
import type { Skill } from '../discovery/types.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';
import { answering, invalidParams } from './mcp-errors.js';
import type { McpSession } from './mcp-session.js';
import { paginate } from './pagination.js';

const PROMPT_PREFIX = 'skill:';

export function registerPrompts(server: Server, session: McpSession): void {
  server.setRequestHandler(ListPromptsRequestSchema, (request, extra) =>
    answering(async () => {
      const { snapshot } = await session.view(extra.sendRequest);
      const prompts = invocableSkills(session, snapshot).map((skill) => ({
        name: `${PROMPT_PREFIX}${skill.name}`,
        description: skill.description,
        arguments: [{ name: 'args', description: 'What to do with the skill (the text after /skill:<name>)' }],
      }));
      const { page, nextCursor } = paginate(prompts, request.params?.cursor, session.pageSize);
      return nextCursor === undefined ? { prompts: page } : { prompts: page, nextCursor };
    }),
  );

  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    answering(async () => {
      const { snapshot } = await session.view(extra.sendRequest);
      const promptName = request.params.name;
      const skill = promptName.startsWith(PROMPT_PREFIX)
        ? invocableSkills(session, snapshot).find(
            (candidate) => candidate.name === promptName.slice(PROMPT_PREFIX.length),
          )
        : undefined;
      if (skill === undefined) throw invalidParams(`Unknown prompt: ${promptName}`);
      const message = await invocationText(session, snapshot, skill, request.params.arguments?.args ?? '');
      return {
        description: skill.description,
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text: message } }],
      };
    }),
  );
}

/**
 * The skills a `/skill:<name>` command reaches: none while commands are off, and only names the command syntax can
 * carry (a name with a space cannot be typed as `/skill:<name>`).
 */
export function invocableSkills(session: McpSession, snapshot: WorkspaceSnapshot): Skill[] {
  if (session.deps.getSettings().skills.enableSkillCommands === false) return [];
  return session
    .skills(snapshot)
    .filter((skill) => parseSkillInvocation(`/skill:${skill.name}`, snapshot.profile)?.name === skill.name);
}

/** Exactly `POST /invocations` for `/skill:<name> <args>`, with this session's locations. */
export async function invocationText(
  session: McpSession,
  snapshot: WorkspaceSnapshot,
  skill: Skill,
  args: string,
): Promise<string> {
  const text = args.trim() === '' ? `/skill:${skill.name}` : `/skill:${skill.name} ${args}`;
  const settings = { ...session.deps.getSettings(), profile: snapshot.profile };
  const result = await invokeSkill(text, session.skills(snapshot), settings, {
    knownRealPath: (filePath) => snapshot.knownRealPath(filePath),
    locations: session.locations,
  });
  if (!result.handled) throw invalidParams(`Skill ${skill.name} cannot be invoked`);
  return result.message;
}
