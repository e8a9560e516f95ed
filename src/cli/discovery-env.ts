// The environment values discovery honours (docs/discovery.md §0, §4), read at an entry point and passed down: the
// daemon and the in-process answers read them alike.

import { agentEnv } from '../discovery/agents/agent-context.js';
import type { DiscoveryEnv } from '../discovery/types.js';

export function discoveryEnv(env: Readonly<Record<string, string | undefined>>): DiscoveryEnv {
  const out: DiscoveryEnv = {};
  if (env.PI_CODING_AGENT_DIR) out.PI_CODING_AGENT_DIR = env.PI_CODING_AGENT_DIR;
  if (env.CLAUDE_CONFIG_DIR) out.CLAUDE_CONFIG_DIR = env.CLAUDE_CONFIG_DIR;
  const agents = agentEnv(env);
  if (Object.keys(agents).length > 0) out.agents = agents;
  return out;
}
