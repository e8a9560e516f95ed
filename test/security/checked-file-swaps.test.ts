// `GET /skill/{name}/{path}` remembers the files it resolved and checked (checked-file-memo.ts), so that asking again
// skips the resolution. Each test here asks for a file first (the answer is remembered), then changes the tree the
// way an attacker or a git-sync would, with the watcher off so the index cannot notice, and asks again over a raw
// socket: the answer must be exactly what the full resolution gives for the tree as it now is, and a secret outside
// the skill must never show.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { assertApiError } from '../helpers/api-error.js';
import type { TestServer } from '../helpers/app-server.js';
import { type RawResponse, rawRequest } from '../helpers/raw-http.js';
import { type SuiteServer, startSuiteServer } from '../helpers/suite-server.js';
import { SK } from '../helpers/temp-tree.js';

const MARK = `outside-secret-${randomUUID()}`;
const SECRET = `${MARK}\n`;
const SKILLS = 'work/.musepi/skills';

const TREE = {
  'outside/secret.txt': SECRET,
  'outside/dir/guide.md': SECRET,
  'outside/rev2/synced/guide.md': 'revision 2\n',
  'outside/rev2/synced/SKILL.md': SK({ name: 'synced', description: 'A git-sync skill' }),
  'outside/rev1/synced/guide.md': 'revision 1\n',
  'outside/rev1/synced/SKILL.md': SK({ name: 'synced', description: 'A git-sync skill' }),
  'outside/new-repointed/guide.md': 'the new directory\n',
  [`${SKILLS}/s/SKILL.md`]: SK({ name: 's', description: 'Swap target' }),
  [`${SKILLS}/s/file-to-link.md`]: 'inside: file to link\n',
  [`${SKILLS}/s/moved-out/guide.md`]: 'inside: moved out\n',
  [`${SKILLS}/s/dir-to-link/guide.md`]: 'inside: dir to link\n',
  [`${SKILLS}/s/replaced.md`]: 'inside: before\n',
  [`${SKILLS}/s/rewritten.md`]: 'inside: before\n',
  [`${SKILLS}/s/removed.md`]: 'inside: removed\n',
  [`${SKILLS}/s/fifo.md`]: 'inside: becomes a FIFO\n',
  [`${SKILLS}/repointed/SKILL.md`]: SK({ name: 'repointed', description: 'Its directory becomes a link' }),
  [`${SKILLS}/repointed/guide.md`]: 'the old directory\n',
  [`${SKILLS}/synced`]: { symlink: '../../../outside/rev1/synced' },
};

