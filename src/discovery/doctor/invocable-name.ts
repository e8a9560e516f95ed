// `name-not-invocable` (docs/doctor.md "Rules"): a loaded skill whose name the `/skill:<name>` syntax cannot carry
// (docs/discovery.md §7.1: a plain space ends the name). No command reaches it, and the MCP face lists prompts and
// answers `load_skill` only for names that syntax carries (docs/mcp.md "Methods"). What does reach it is said too.

import { basename, dirname } from 'node:path';
import { parseSkillInvocation } from '../skill-invocation.js';
import type { Profile, Skill } from '../types.js';
import { nameFix } from './spec-name.js';
import type { Finding } from './types.js';

/** The name can be typed as `/skill:<name>`: the syntax gives it back whole (the rule of src/mcp/prompts.ts). */
export function isInvocableName(name: string, profile: Profile): boolean {
  return parseSkillInvocation(`/skill:${name}`, profile)?.name === name;
}

/** The finding for a loaded skill no `/skill:` command can name, or undefined when one can. */
export function notInvocableFinding(skill: Skill, profile: Profile): Finding | undefined {
  const { name } = skill;
  if (isInvocableName(name, profile)) return undefined;
  const quoted = JSON.stringify(name);
  return {
    rule: 'name-not-invocable',
    severity: 'warning',
    path: skill.filePath,
    message:
      `${quoted} cannot be invoked as /skill:${name} (the name ends at the first space) and has no MCP prompt ` +
      `(nor MCP load_skill); the model still finds it in the prompt's list, and ` +
      `GET /skills/${encodeURIComponent(name)}, ` +
      `skillsd show ${quoted} and MCP read_skill_file reach it`,
    hint: `set ${nameFix(name, basename(dirname(skill.filePath)))}`,
  };
}
