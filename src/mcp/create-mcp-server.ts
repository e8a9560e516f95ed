// One MCP server per session, on the SDK's `Server` (docs/mcp.md §What the server declares): capabilities `resources`
// (subscribe, listChanged), `prompts` and `tools` (listChanged), the Skills Extension with `directoryRead`, and the
// skills block of `GET /prompt` as `instructions` when it fits their budget (instructions.ts), so a host that knows
// nothing of the extension still shows the model the catalog. Both transports (Streamable HTTP, stdio) build their
// servers here.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { renderSkillsPrompt } from '../discovery/skills-prompt.js';
import { ChangeNotifier } from './change-notifications.js';
import { sessionInstructions } from './instructions.js';
import type { McpSession } from './mcp-session.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerSkillsExtension, SKILLS_EXTENSION_ID } from './skills-extension.js';
import { registerTools } from './tools.js';

export const MCP_SERVER_NAME = 'skillsd';

export interface McpServerHandle {
  server: Server;
  session: McpSession;
  notifier: ChangeNotifier;
  /** Ends the session's subscriptions and watches (the transport is closed by its owner). */
  dispose(): void;
}

/**
 * Builds the server of one session; its instructions are the prompt block of the session's workspace now, or the
 * short text that points at `search_skills` when the block is over the budget.
 */
export async function createMcpServer(session: McpSession): Promise<McpServerHandle> {
  const { snapshot } = await session.view();
  const skills = session.skills(snapshot);
  const block = renderSkillsPrompt(skills, {
    tools: ['read'],
    profile: snapshot.profile,
    format: 'markdown',
    locations: session.locations,
  });
  const instructions = sessionInstructions(block, skills.length);
  const server = new Server(
    { name: MCP_SERVER_NAME, version: session.deps.version },
    {
      capabilities: {
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        tools: { listChanged: true },
        extensions: { [SKILLS_EXTENSION_ID]: { directoryRead: true } },
      },
      ...(instructions === '' ? {} : { instructions }),
    },
  );
  const notifier = new ChangeNotifier(server, session);
  registerResources(server, session, notifier);
  registerSkillsExtension(server, session);
  registerPrompts(server, session);
  registerTools(server, session);

  session.setClientRoots(() => server.getClientCapabilities()?.roots !== undefined);
  // The roots moved: the workspace may have moved with them, and both lists with it.
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    session.rootsChanged();
    notifier.listsChanged();
  });

  notifier.start();
  await session.start();
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    notifier.close();
    session.close();
  };
  return { server, session, notifier, dispose };
}
