// What `serve`, `mcp` and the in-process answer read from the process for discovery: the workspace directory
// (checked to exist) and the environment values discovery honours. Read at the entry point, passed down as
// arguments (docs/discovery.md §0).

import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { agentEnv } from '../discovery/agents/agent-context.js';
import type { DiscoveryEnv } from '../discovery/types.js';
import { CliError } from './cli-error.js';

export async function workspaceDirectory(path: string): Promise<string> {
  const directory = resolve(path);
  const info = await stat(directory).catch(() => undefined);
  if (info === undefined) throw new CliError(`workspace directory ${directory} does not exist`);
  if (!info.isDirectory()) throw new CliError(`workspace directory ${directory} is not a directory`);
  return directory;
}

/** The environment values discovery honours (docs/discovery.md §0, §4), read here and passed down. */
export function discoveryEnv(env: Readonly<Record<string, string | undefined>>): DiscoveryEnv {
  const out: DiscoveryEnv = {};
  if (env.PI_CODING_AGENT_DIR) out.PI_CODING_AGENT_DIR = env.PI_CODING_AGENT_DIR;
  if (env.CLAUDE_CONFIG_DIR) out.CLAUDE_CONFIG_DIR = env.CLAUDE_CONFIG_DIR;
  const agents = agentEnv(env);
  if (Object.keys(agents).length > 0) out.agents = agents;
  return out;
}
