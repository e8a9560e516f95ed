// `diagnostics` of one agent's view (docs/agents.md "Diagnostics"): the doctor's findings about the SKILL.md files
// that agent reads, with its own path to them, then one `agent-rejected` finding per file it rejects.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentSkills } from '../../src/discovery/agents/answers.js';
import { agentWorlds } from '../helpers/agent-trees.js';

const world = agentWorlds();

test('each view lists the doctor’s findings for the files it reads, then its rejections', async () => {
  const w = await world(({ P }) => ({
    // Read by Claude Code, OpenCode, Copilot CLI, VS Code, Goose and the daemon: no name, an unknown field.
    [`${P}/.claude/skills/tidy/SKILL.md`]: '---\ndescription: Tidy up\ncolour: blue\n---\n\n# Body\n',
    // Read by Codex (and others), rejected by Codex for want of a frontmatter; the daemon reads it too.
    [`${P}/.agents/skills/bare/SKILL.md`]: '# Bare\n\nNo frontmatter here.\n',
  }));
  const tidy = `${w.P}/.claude/skills/tidy/SKILL.md`;
  const bare = `${w.P}/.agents/skills/bare/SKILL.md`;
  const claude = agentSkills(w.views, 'claude-code').diagnostics;
  assert.deepEqual(claude, [
    {
      rule: 'spec-name-missing',
      severity: 'info',
      path: tidy,
      message: 'no name field: the folder\'s name "tidy" is used',
      hint: 'add name: tidy',
    },
    {
      rule: 'spec-unknown-field',
      severity: 'info',
      path: tidy,
      line: 3,
      message: 'field "colour" is not in the Agent Skills specification',
    },
  ]);
  // Codex never reads .claude/skills: none of that file's findings; its own rejection comes last.
  assert.deepEqual(agentSkills(w.views, 'codex').diagnostics, [
    {
      rule: 'no-frontmatter',
      severity: 'warning',
      path: bare,
      message: 'no frontmatter: the skill is named after its folder and listed as "- bare: " with no description',
      hint: 'start the file with: ---, name: bare, description: <when to use it>, ---',
    },
    {
      rule: 'spec-name-missing',
      severity: 'info',
      path: bare,
      message: 'no name field: the folder\'s name "bare" is used',
      hint: 'add name: bare',
    },
    { rule: 'agent-rejected', severity: 'warning', path: bare, message: 'missing YAML frontmatter delimited by ---' },
  ]);
  // Gemini CLI reads neither file here (no trusted folder): no findings at all.
  assert.deepEqual(agentSkills(w.views, 'gemini-cli').diagnostics, []);
});
