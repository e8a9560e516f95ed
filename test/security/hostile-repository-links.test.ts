// A repository the user cloned (its files the user's own, as git writes them) whose `SKILL.md` and `AGENTS.md` are
// relative links to the user's private key. In contain mode (the default) the daemon skips both with a diagnostic on
// every route that would read them; in follow mode it keeps the reference behaviour. The layouts people really use
// keep working: a skill directory linked to a library elsewhere, a SKILL.md linked to another skill's SKILL.md, a
// repository's AGENTS.md linked to its CLAUDE.md (SECURITY.md, "Links and workspaces").

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { settledFetch } from '../helpers/settled-fetch.js';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const MARK = `PRIVATE-KEY-${randomUUID()}`;
const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARK}\n-----END OPENSSH PRIVATE KEY-----\n`;
const PDF = SK({ name: 'pdf', description: 'PDF tools from the library' });
const SHARED = SK({ description: 'A SKILL.md shared with another skill' });

interface Answer {
  status: number;
  text: string;
}

async function get(url: string): Promise<Answer> {
  const response = await settledFetch(url);
  return { status: response.status, text: await response.text() };
}

async function invoke(base: string, text: string): Promise<Answer> {
  const response = await settledFetch(`${base}/invocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  return { status: response.status, text: await response.text() };
}

describe('a cloned repository whose SKILL.md and AGENTS.md link to the user’s key (built CLI)', () => {
  let H = '';
  let repo = '';
  let cleanup: () => Promise<void> = async () => {};
  let contain: RunningDaemon;
  let follow: RunningDaemon;

  before(async () => {
    let base: string;
    ({ dir: base, cleanup } = await makeTempDir('skillsd-hostile-repo-'));
    H = join(base, 'home');
    repo = join(H, 'src/repo');
    await writeTree(H, {
      '.ssh/id_ed25519': KEY,
      'library/pdf/SKILL.md': PDF,
      'library/shared/SKILL.md': SHARED,
      'follow.json': JSON.stringify({ symlinks: 'follow' }),
    });
    await writeTree(repo, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      // The hostile links, relative as a clone carries them.
      '.claude/skills/k/SKILL.md': { symlink: '../../../../../.ssh/id_ed25519' },
      'pkg/AGENTS.md': { symlink: '../../../.ssh/id_ed25519' },
      // The legitimate layouts.
      '.claude/skills/pdf': { symlink: '../../../../library/pdf' },
      '.claude/skills/shared/SKILL.md': { symlink: '../../../../../library/shared/SKILL.md' },
      'CLAUDE.md': 'Repository rules\n',
      'AGENTS.md': { symlink: 'CLAUDE.md' },
    });
    const args = ['serve', '--port', '0', '--cwd', join(repo, 'pkg')];
    [contain, follow] = await Promise.all([
      startDaemon(args, { home: H }),
      startDaemon([...args, '--config', join(H, 'follow.json')], { home: H }),
    ]);
  });
  after(async () => {
    await contain?.process.kill();
    await follow?.process.kill();
    await cleanup();
  });

  it('contain mode: the skill and the AGENTS.md are skipped with a diagnostic on all three routes', async () => {
    const answers: Answer[] = [];
    const skills = await get(`${contain.url}/skills`);
    answers.push(skills);
    const listed = JSON.parse(skills.text) as { skills: Array<{ name: string }>; diagnostics: unknown[] };
    assert.deepEqual(
      listed.skills.map((skill) => skill.name),
      ['pdf', 'shared'],
    );
    assert.deepEqual(listed.diagnostics, [
      {
        skillPath: join(repo, '.claude/skills/k/SKILL.md'),
        message:
          `SKILL.md is a symbolic link to ${join(H, '.ssh/id_ed25519')}, which is outside the skill's directory, ` +
          'the workspace and its repository, and not a file named SKILL.md ("symlinks": "contain"); the skill is skipped',
      },
    ]);

    const skill = await get(`${contain.url}/skill/k`);
    answers.push(skill);
    assert.deepEqual(
      { status: skill.status, body: JSON.parse(skill.text) },
      {
        status: 404,
        body: {
          statusCode: 404,
          code: 'SkillNotFound',
          error: 'Not Found',
          message: 'Unknown skill: k\nNo close name (2 skills loaded)',
        },
      },
    );
    const invoked = await invoke(contain.url, '/skill:k');
    answers.push(invoked);
    assert.deepEqual(
      { status: invoked.status, body: JSON.parse(invoked.text) },
      { status: 200, body: { handled: false } },
    );

    const context = await get(`${contain.url}/context-files`);
    answers.push(context);
    assert.deepEqual(JSON.parse(context.text), {
      // The repository's AGENTS.md -> CLAUDE.md stays inside the repository: read.
      files: [{ path: join(repo, 'AGENTS.md'), content: 'Repository rules\n', level: 'project', depth: 1 }],
      diagnostics: [
        {
          path: join(repo, 'pkg/AGENTS.md'),
          message:
            `AGENTS.md is a symbolic link to ${join(H, '.ssh/id_ed25519')}, which is outside the workspace and its ` +
            'repository, and not a file named AGENTS.md ("symlinks": "contain"); it is not read',
        },
      ],
    });
    for (const answer of answers) assert.equal(answer.text.includes(MARK), false, answer.text);
  });

  it('contain mode: a skill directory linked to a library and a SKILL.md linked to another skill’s are served', async () => {
    assert.deepEqual(await get(`${contain.url}/skill/pdf`), { status: 200, text: PDF });
    assert.deepEqual(await get(`${contain.url}/skill/shared`), { status: 200, text: SHARED });
    const invoked = await invoke(contain.url, '/skill:shared');
    assert.equal(invoked.status, 200);
    assert.deepEqual((JSON.parse(invoked.text) as { details: unknown }).details, {
      name: 'shared',
      path: join(repo, '.claude/skills/shared/SKILL.md'),
      lineCount: 1,
    });
  });

  it('follow mode keeps the reference behaviour: the links are read', async () => {
    const skills = JSON.parse((await get(`${follow.url}/skills`)).text) as {
      skills: Array<{ name: string }>;
      diagnostics: unknown[];
    };
    assert.deepEqual(
      skills.skills.map((skill) => skill.name),
      ['k', 'pdf', 'shared'],
    );
    assert.deepEqual(skills.diagnostics, []);
    assert.deepEqual(await get(`${follow.url}/skill/k`), { status: 200, text: KEY });
    const invoked = JSON.parse((await invoke(follow.url, '/skill:k')).text) as { handled: boolean; message: string };
    assert.equal(invoked.handled, true);
    assert.equal(invoked.message.includes(MARK), true);
    const context = JSON.parse((await get(`${follow.url}/context-files`)).text) as { files: unknown[] };
    assert.deepEqual(context.files, [
      { path: join(repo, 'pkg/AGENTS.md'), content: KEY, level: 'project', depth: 0 },
      { path: join(repo, 'AGENTS.md'), content: 'Repository rules\n', level: 'project', depth: 1 },
    ]);
  });
});
