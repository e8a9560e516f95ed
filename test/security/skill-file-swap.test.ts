// A skill's own SKILL.md may legitimately be a symlink out of its directory (discovery follows it), so containment
// of `GET /skill/<name>` and `POST /invocations` cannot simply refuse every escaping SKILL.md. What must not be served
// is a SKILL.md swapped, after discovery, for a link to a file discovery never read: with the watcher off the index
// keeps the old entry, and the answer must be 403 without the secret ever showing.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { lchown, rename, rm, symlink } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../helpers/app-server.js';
import { settledFetch } from '../helpers/settled-fetch.js';
import { type SuiteServer, startSuiteServer } from '../helpers/suite-server.js';
import { SK } from '../helpers/temp-tree.js';

const MARK = `outside-secret-${randomUUID()}`;
const SECRET = `${MARK}\n`;
const LINKED_BODY = 'Linked skill instructions\n';
const SKILLS = 'work/.musepi/skills';

const TREE = {
  'outside/secret.txt': SECRET,
  // A SKILL.md kept elsewhere (another skill's, in a library) and linked into the skill directory: discovery read it
  // through the link (contain mode admits a link out of the skill to a file named SKILL.md).
  'outside/library/linked/SKILL.md': `${SK({ name: 'linked', description: 'Linked SKILL.md' })}${LINKED_BODY}`,
  [`${SKILLS}/linked/SKILL.md`]: { symlink: '../../../../outside/library/linked/SKILL.md' },
  [`${SKILLS}/victim/SKILL.md`]: SK({ name: 'victim', description: 'Swapped for a link out' }),
  [`${SKILLS}/inner/SKILL.md`]: SK({ name: 'inner', description: 'Swapped for a link inside' }),
  [`${SKILLS}/inner/other.md`]: `${SK({ name: 'inner', description: 'Other' })}Inner replacement\n`,
};

