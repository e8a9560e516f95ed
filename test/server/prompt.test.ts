import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  'work/.musepi/skills/quiet/SKILL.md': SK({ description: 'Hidden', hide: true }),
  'work/.musepi/skills/amp/SKILL.md': SK({ description: 'Tom & <Jerry>' }),
};

async function text(url: string): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('GET /prompt', () => {
  it('answers the xcsh block: intro lines, no blank line between entries, the tidy pass over it', async (t) => {
    const s = await startServer(t, {
      settings: { profile: 'xcsh' },
      tree: {
        'work/.xcsh/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
        'work/.xcsh/skills/quiet/SKILL.md': SK({ description: 'Hidden', hide: true }),
        'work/.xcsh/skills/table/SKILL.md': SK({ description: "'| a |  b |'" }),
        'work/.xcsh/skills/tags/SKILL.md': SK({ description: "'<b>&amp;</b> `t`'" }),
      },
    });
    const answer = await text(`${s.base}/prompt`);
    assert.equal(answer.status, 200);
    assert.equal(
      answer.body,
      [
        '# Skills',
        'Specialized knowledge packs loaded for this session. Relative paths in skill files resolve against the skill directory.',
        '',
        'You **MUST** use the following skills, to save you time, when working in their domain:',
        '## pdf',
        'PDF tools',
        '## quiet',
        'Hidden',
        '## table',
        '|a|b|',
        '## tags',
        '<b>&amp;</b> `t`',
      ].join('\n'),
    );
    assert.equal((await text(`${s.base}/prompt?tools=bash`)).body, '');
  });

  it('answers the MusePi block for the default tools (read), hidden skills left out', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const answer = await text(`${s.base}/prompt`);
    assert.equal(answer.status, 200);
    assert.equal(answer.type, 'text/markdown; charset=utf-8');
    assert.equal(
      answer.body,
      [
        '# Skills & Rules',
        'Skills are specialized knowledge. If one matches your task, you MUST read `skill://<name>` before proceeding.',
        '<skills>',
        '- amp: Tom & <Jerry>',
        '- pdf: PDF tools',
        '</skills>',
      ].join('\n'),
    );
    assert.equal((await text(`${s.base}/prompt?tools=bash,%20read`)).body, answer.body);
  });

  it('is empty without the read tool, or when nothing is listed', async (t) => {
    const s = await startServer(t, { tree: TREE });
    assert.deepEqual(await text(`${s.base}/prompt?tools=bash,edit`), {
      status: 200,
      type: 'text/markdown; charset=utf-8',
      body: '',
    });
    assert.equal((await text(`${s.base}/prompt?tools=`)).body, '');
    const empty = await startServer(t);
    assert.equal((await text(`${empty.base}/prompt`)).body, '');
  });

  it('answers the Agent Skills XML form with format=xml', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const answer = await text(`${s.base}/prompt?format=xml`);
    assert.equal(answer.status, 200);
    // The block is pasted into a markdown prompt in both forms; the OpenAPI document says the same (openapi.test.ts).
    assert.equal(answer.type, 'text/markdown; charset=utf-8');
    assert.equal(answer.body.startsWith('<available_skills>'), true);
    assert.match(answer.body, /<name>amp<\/name>/);
    assert.match(answer.body, /<description>Tom &amp; &lt;Jerry&gt;<\/description>/);
    assert.match(answer.body, new RegExp(`<location>${s.cwd}/.musepi/skills/pdf/SKILL.md</location>`));
    assert.doesNotMatch(answer.body, /quiet/);
  });

  it('refuses an unknown format or paths with 400 BadRequest, listing the allowed values', async (t) => {
    const s = await startServer(t);
    const { status, body } = await getJson(`${s.base}/prompt?format=html`);
    assert.equal(status, 400);
    assert.deepEqual(body, {
      statusCode: 400,
      code: 'BadRequest',
      error: 'Bad Request',
      message: 'querystring/format must be equal to one of the allowed values: "markdown", "xml"',
    });
    const paths = await getJson(`${s.base}/prompt?paths=bogus`);
    assert.equal(paths.status, 400);
    assert.equal(paths.body.message, 'querystring/paths must be equal to one of the allowed values: "local", "url"');
  });
});
