import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { startServer as startAppServer, type TestServer, type TestServerOptions } from '../helpers/app-server.js';
import { connectHttp, DirectoryReadResult, SkillsGetResult, SkillsListResult } from '../helpers/mcp-client.js';
import { SK, thousandSkills } from '../helpers/temp-tree.js';

/** The real app, with load shedding out of the way: a loaded test machine must not turn these answers into 503s. */
function startServer(t: Parameters<typeof startAppServer>[0], options: TestServerOptions = {}) {
  return startAppServer(t, { ...options, app: { pressure: { maxEventLoopDelayMs: 60_000 }, ...options.app } });
}

const PDF =
  '---\nname: pdf\ndescription: PDF tools\nallowed-tools: Read Bash\nmetadata:\n  some-key: v\n---\n\nRun `scripts/run.sh`.\n';
const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': PDF,
  'work/.musepi/skills/pdf/scripts/run.sh': '#!/bin/sh\necho hi\n',
  'work/.musepi/skills/pdf/docs/guide.md': '# Guide\n',
  'work/.musepi/skills/pdf/bin.dat': Buffer.from([0, 1, 2, 255]),
  'work/.musepi/skills/pdf/leak.txt': { symlink: '../../../../outside.txt' },
  'work/.musepi/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'First' }),
  'work/.musepi/skills/beta/SKILL.md': SK({ name: 'beta', description: 'Second' }),
  'work/.musepi/skills/Odd_Name/SKILL.md': SK({ name: 'Odd_Name', description: 'Odd' }),
  'outside.txt': 'secret\n',
};

function sha256sum(path: string): string {
  return `sha256:${execFileSync('sha256sum', [path]).toString().split(' ')[0]}`;
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpError, String(error));
    return error;
  }
  assert.fail('expected an error');
}

async function open(t: { after: (fn: () => Promise<void>) => void }, s: TestServer, query = '') {
  const mcp = await connectHttp(`${s.base}/mcp${query}`);
  t.after(() => mcp.close());
  return mcp;
}

