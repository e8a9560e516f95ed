import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type JsonBody, startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

async function invoke(base: string, body: unknown, query = ''): Promise<{ status: number; body: JsonBody }> {
  const response = await fetch(`${base}/invocations${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const TREE = { 'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) };

describe('POST /invocations', () => {
  it('expands /skill:<name> with arguments (docs/discovery.md §11 ex. 11)', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const base = `${s.cwd}/.musepi/skills/pdf`;
    const { status, body } = await invoke(s.base, { text: '/skill:pdf focus on tables' });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      handled: true,
      message: [
        '[IMPORTANT: User invoked the "pdf" skill; follow its instructions. Full skill below.]',
        '',
        '# Body',
        '',
        '---',
        '',
        `[Skill directory: ${base}]`,
        'Resolve relative paths in this skill (e.g. `scripts/foo.js`, `templates/config.yaml`) against this absolute directory; read referenced assets and templates; run scripts with the terminal tool when skill instructions call for it.',
        'User: focus on tables',
      ].join('\n'),
      details: { name: 'pdf', path: `${base}/SKILL.md`, args: 'focus on tables', lineCount: 1 },
    });
    const inline = await invoke(s.base, { text: 'fix the bug /skill:pdf focus on auth' });
    assert.equal(inline.body.details.args, 'fix the bug focus on auth');
    const bare = await invoke(s.base, { text: '/skill:pdf' });
    assert.deepEqual(bare.body.details, { name: 'pdf', path: `${base}/SKILL.md`, lineCount: 1 });
  });

  it('runs the tidy pass over the whole message, fences included for trailing white space', async (t) => {
    const body = [
      '---',
      'name: tidy',
      'description: d',
      '---',
      '',
      '```sh  ',
      'echo hi   ',
      '',
      '',
      '~~~',
      '| x |  y |',
      '|-|:-:|',
      '',
      '',
      'z',
      '',
      '</a_b>',
      '</B>',
      '',
      '</h1>',
      '',
    ].join('\r\n');
    const s = await startServer(t, { tree: { 'work/.musepi/skills/tidy/SKILL.md': body } });
    const dir = `${s.cwd}/.musepi/skills/tidy`;
    const answer = await invoke(s.base, { text: '/skill:tidy go' });
    assert.equal(answer.status, 200);
    // A CRLF file keeps its frontmatter in the body; every CR goes, inside the fence too.
    assert.equal(
      answer.body.message,
      [
        '[IMPORTANT: User invoked the "tidy" skill; follow its instructions. Full skill below.]',
        '',
        '---',
        'name: tidy',
        'description: d',
        '---',
        '',
        '```sh',
        'echo hi',
        '',
        '',
        '~~~',
        '|x|y|',
        '|---|:---:|',
        'z',
        '</a_b>',
        '</B>',
        '',
        '</h1>',
        '',
        '---',
        '',
        `[Skill directory: ${dir}]`,
        'Resolve relative paths in this skill (e.g. `scripts/foo.js`, `templates/config.yaml`) against this absolute directory; read referenced assets and templates; run scripts with the terminal tool when skill instructions call for it.',
        'User: go',
      ].join('\n'),
    );
    assert.equal(answer.body.details.lineCount, 20);
  });

  // An indented table keeps every row's indentation as written: header, separator and body rows alike.
  for (const profile of ['musepi', 'omp'] as const) {
    it(`keeps the indentation of every row of an indented table (${profile})`, async (t) => {
      const file = [
        '---',
        'name: table',
        'description: d',
        '---',
        'Pairs:',
        '',
        '  |k|v|',
        '  |---|---|',
        '  |x|y|',
        '',
      ];
      const s = await startServer(t, {
        tree: { 'work/.claude/skills/table/SKILL.md': file.join('\n') },
        settings: { profile },
      });
      const dir = `${s.cwd}/.claude/skills/table`;
      const answer = await invoke(s.base, { text: '/skill:table' });
      assert.equal(answer.status, 200);
      assert.equal(
        answer.body.message,
        [
          '[IMPORTANT: User invoked the "table" skill; follow its instructions. Full skill below.]',
          '',
          'Pairs:',
          '',
          '  |k|v|',
          '  |---|---|',
          '  |x|y|',
          '',
          '---',
          '',
          `[Skill directory: ${dir}]`,
          'Resolve relative paths in this skill (e.g. `scripts/foo.js`, `templates/config.yaml`) against this absolute directory; read referenced assets and templates; run scripts with the terminal tool when skill instructions call for it.',
        ].join('\n'),
      );
    });
  }

  for (const text of ['/compact /skill:pdf', '!echo /skill:pdf', 'https://example.com/skill:pdf', '/skill:nope']) {
    it(`does not handle ${JSON.stringify(text)}`, async (t) => {
      const s = await startServer(t, { tree: TREE });
      assert.deepEqual(await invoke(s.base, { text }), { status: 200, body: { handled: false } });
    });
  }

  it('does not handle anything when skill commands are off', async (t) => {
    const s = await startServer(t, { tree: TREE, settings: { skills: { enableSkillCommands: false } } });
    assert.deepEqual((await invoke(s.base, { text: '/skill:pdf' })).body, { handled: false });
  });

  const bad: Array<[string, unknown, string]> = [
    ['a missing text', {}, "body must have required property 'text'"],
    ['a non-string text', { text: { a: 1 } }, 'body/text must be string'],
    // A JSON body has real types: nothing is coerced as a query string would be.
    ['a number text', { text: 3 }, 'body/text must be string'],
    ['a null text', { text: null }, 'body/text must be string'],
    ['a list text', { text: ['/skill:pdf'] }, 'body/text must be string'],
    ['an unknown field', { text: '/skill:pdf', extra: 1 }, 'body must NOT have additional properties'],
  ];
  for (const [label, body, message] of bad) {
    it(`refuses ${label} with 400 BadRequest`, async (t) => {
      const s = await startServer(t, { tree: TREE });
      assert.deepEqual(await invoke(s.base, body), {
        status: 400,
        body: { statusCode: 400, code: 'BadRequest', error: 'Bad Request', message },
      });
    });
  }

  it('refuses a body that is not JSON with 400 BadRequest', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const { status, body } = await invoke(s.base, '{"text":');
    assert.equal(status, 400);
    assert.equal(body.code, 'BadRequest');
    assert.equal(body.statusCode, 400);
  });

  it('answers 404 FileNotFound when the SKILL.md went away since indexing', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const { rm } = await import('node:fs/promises');
    await rm(`${s.cwd}/.musepi/skills/pdf/SKILL.md`);
    const { status, body } = await invoke(s.base, { text: '/skill:pdf' });
    assert.equal(status, 404);
    assert.deepEqual(body, {
      statusCode: 404,
      code: 'FileNotFound',
      error: 'Not Found',
      message: `File not found: ${s.cwd}/.musepi/skills/pdf/SKILL.md`,
    });
  });
});

describe('POST /invocations over the size limit', () => {
  it('answers 413 TooLarge naming the file and the bound, not 409 NotAFile', async (t) => {
    const big = `${SK({ name: 'big', description: 'Big' })}${'a'.repeat(2 * 1024 * 1024)}\n`;
    const s = await startServer(t, { tree: { 'work/.musepi/skills/big/SKILL.md': big } });
    const { status, body } = await invoke(s.base, { text: '/skill:big' });
    assert.equal(status, 413);
    assert.deepEqual(body, {
      statusCode: 413,
      code: 'TooLarge',
      error: 'Payload Too Large',
      message: `Skill file is too large to invoke: ${s.cwd}/.musepi/skills/big/SKILL.md (over 1048576 bytes)`,
    });
  });
});
