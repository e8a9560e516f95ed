// The ten agents in their served order (docs/agents.md "How sure the rules are"): the seven agents, then the three profiles.

import { SkillsdError } from '../errors.js';
import type { Profile } from '../types.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilotCli } from './copilot-cli.js';
import { geminiCli } from './gemini-cli.js';
import { goose } from './goose.js';
import { opencode } from './opencode.js';
import { PROFILE_INFO } from './profiles.js';
import type { AgentId, AgentInfo, AgentSpec, ViewId } from './types.js';
import { vscode } from './vscode.js';

export const AGENT_SPECS: readonly AgentSpec[] = [claudeCode, codex, opencode, geminiCli, copilotCli, vscode, goose];

export const PROFILE_IDS: readonly Profile[] = ['musepi', 'omp', 'xcsh'];

export const VIEW_IDS: readonly ViewId[] = [...AGENT_SPECS.map((spec) => spec.info.id), ...PROFILE_IDS];

export function agentSpec(id: AgentId): AgentSpec {
  return AGENT_SPECS.find((spec) => spec.info.id === id) as AgentSpec;
}

export function viewInfo(id: ViewId): AgentInfo {
  return isProfile(id) ? PROFILE_INFO[id] : agentSpec(id).info;
}

export function isProfile(id: ViewId): id is Profile {
  return (PROFILE_IDS as readonly string[]).includes(id);
}

/** The id checked: anything else is `UnknownAgent` (docs/api.md §Errors). */
export function parseViewId(value: string): ViewId {
  if ((VIEW_IDS as readonly string[]).includes(value)) return value as ViewId;
  throw new SkillsdError('UnknownAgent', `Unknown agent: ${value}. Known agents: ${VIEW_IDS.join(', ')}`);
}
