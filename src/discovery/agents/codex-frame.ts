// Codex CLI's catalog frame: the four texts of its skills section, verbatim from codex-rs/core-skills/src/render.rs
// (the `## Skills` section of the developer message), and how the section is assembled.

export const SKILLS_INTRO_WITH_ABSOLUTE_PATHS =
  'A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and file path so you can open the source for full instructions when using a specific skill.';

export const SKILLS_INTRO_WITH_ALIASES =
  'A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.';

const HOW_TO_USE_COMMON_TAIL = `  3) If \`SKILL.md\` points to extra folders such as \`references/\`, load only the specific files needed for the request; don't bulk-load everything.
  4) If \`scripts/\` exist, prefer running or patching them instead of retyping large code blocks.
  5) If \`assets/\` or templates exist, reuse them instead of recreating from scratch.
- Coordination and sequencing:
  - If multiple skills apply, choose the minimal set that covers the request and state the order you'll use them.
  - Announce which skill(s) you're using and why (one short line). If you skip an obvious skill, say why.
- Context hygiene:
  - Keep context small: summarize long sections instead of pasting them; only load extra files when needed.
  - Avoid deep reference-chasing: prefer opening only files directly linked from \`SKILL.md\` unless you're blocked.
  - When variants exist (frameworks, providers, domains), pick only the relevant reference file(s) and note that choice.
- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear instructions), state the issue, pick the next-best approach, and continue.`;

export const SKILLS_HOW_TO_USE_WITH_ABSOLUTE_PATHS = `- Discovery: The list above is the skills available in this session (name + description + file path). Skill bodies live on disk at the listed paths.
- Trigger rules: If the user names a skill (with \`$SkillName\` or plain text) OR the task clearly matches a skill's description shown above, you must use that skill for that turn. Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.
- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so briefly and continue with the best fallback.
- How to use a skill (progressive disclosure):
  1) After deciding to use a skill, open its \`SKILL.md\`. Read only enough to follow the workflow.
  2) When \`SKILL.md\` references relative paths (e.g., \`scripts/foo.py\`), resolve them relative to the skill directory listed above first, and only consider other paths if needed.
${HOW_TO_USE_COMMON_TAIL}`;

export const SKILLS_HOW_TO_USE_WITH_ALIASES = `- Discovery: The list above is the skills available in this session (name + description + short path). Skill bodies live on disk at the listed paths after expanding the matching alias from \`### Skill roots\`.
- Trigger rules: If the user names a skill (with \`$SkillName\` or plain text) OR the task clearly matches a skill's description shown above, you must use that skill for that turn. Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.
- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so briefly and continue with the best fallback.
- How to use a skill (progressive disclosure):
  1) After deciding to use a skill, expand the listed short \`path\` with the matching alias from \`### Skill roots\`, then open its \`SKILL.md\`. Read only enough to follow the workflow.
  2) When \`SKILL.md\` references relative paths (e.g., \`scripts/foo.py\`), resolve them relative to the directory containing that expanded \`SKILL.md\` first, and only consider other paths if needed.
${HOW_TO_USE_COMMON_TAIL}`;

/**
 * The `include_skills_usage_instructions` models' "How to use skills" with root aliases (gpt-5.5 in Codex 0.169.0's
 * model catalog, observed by the conformance harness).
 */
export const SKILLS_HOW_TO_USE_READ_COMPLETELY_WITH_ALIASES = `- Discovery: The list above is the skills available in this session (name + description + short path). Skill bodies live on disk at the listed paths after expanding the matching alias from \`### Skill roots\`.
- Trigger rules: If the user names a skill (with \`$SkillName\` or plain text) OR the task clearly matches a skill's description shown above, you must use that skill for that turn. Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.
- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so briefly and continue with the best fallback.
- How to use a skill (progressive disclosure):
  1) After deciding to use a skill, the main agent must expand the listed short \`path\` with the matching alias from \`### Skill roots\`, then open and read its \`SKILL.md\` completely before taking task actions. If a read is truncated or paginated, continue until EOF.
  2) When \`SKILL.md\` references relative paths (e.g., \`scripts/foo.py\`), resolve them relative to the directory containing that expanded \`SKILL.md\` first, and only consider other paths if needed.
  3) If \`SKILL.md\` points to extra folders such as \`references/\`, use its routing instructions to identify the files required for the task. The main agent must read each required instruction or reference file itself before acting on it. Do not delegate reading, summarizing, or interpreting skill instructions to a subagent. Subagents may still perform task work when the selected skill allows it.
  4) If \`scripts/\` exist, prefer running or patching them instead of retyping large code blocks.
  5) If \`assets/\` or templates exist, reuse them instead of recreating from scratch.
- Coordination and sequencing:
  - If multiple skills apply, choose the minimal set that covers the request and state the order you'll use them.
  - Announce which skill(s) you're using and why (one short line). If you skip an obvious skill, say why.
- Context hygiene:
  - Progressive disclosure applies to selecting relevant files, not partially reading a selected instruction file. Do not load unrelated references, scripts, or assets.
  - Avoid deep reference-chasing: prefer opening only files directly linked from \`SKILL.md\` unless you're blocked.
  - When variants exist (frameworks, providers, domains), pick only the relevant reference file(s) and note that choice.
- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear instructions), state the issue, pick the next-best approach, and continue.`;

/** The intro when no entry fits the budget: the list of available skills stays, empty. */
export const SKILLS_INTRO_NOTHING_FITS =
  "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list of skills that can be used. Each entry includes a name, description, and source locator. `file` locators are on the host filesystem, `executor package` locators are owned by their execution environment, `cloud package` locators are opaque package identifiers, and `custom resource` locators use their provider's access mechanism.";

/**
 * The developer-message part: `<skills_instructions>`, the section's lines, `</skills_instructions>` (docs/agents.md
 * "Codex's budget"). `howTo`: the model's `include_skills_usage_instructions` (off for the default model).
 */
export function codexSection(
  rootLines: readonly string[],
  skillLines: readonly string[],
  options: { howTo: boolean; nothingFits: boolean },
): string {
  const lines = ['## Skills'];
  if (options.nothingFits) lines.push(SKILLS_INTRO_NOTHING_FITS);
  else if (rootLines.length === 0) lines.push(SKILLS_INTRO_WITH_ABSOLUTE_PATHS);
  else lines.push(SKILLS_INTRO_WITH_ALIASES, '### Skill roots', ...rootLines);
  lines.push('### Available skills', ...skillLines);
  if (options.howTo) {
    lines.push('### How to use skills');
    lines.push(
      rootLines.length === 0 ? SKILLS_HOW_TO_USE_WITH_ABSOLUTE_PATHS : SKILLS_HOW_TO_USE_READ_COMPLETELY_WITH_ALIASES,
    );
  }
  return `<skills_instructions>\n${lines.join('\n')}\n</skills_instructions>`;
}
