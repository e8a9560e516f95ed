// `name-not-invocable` over a real socket: a loaded skill whose name holds a space is said to have no `/skill:`
// command and no MCP prompt, and each way the finding says does reach it is tried on the same daemon.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { connectHttp } from '../helpers/mcp-client.js';
import { SK } from '../helpers/temp-tree.js';

const TREE = {
  'home/.claude/skills/Release Notes/SKILL.md': '---\ndescription: Writes release notes\n---\n\n# Notes\n',
  'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
};

describe('doctor: a name /skill: cannot carry', () => {
  it('says what does not work and what does, and each claim holds', async (t) => {
    const server = await startServer(t, { tree: TREE });
    const path = `${server.home}/.claude/skills/Release Notes/SKILL.md`;
    const { body } = await getJson(`${server.base}/doctor?severity=warning`);
    assert.deepEqual(
      body.findings.filter((finding: { rule: string }) => finding.rule === 'name-not-invocable'),
      [
        {
          rule: 'name-not-invocable',
          severity: 'warning',
          path,
          message:
            '"Release Notes" cannot be invoked as /skill:Release Notes (the name ends at the first space) and has no ' +
            "MCP prompt (nor MCP load_skill); the model still finds it in the prompt's list, and " +
            'GET /skills/Release%20Notes, skillsd show "Release Notes" and MCP read_skill_file reach it',
          hint: 'set name: release-notes and rename the folder to release-notes',
        },
      ],
    );
    // pdf's name is fine: no such finding.
    const pdf = await getJson(`${server.base}/doctor/pdf`);
    assert.deepEqual(pdf.body.candidates[0].findings, []);

    // What does not work.
    const invoked = await fetch(`${server.base}/invocations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: '/skill:Release Notes' }),
    });
    assert.deepEqual(await invoked.json(), { handled: false });
    const mcp = await connectHttp(`${server.base}/mcp`);
    t.after(() => mcp.close());
    const prompts = await mcp.client.listPrompts();
    assert.deepEqual(
      prompts.prompts.map((prompt) => prompt.name),
      ['skill:pdf'],
    );
    const load = await mcp.client.callTool({ name: 'load_skill', arguments: { name: 'Release Notes' } });
    assert.equal(load.isError, true);
    // The error says why and what to do instead, not that skill commands are off (they are on).
    assert.deepEqual(load.content, [
      {
        type: 'text',
        text:
          'Release Notes cannot be loaded as /skill:Release Notes: a /skill: message cannot carry its name; read its ' +
          'SKILL.md with read_skill_file { name: "Release Notes", path: "SKILL.md" }',
      },
    ]);

    // What does.
    assert.match(await (await fetch(`${server.base}/prompt`)).text(), /^- Release Notes: Writes release notes$/m);
    const detail = await getJson(`${server.base}/skills/Release%20Notes`);
    assert.equal(detail.status, 200);
    assert.equal(detail.body.filePath, path);
    const read = await mcp.client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'Release Notes', path: 'SKILL.md' },
    });
    assert.deepEqual(read.content, [
      { type: 'text', text: '---\ndescription: Writes release notes\n---\n\n# Notes\n' },
    ]);
  });

  it('is not said while skill commands are off: then no name has a command', async (t) => {
    const server = await startServer(t, { tree: TREE, settings: { skills: { enableSkillCommands: false } } });
    const { body } = await getJson(`${server.base}/doctor`);
    assert.deepEqual(
      body.summary.map((entry: { rule: string }) => entry.rule),
      ['spec-name-charset', 'spec-name-missing'],
    );
  });
});