describe('a remembered skill file changed after it was served (contain mode, watcher off)', () => {
  let suite: SuiteServer;
  let s: TestServer;
  let skills: string;
  before(async () => {
    suite = await startSuiteServer({ tree: TREE, watch: false });
    s = suite.server;
    skills = `${s.cwd}/.musepi/skills`;
  });
  after(() => suite.close());

  const get = (target: string): Promise<RawResponse> =>
    rawRequest(s.port, [`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${s.port}`]);

  /** Two answers of the unchanged file: the first fills the memo, the second is served from it. */
  async function served(target: string, body: string): Promise<RawResponse> {
    let answer: RawResponse | undefined;
    for (const round of ['first', 'remembered']) {
      answer = await get(target);
      assert.equal(answer.status, 200, `${round} ${target}: ${answer.body}`);
      assert.equal(answer.body, body, `${round} ${target}`);
    }
    return answer as RawResponse;
  }

  function assertNoSecret(answer: RawResponse, label: string): void {
    assert.ok(!answer.body.includes(MARK), label);
    assert.ok(!JSON.stringify(answer.headers).includes(MARK), label);
  }

  it('refuses a file swapped for a link to a secret outside: 403 PathEscapesSkill', async () => {
    await served('/skill/s/file-to-link.md', 'inside: file to link\n');
    const path = `${skills}/s/file-to-link.md`;
    await rm(path);
    await symlink('../../../../outside/secret.txt', path);
    const answer = await get('/skill/s/file-to-link.md');
    assertNoSecret(answer, 'file → link');
    assertApiError(answer, 403, 'PathEscapesSkill', `Path resolves outside the skill directory: ${path}`);
  });

  it('refuses a parent directory swapped for a link to a directory outside: 403 PathEscapesSkill', async () => {
    await served('/skill/s/dir-to-link/guide.md', 'inside: dir to link\n');
    const dir = `${skills}/s/dir-to-link`;
    await rm(dir, { recursive: true });
    await symlink('../../../../outside/dir', dir);
    const answer = await get('/skill/s/dir-to-link/guide.md');
    assertNoSecret(answer, 'dir → link');
    assertApiError(answer, 403, 'PathEscapesSkill', `Path resolves outside the skill directory: ${dir}/guide.md`);
  });

  it('refuses the very file it served once its directory is moved out of the skill and linked back', async () => {
    // The same inode as the remembered one: only its place says it is now outside the skill.
    await served('/skill/s/moved-out/guide.md', 'inside: moved out\n');
    const dir = `${skills}/s/moved-out`;
    await rename(dir, `${s.root}/outside/moved-out`);
    await symlink('../../../../outside/moved-out', dir);
    const answer = await get('/skill/s/moved-out/guide.md');
    assertApiError(answer, 403, 'PathEscapesSkill', `Path resolves outside the skill directory: ${dir}/guide.md`);
  });

  it('serves the new file when another file is renamed over the remembered one, with a new ETag', async () => {
    const before = await served('/skill/s/replaced.md', 'inside: before\n');
    const path = `${skills}/s/replaced.md`;
    await writeFile(`${path}.tmp`, 'inside: after, longer\n');
    await rename(`${path}.tmp`, path);
    const answer = await get('/skill/s/replaced.md');
    assert.equal(answer.status, 200);
    assert.equal(answer.body, 'inside: after, longer\n');
    assert.equal(answer.headers['content-length'], '22');
    assert.notEqual(answer.headers.etag, before.headers.etag);
  });

  it('serves the new bytes of a file rewritten in place', async () => {
    await served('/skill/s/rewritten.md', 'inside: before\n');
    await writeFile(`${skills}/s/rewritten.md`, 'inside: rewritten in place\n');
    const answer = await get('/skill/s/rewritten.md');
    assert.equal(answer.status, 200);
    assert.equal(answer.body, 'inside: rewritten in place\n');
  });

  it('answers 404 FileNotFound once the remembered file is removed', async () => {
    await served('/skill/s/removed.md', 'inside: removed\n');
    const path = `${skills}/s/removed.md`;
    await rm(path);
    assertApiError(await get('/skill/s/removed.md'), 404, 'FileNotFound', `File not found: ${path}`);
  });

  it("answers 409 NotAFile, without blocking, once a FIFO takes the remembered file's place", async () => {
    await served('/skill/s/fifo.md', 'inside: becomes a FIFO\n');
    const path = `${skills}/s/fifo.md`;
    await rm(path);
    execFileSync('mkfifo', [path]);
    assertApiError(
      await get('/skill/s/fifo.md'),
      409,
      'NotAFile',
      'skill:// URL must resolve to a file or directory: skill://s/fifo.md',
    );
  });

  it('serves the new directory once the skill directory itself is swapped for a link elsewhere', async () => {
    await served('/skill/repointed/guide.md', 'the old directory\n');
    const dir = `${skills}/repointed`;
    await rename(dir, `${s.root}/outside/old-repointed`);
    await symlink('../../../outside/new-repointed', dir);
    const answer = await get('/skill/repointed/guide.md');
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.body, 'the new directory\n');
    assert.equal(answer.headers['x-skill-source-path'], `${dir}/guide.md`);
  });

  it('serves the new revision once a git-sync style link is re-pointed', async () => {
    await served('/skill/synced/guide.md', 'revision 1\n');
    // git-sync publishes a revision by renaming a new link over the old one: one atomic swap.
    await symlink('../../../outside/rev2/synced', `${skills}/synced.next`);
    await rename(`${skills}/synced.next`, `${skills}/synced`);
    const answer = await get('/skill/synced/guide.md');
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.body, 'revision 2\n');
  });
});

describe('a remembered skill file whose skill leaves the index', () => {
  let suite: SuiteServer;
  let s: TestServer;
  before(async () => {
    suite = await startSuiteServer({
      tree: {
        [`${SKILLS}/gone/SKILL.md`]: SK({ name: 'gone', description: 'Removed from the index' }),
        [`${SKILLS}/gone/notes.md`]: 'still on disk\n',
        [`${SKILLS}/kept/SKILL.md`]: SK({ name: 'kept', description: 'Stays' }),
      },
      watch: false,
    });
    s = suite.server;
  });
  after(() => suite.close());

  it('answers 404 SkillNotFound after the reload that drops the skill, though the file is still there', async () => {
    const get = (target: string): Promise<RawResponse> =>
      rawRequest(s.port, [`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${s.port}`]);
    for (const round of ['first', 'remembered']) {
      const answer = await get('/skill/gone/notes.md');
      assert.deepEqual([answer.status, answer.body], [200, 'still on disk\n'], round);
    }
    await rm(`${s.cwd}/.musepi/skills/gone/SKILL.md`);
    await mkdir(`${s.cwd}/.musepi/skills/gone/unrelated`);
    const workspace = await s.registry.get(undefined);
    await workspace.rebuild();
    assertApiError(
      await get('/skill/gone/notes.md'),
      404,
      'SkillNotFound',
      'Unknown skill: gone\nNo close name (1 skill loaded)',
    );
  });
});
