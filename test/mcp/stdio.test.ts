import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { canWriteThroughMapping, writeThroughMapping } from '../helpers/mapped-write.js';
import { connectStdio, SkillsListResult } from '../helpers/mcp-client.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function workspace(t: { after: (fn: () => Promise<void>) => void }) {
  const { dir, cleanup } = await makeTempDir();
  t.after(cleanup);
  await writeTree(dir, {
    'home/.keep': '',
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    'work/.musepi/skills/pdf/scripts/run.sh': '#!/bin/sh\necho hi\n',
    'work/.musepi/skills/pdf/leak.txt': { symlink: '../../../../outside.txt' },
    'outside.txt': 'secret\n',
  });
  return { home: `${dir}/home`, cwd: `${dir}/work` };
}

describe('skillsd mcp (stdio)', () => {
  it('polls under --watch-mode poll: a subscribed file edited with no file event is notified', {
    skip: !canWriteThroughMapping && 'needs python3 to write through a mapping',
  }, async (t) => {
    const { home, cwd } = await workspace(t);
    const mcp = await connectStdio(['--cwd', cwd, '--watch-mode', 'poll', '--poll-interval', '50'], {
      HOME: home,
      PATH: process.env.PATH ?? '',
    });
    t.after(() => mcp.close());
    await mcp.client.subscribeResource({ uri: 'skill://pdf/scripts/run.sh' });
    writeThroughMapping(`${cwd}/.musepi/skills/pdf/scripts/run.sh`, '#!/bin/sh\necho ho\n');
    const updated = await mcp.waitFor((n) => n.method === 'notifications/resources/updated');
    assert.deepEqual(updated.params, { uri: 'skill://pdf/scripts/run.sh' });
  });

  it('speaks MCP on stdin/stdout with the same methods, logs on stderr, and notifies changes', async (t) => {
    const { home, cwd } = await workspace(t);
    const mcp = await connectStdio(['--cwd', cwd, '--log-level', 'debug'], {
      HOME: home,
      PATH: process.env.PATH ?? '',
    });
    t.after(() => mcp.close());
    const { client } = mcp;
    assert.deepEqual(client.getServerCapabilities()?.extensions, {
      'io.modelcontextprotocol/skills': { directoryRead: true },
    });
    assert.equal(
      client.getInstructions(),
      [
        '# Skills & Rules',
        'Skills are specialized knowledge. If one matches your task, you MUST read `skill://<name>` before proceeding.',
        '<skills>',
        '- pdf: PDF tools',
        '</skills>',
      ].join('\n'),
    );
    const list = await client.request({ method: 'skills/list', params: {} }, SkillsListResult);
    const dir = `${cwd}/.musepi/skills/pdf`;
    const digest = `sha256:${
      execFileSync('sha256sum', [`${dir}/scripts/run.sh`])
        .toString()
        .split(' ')[0]
    }`;
    assert.deepEqual(list.skills[0]?.resources, [
      {
        uri: 'skill://pdf/SKILL.md',
        digest: `sha256:${
          execFileSync('sha256sum', [`${dir}/SKILL.md`])
            .toString()
            .split(' ')[0]
        }`,
        size: Buffer.byteLength(SK({ name: 'pdf', description: 'PDF tools' })),
      },
      { uri: 'skill://pdf/scripts/run.sh', digest, size: 18 },
    ]);
    await assert.rejects(client.readResource({ uri: 'skill://pdf/leak.txt' }), {
      code: -32602,
      message: `MCP error -32602: Path resolves outside the skill directory: ${dir}/leak.txt`,
    });
    // Local paths over stdio: the host runs on this machine.
    const loaded = await client.callTool({ name: 'load_skill', arguments: { name: 'pdf' } });
    assert.match(JSON.stringify(loaded.content), new RegExp(`\\[Skill directory: ${dir}\\]`));

    await client.subscribeResource({ uri: 'skill://pdf/scripts/run.sh' });
    await appendFile(`${dir}/scripts/run.sh`, 'echo more\n');
    await mcp.waitFor((n) => n.method === 'notifications/resources/updated');
    await writeTree(cwd, { '.musepi/skills/zeta/SKILL.md': SK({ name: 'zeta', description: 'Added' }) });
    await mcp.waitFor((n) => n.method === 'notifications/resources/list_changed');
    assert.deepEqual(
      (await client.listPrompts()).prompts.map((prompt) => prompt.name),
      ['skill:pdf', 'skill:zeta'],
    );
    // Every stderr line is a log line; stdout held nothing but protocol messages (the client parsed them all).
    const lines = mcp.stderr().trim().split('\n');
    assert.ok(lines.length > 0);
    for (const line of lines) assert.equal(typeof JSON.parse(line).msg, 'string', line);
  });

  it('writes pretty log lines to stderr with --log-format pretty, leaving stdout to the protocol', async (t) => {
    const { home, cwd } = await workspace(t);
    const mcp = await connectStdio(['--cwd', cwd, '--log-format', 'pretty'], {
      HOME: home,
      PATH: process.env.PATH ?? '',
      NO_COLOR: '1',
    });
    t.after(() => mcp.close());
    // The client parsed every stdout line as a protocol message: a log line there would have broken this request.
    const list = await mcp.client.request({ method: 'skills/list', params: {} }, SkillsListResult);
    assert.deepEqual(
      list.skills.map((skill) => skill.uri),
      ['skill://pdf/SKILL.md'],
    );
    const first = mcp.stderr().split('\n')[0] ?? '';
    assert.match(first, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: skillsd MCP server on stdio$/);
  });

  it('refuses socket flags with exit code 2', async () => {
    const { CLI } = await import('../helpers/spawn-daemon.js');
    let failure: { status: number; stderr: Buffer } | undefined;
    try {
      execFileSync(process.execPath, [CLI, 'mcp', '--port', '1'], { stdio: 'pipe' });
    } catch (error) {
      failure = error as { status: number; stderr: Buffer };
    }
    assert.equal(failure?.status, 2);
    assert.equal(failure?.stderr.toString(), 'skillsd: option --port does not apply to "skillsd mcp" (stdio)\n');
  });
});