describe('MCP over Streamable HTTP: methods', () => {
  it('declares the capabilities, the Skills Extension and the prompt block as instructions', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const { client } = await open(t, s);
    assert.deepEqual(client.getServerCapabilities(), {
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      tools: { listChanged: true },
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
    });
    assert.equal(client.getServerVersion()?.name, 'skillsd');
    const block = await (await fetch(`${s.base}/prompt`)).text();
    assert.equal(client.getInstructions(), block);
    assert.match(block, /- pdf: PDF tools/);
  });

  it('skills/list pages whole entries with the frontmatter as written and sha256 digests of every file', async (t) => {
    const s = await startServer(t, { tree: TREE, app: { mcp: { pageSize: 2 } } });
    const { client } = await open(t, s);
    const first = await client.request({ method: 'skills/list', params: {} }, SkillsListResult);
    assert.deepEqual(
      first.skills.map((skill) => skill.uri),
      ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md'],
    );
    assert.ok(first.nextCursor);
    const second = await client.request(
      { method: 'skills/list', params: { cursor: first.nextCursor } },
      SkillsListResult,
    );
    assert.deepEqual(
      second.skills.map((skill) => skill.uri),
      ['skill://Odd_Name/SKILL.md', 'skill://pdf/SKILL.md'],
    );
    assert.equal(second.nextCursor, undefined);
    const dir = `${s.cwd}/.musepi/skills/pdf`;
    assert.deepEqual(second.skills[1], {
      uri: 'skill://pdf/SKILL.md',
      frontmatter: {
        name: 'pdf',
        description: 'PDF tools',
        'allowed-tools': 'Read Bash',
        metadata: { 'some-key': 'v' },
      },
      resources: [
        { uri: 'skill://pdf/SKILL.md', digest: sha256sum(`${dir}/SKILL.md`), size: Buffer.byteLength(PDF) },
        { uri: 'skill://pdf/bin.dat', digest: sha256sum(`${dir}/bin.dat`), size: 4 },
        { uri: 'skill://pdf/docs/guide.md', digest: sha256sum(`${dir}/docs/guide.md`), size: 8 },
        { uri: 'skill://pdf/scripts/run.sh', digest: sha256sum(`${dir}/scripts/run.sh`), size: 18 },
      ],
    });
    // A name outside the Agent Skills rules is still served, with a diagnostic.
    assert.deepEqual(second.skills[0]?.diagnostics, [
      'name "Odd_Name" is not an Agent Skills name (1-64 lower-case letters, digits and single hyphens): it is served, percent-encoded in its URIs',
    ]);
    const bad = await rejection(
      client.request({ method: 'skills/list', params: { cursor: 'nope' } }, SkillsListResult),
    );
    assert.equal(bad.code, ErrorCode.InvalidParams);
  });

  it('skills/get answers a served SKILL.md URI and refuses anything else with -32602', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const { client } = await open(t, s);
    const got = await client.request(
      { method: 'skills/get', params: { uri: 'skill://alpha/SKILL.md' } },
      SkillsGetResult,
    );
    assert.equal(got.skill.uri, 'skill://alpha/SKILL.md');
    for (const uri of ['skill://nope/SKILL.md', 'skill://alpha/other.md', 'skill://alpha', 'file:///etc/passwd']) {
      const error = await rejection(client.request({ method: 'skills/get', params: { uri } }, SkillsGetResult));
      assert.equal(error.code, ErrorCode.InvalidParams, uri);
    }
    const unknown = await rejection(
      client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } }, SkillsGetResult),
    );
    assert.equal(unknown.message, 'MCP error -32602: No skill is served at skill://nope/SKILL.md');
  });

  it('resources/read answers text and blobs under the guards of the file route, with its messages', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const { client } = await open(t, s);
    assert.deepEqual(await client.readResource({ uri: 'skill://pdf/SKILL.md' }), {
      contents: [{ uri: 'skill://pdf/SKILL.md', mimeType: 'text/markdown', text: PDF }],
    });
    assert.deepEqual(await client.readResource({ uri: 'skill://pdf/scripts/run.sh' }), {
      contents: [{ uri: 'skill://pdf/scripts/run.sh', mimeType: 'text/plain', text: '#!/bin/sh\necho hi\n' }],
    });
    assert.deepEqual(await client.readResource({ uri: 'skill://pdf/bin.dat' }), {
      contents: [{ uri: 'skill://pdf/bin.dat', mimeType: 'application/octet-stream', blob: 'AAEC/w==' }],
    });
    const cases: Array<[string, string]> = [
      ['skill://pdf/leak.txt', `Path resolves outside the skill directory: ${s.cwd}/.musepi/skills/pdf/leak.txt`],
      ['skill://pdf/../alpha/SKILL.md', 'Path traversal (..) is not allowed in skill:// URLs'],
      ['skill://pdf/%2e%2e/alpha/SKILL.md', 'Path traversal (..) is not allowed in skill:// URLs'],
      ['skill://pdf//etc/passwd', 'Absolute paths are not allowed in skill:// URLs'],
      ['skill://pdf/missing.md', `File not found: ${s.cwd}/.musepi/skills/pdf/missing.md`],
      ['skill://nope/SKILL.md', 'Unknown skill: nope\nNo close name (4 skills loaded)'],
      ['https://example.com/x', 'Not a skill:// URI: https://example.com/x'],
    ];
    for (const [uri, message] of cases) {
      const error = await rejection(client.readResource({ uri }));
      assert.equal(error.code, ErrorCode.InvalidParams, uri);
      assert.equal(error.message, `MCP error -32602: ${message}`, uri);
    }
    // The REST face says the same words for the same escape.
    const rest = await (await fetch(`${s.base}/skill/pdf/leak.txt`)).json();
    assert.equal((rest as { message: string }).message, cases[0]?.[1]);
  });

  it('resources/directory/read lists direct children, directories as inode/directory', async (t) => {
    const s = await startServer(t, { tree: TREE, app: { mcp: { pageSize: 3 } } });
    const { client } = await open(t, s);
    const root = await client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://pdf' } },
      DirectoryReadResult,
    );
    assert.deepEqual(root.resources, [
      { uri: 'skill://pdf/docs', name: 'docs', mimeType: 'inode/directory' },
      { uri: 'skill://pdf/scripts', name: 'scripts', mimeType: 'inode/directory' },
      { uri: 'skill://pdf/bin.dat', name: 'bin.dat', mimeType: 'text/plain', size: 4 },
    ]);
    const rest = await client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://pdf', cursor: root.nextCursor } },
      DirectoryReadResult,
    );
    // leak.txt leads out of the skill (refused when read): not listed.
    assert.deepEqual(
      rest.resources.map((resource) => resource.uri),
      ['skill://pdf/SKILL.md'],
    );
    const docs = await client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://pdf/docs' } },
      DirectoryReadResult,
    );
    assert.deepEqual(docs.resources, [
      { uri: 'skill://pdf/docs/guide.md', name: 'guide.md', mimeType: 'text/markdown', size: 8 },
    ]);
    for (const uri of ['skill://pdf/SKILL.md', 'skill://nope', 'skill://pdf/missing']) {
      const error = await rejection(
        client.request({ method: 'resources/directory/read', params: { uri } }, DirectoryReadResult),
      );
      assert.equal(error.code, ErrorCode.InvalidParams, uri);
    }
  });

  it('resources/list pages the SKILL.md of every skill; the template names skill://{name}/{+path}', async (t) => {
    const s = await startServer(t, { tree: TREE, app: { mcp: { pageSize: 3 } } });
    const { client } = await open(t, s);
    const first = await client.listResources();
    assert.deepEqual(first.resources, [
      { uri: 'skill://alpha/SKILL.md', name: 'alpha', description: 'First', mimeType: 'text/markdown' },
      { uri: 'skill://beta/SKILL.md', name: 'beta', description: 'Second', mimeType: 'text/markdown' },
      { uri: 'skill://Odd_Name/SKILL.md', name: 'Odd_Name', description: 'Odd', mimeType: 'text/markdown' },
    ]);
    const second = await client.listResources({ cursor: first.nextCursor });
    assert.deepEqual(
      second.resources.map((resource) => resource.uri),
      ['skill://pdf/SKILL.md'],
    );
    assert.equal(second.nextCursor, undefined);
    const templates = await client.listResourceTemplates();
    assert.deepEqual(
      templates.resourceTemplates.map((template) => template.uriTemplate),
      ['skill://{name}/{+path}'],
    );
  });

  it('prompts give the text of POST /invocations; tools load a skill and read its files', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const { client } = await open(t, s);
    const prompts = await client.listPrompts();
    assert.deepEqual(
      prompts.prompts.map((prompt) => prompt.name),
      ['skill:alpha', 'skill:beta', 'skill:Odd_Name', 'skill:pdf'],
    );
    const invocation = (await (
      await fetch(`${s.base}/invocations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: '/skill:pdf on tables' }),
      })
    ).json()) as { message: string };
    const prompt = await client.getPrompt({ name: 'skill:pdf', arguments: { args: 'on tables' } });
    assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: invocation.message } }]);
    const unknownPrompt = await rejection(client.getPrompt({ name: 'skill:nope' }));
    assert.equal(unknownPrompt.code, ErrorCode.InvalidParams);

    const tools = await client.listTools();
    assert.deepEqual(
      tools.tools.map((tool) => tool.name),
      ['load_skill', 'read_skill_file', 'search_skills'],
    );
    const loaded = await client.callTool({ name: 'load_skill', arguments: { name: 'pdf', args: 'on tables' } });
    assert.deepEqual(loaded.content, [
      { type: 'text', text: invocation.message },
      { type: 'text', text: 'Skill base URI: skill://pdf' },
    ]);
    const file = await client.callTool({ name: 'read_skill_file', arguments: { name: 'pdf', path: 'scripts/run.sh' } });
    assert.deepEqual(file.content, [{ type: 'text', text: '#!/bin/sh\necho hi\n' }]);
    const blob = await client.callTool({ name: 'read_skill_file', arguments: { name: 'pdf', path: 'bin.dat' } });
    assert.deepEqual(blob.content, [
      {
        type: 'resource',
        resource: { uri: 'skill://pdf/bin.dat', mimeType: 'application/octet-stream', blob: 'AAEC/w==' },
      },
    ]);
    const traversal = await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'pdf', path: '../alpha/SKILL.md' },
    });
    assert.deepEqual(traversal, {
      isError: true,
      content: [{ type: 'text', text: 'Path traversal (..) is not allowed in skill:// URLs' }],
    });
    const unknown = await client.callTool({ name: 'load_skill', arguments: { name: 'nope' } });
    assert.deepEqual(unknown, {
      isError: true,
      content: [{ type: 'text', text: 'Unknown skill: nope\nNo close name (4 skills loaded)' }],
    });
  });

  it('load_skill of an unknown name among 1,000 skills gives the closest names and the count', async (t) => {
    const s = await startServer(t, { tree: thousandSkills('work/.musepi/skills') });
    const { client } = await open(t, s);
    assert.deepEqual(await client.callTool({ name: 'load_skill', arguments: { name: 'pdff' } }), {
      isError: true,
      content: [{ type: 'text', text: 'Unknown skill: pdff\nDid you mean pdf? (1001 skills loaded)' }],
    });
    const error = await rejection(client.readResource({ uri: 'skill://nope/SKILL.md' }));
    assert.equal(error.code, ErrorCode.InvalidParams);
    assert.equal(error.message, 'MCP error -32602: Unknown skill: nope\nNo close name (1001 skills loaded)');
  });

  it('gives the tidied text of POST /invocations and the xcsh block of GET /prompt, from the same renderers', async (t) => {
    const messy = '---\nname: messy\ndescription: d\n---\n\n```\nkeep   \n\n\n```\n| a |  b |\n|-|:-:|\n\n\nend\n';
    const s = await startServer(t, { tree: { 'work/.musepi/skills/messy/SKILL.md': messy } });
    const { client } = await open(t, s);
    const invocation = (await (
      await fetch(`${s.base}/invocations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: '/skill:messy' }),
      })
    ).json()) as { message: string };
    assert.match(invocation.message, /\n```\nkeep\n\n\n```\n\|a\|b\|\n\|---\|:---:\|\nend\n/);
    const prompt = await client.getPrompt({ name: 'skill:messy' });
    assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: invocation.message } }]);
    const loaded = await client.callTool({ name: 'load_skill', arguments: { name: 'messy' } });
    assert.deepEqual((loaded.content as Array<{ text: string }>)[0], { type: 'text', text: invocation.message });

    const xcsh = await startServer(t, {
      settings: { profile: 'xcsh' },
      tree: {
        'work/.xcsh/skills/table/SKILL.md': SK({ description: "'| a |  b |'" }),
        'work/.xcsh/skills/table/sub/x.md': 'x',
      },
    });
    const other = await open(t, xcsh);
    const block = await (await fetch(`${xcsh.base}/prompt`)).text();
    assert.equal(
      block,
      [
        '# Skills',
        'Specialized knowledge packs loaded for this session. Relative paths in skill files resolve against the skill directory.',
        '',
        'You **MUST** use the following skills, to save you time, when working in their domain:',
        '## table',
        '|a|b|',
      ].join('\n'),
    );
    assert.equal(other.client.getInstructions(), block);
    const directory = await other.client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'table', path: 'sub' },
    });
    assert.deepEqual(directory, {
      isError: true,
      content: [{ type: 'text', text: `File not found: ${xcsh.cwd}/.xcsh/skills/table/sub` }],
    });
  });

  it('paths=url: an agent loads a skill, follows a relative reference through the URI it was given, and reads it', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const { client } = await open(t, s, '?paths=url');
    const loaded = await client.callTool({ name: 'load_skill', arguments: { name: 'pdf' } });
    const text = (loaded.content as Array<{ text: string }>)[0]?.text ?? '';
    const directory = /^\[Skill directory: (.*)\]$/m.exec(text)?.[1];
    assert.equal(directory, 'skill://pdf');
    // The body says "Run `scripts/run.sh`": resolved against the directory it was given, as a relative URL.
    const reference = /`([^`]+)`/.exec(text)?.[1] ?? '';
    const target = new URL(reference, directory).href;
    assert.equal(target, 'skill://pdf/scripts/run.sh');
    assert.deepEqual(await client.readResource({ uri: target }), {
      contents: [{ uri: target, mimeType: 'text/plain', text: '#!/bin/sh\necho hi\n' }],
    });
    // The prompt's invocation text names the same URI.
    const prompt = await client.getPrompt({ name: 'skill:pdf' });
    assert.match(JSON.stringify(prompt.messages), /\[Skill directory: skill:\/\/pdf\]/);
    // paths=local (the default for a loopback client) names the directory on disk.
    const local = await open(t, s, '?paths=local');
    const localText = JSON.stringify(
      (await local.client.callTool({ name: 'load_skill', arguments: { name: 'pdf' } })).content,
    );
    assert.ok(localText.includes(`[Skill directory: ${s.cwd}/.musepi/skills/pdf]`));
  });

  it('omits resources of a skill past the bounds, with a diagnostic; the archive answers 413', async (t) => {
    const many: Record<string, string> = {
      'work/.musepi/skills/many/SKILL.md': SK({ name: 'many', description: 'Big' }),
    };
    for (let i = 0; i < 512; i++) many[`work/.musepi/skills/many/files/f${i}.txt`] = String(i);
    const s = await startServer(t, { tree: many });
    const { client } = await open(t, s);
    const { skill } = await client.request(
      { method: 'skills/get', params: { uri: 'skill://many/SKILL.md' } },
      SkillsGetResult,
    );
    assert.deepEqual(skill, {
      uri: 'skill://many/SKILL.md',
      frontmatter: { name: 'many', description: 'Big' },
      diagnostics: ['resources omitted: the skill has more than 512 files (docs/mcp.md, Bounds)'],
    });
    const archive = await fetch(`${s.base}/skill/many?archive=tar.gz`);
    assert.equal(archive.status, 413);
    assert.deepEqual(await archive.json(), {
      statusCode: 413,
      code: 'TooLarge',
      error: 'Payload Too Large',
      message: 'Skill many is too large to archive: more than 512 files',
    });
  });

  it('names children without a doubled slash whichever form the directory URI takes', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const { client } = await open(t, s);
    const docs = await client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://pdf/docs/' } },
      DirectoryReadResult,
    );
    assert.deepEqual(
      docs.resources.map((resource) => resource.uri),
      ['skill://pdf/docs/guide.md'],
    );
  });
});