async function invoke(base: string, text: string): Promise<{ status: number; text: string }> {
  const response = await settledFetch(`${base}/invocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  return { status: response.status, text: await response.text() };
}

async function get(url: string, method = 'GET'): Promise<{ status: number; text: string }> {
  const response = await settledFetch(url, { method });
  return { status: response.status, text: await response.text() };
}

describe('a SKILL.md swapped for a symlink after discovery (contain mode)', () => {
  let suite: SuiteServer;
  let s: TestServer;
  before(async () => {
    // The watcher is off: nothing re-indexes after a swap, as when the swap beats the reload.
    suite = await startSuiteServer({ tree: TREE, watch: false });
    s = suite.server;
  });
  after(() => suite.close());

  it('serves and invokes a SKILL.md that discovery itself read through a link out of the skill', async () => {
    const expected = `${SK({ name: 'linked', description: 'Linked SKILL.md' })}${LINKED_BODY}`;
    for (const path of ['/skill/linked', '/skill/linked/SKILL.md']) {
      const answer = await get(`${s.base}${path}`);
      assert.deepEqual(answer, { status: 200, text: expected }, path);
      assert.equal((await get(`${s.base}${path}`, 'HEAD')).status, 200, `HEAD ${path}`);
    }
    const invoked = await invoke(s.base, '/skill:linked');
    assert.equal(invoked.status, 200);
    assert.equal(JSON.parse(invoked.text).handled, true);
    assert.ok(JSON.parse(invoked.text).message.includes('# Body\nLinked skill instructions'));
  });

  it('refuses a regular SKILL.md swapped for a link to an outside secret: GET, HEAD and POST /invocations', async () => {
    const filePath = `${s.cwd}/.musepi/skills/victim/SKILL.md`;
    await rm(filePath);
    await symlink('../../../../outside/secret.txt', filePath);
    const message = `Path resolves outside the skill directory: ${filePath}`;
    for (const path of ['/skill/victim', '/skill/victim/SKILL.md']) {
      const answer = await get(`${s.base}${path}`);
      assert.equal(answer.status, 403, path);
      assert.ok(!answer.text.includes(MARK), path);
      assert.deepEqual(
        JSON.parse(answer.text),
        { statusCode: 403, code: 'PathEscapesSkill', error: 'Forbidden', message },
        path,
      );
      const head = await get(`${s.base}${path}`, 'HEAD');
      assert.equal(head.status, 403, `HEAD ${path}`);
      assert.ok(!head.text.includes(MARK), `HEAD ${path}`);
    }
    const invoked = await invoke(s.base, '/skill:victim');
    assert.equal(invoked.status, 403);
    assert.ok(!invoked.text.includes(MARK));
    assert.deepEqual(JSON.parse(invoked.text), {
      statusCode: 403,
      code: 'PathEscapesSkill',
      error: 'Forbidden',
      message,
    });
  });

  it('still serves a SKILL.md swapped for a link to another file inside the skill', async () => {
    const filePath = `${s.cwd}/.musepi/skills/inner/SKILL.md`;
    await rm(filePath);
    await symlink('other.md', filePath);
    const answer = await get(`${s.base}/skill/inner`);
    assert.deepEqual(answer, {
      status: 200,
      text: `${SK({ name: 'inner', description: 'Other' })}Inner replacement\n`,
    });
    const invoked = await invoke(s.base, '/skill:inner');
    assert.equal(invoked.status, 200);
    assert.ok(JSON.parse(invoked.text).message.includes('# Body\nInner replacement'));
  });
});

describe("another user's link swapped in after discovery (follow mode)", {
  skip: process.geteuid?.() === 0 ? false : 'chown needs root',
}, () => {
  const THEIRS = 65534;
  let suite: SuiteServer;
  let s: TestServer;
  before(async () => {
    // Follow mode follows links out of a skill; the ownership rule still holds, at the moment of each read.
    suite = await startSuiteServer({
      tree: {
        'outside/secret.txt': SECRET,
        [`${SKILLS}/theirs/SKILL.md`]: SK({ name: 'theirs', description: 'Another user’s skill' }),
        [`${SKILLS}/theirs/notes.md`]: 'Notes\n',
        'work/AGENTS.md': 'Rules\n',
      },
      watch: false,
      settings: { symlinks: 'follow' },
    });
    s = suite.server;
  });
  after(() => suite.close());

  /** Puts another user's link to the secret at `path`: made aside, given away, then renamed into place. */
  async function swapForTheirLink(path: string): Promise<void> {
    const aside = `${path}.new`;
    await symlink(`${s.root}/outside/secret.txt`, aside);
    await lchown(aside, THEIRS, THEIRS);
    await rename(aside, path);
  }

  const rule = (link: string) =>
    `the symbolic link ${link} is owned by uid ${THEIRS} and leads to uid 0: links are followed only when owned by ` +
    "the daemon's user (uid 0) or by the owner of their target";
  const notFollowed = (link: string) => ({
    statusCode: 403,
    code: 'PathEscapesSkill',
    error: 'Forbidden',
    message: `Symbolic link not followed: ${rule(link)}`,
  });

  it('GET, HEAD and POST /invocations refuse the SKILL.md; a file of the skill too; the AGENTS.md is skipped', async () => {
    const skillDir = `${s.cwd}/.musepi/skills/theirs`;
    await swapForTheirLink(`${skillDir}/SKILL.md`);
    await swapForTheirLink(`${skillDir}/notes.md`);
    await swapForTheirLink(`${s.cwd}/AGENTS.md`);
    const answers: Array<{ status: number; text: string }> = [];
    for (const [path, link] of [
      ['/skill/theirs', 'SKILL.md'],
      ['/skill/theirs/SKILL.md', 'SKILL.md'],
      ['/skill/theirs/notes.md', 'notes.md'],
    ] as const) {
      const answer = await get(`${s.base}${path}`);
      answers.push(answer);
      assert.deepEqual(
        { status: answer.status, body: JSON.parse(answer.text) },
        { status: 403, body: notFollowed(`${skillDir}/${link}`) },
        path,
      );
      const head = await get(`${s.base}${path}`, 'HEAD');
      assert.equal(head.status, 403, `HEAD ${path}`);
      answers.push(head);
    }
    const invoked = await invoke(s.base, '/skill:theirs');
    answers.push(invoked);
    assert.deepEqual(
      { status: invoked.status, body: JSON.parse(invoked.text) },
      { status: 403, body: notFollowed(`${skillDir}/SKILL.md`) },
    );
    const context = await get(`${s.base}/context-files`);
    answers.push(context);
    assert.deepEqual(JSON.parse(context.text), {
      files: [],
      diagnostics: [{ path: `${s.cwd}/AGENTS.md`, message: `AGENTS.md not read: ${rule(`${s.cwd}/AGENTS.md`)}` }],
    });
    for (const answer of answers) assert.equal(answer.text.includes(MARK), false, answer.text);
  });
});
