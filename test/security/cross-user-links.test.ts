// A hostile second user of the same machine, for real: the daemon runs as the victim (an unprivileged uid, its HOME
// holding a 0600 key), the attacker (another uid) owns a directory of links to the victim's files, and every request
// comes from the victim's uid, as the victim's own agent pointed at the attacker's directory would send it. Neither
// `?cwd=` nor the links the attacker owns may hand out a byte of the key (SECURITY.md, "Links and workspaces").

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const run = promisify(execFile);
const VICTIM = 65533;
const ATTACKER = 65534;
const isRoot = process.geteuid?.() === 0;
const MARK = `PRIVATE-KEY-${randomUUID()}`;
const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARK}\n-----END OPENSSH PRIVATE KEY-----\n`;

/** `setpriv` to `uid` with no supplementary groups: a plain unprivileged process of that user. */
function asUser(uid: number): string[] {
  return ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups'];
}

// The client: one request, printing `{ status, text }`. Like test/helpers/settled-fetch.ts, it retries a 503
// `Overloaded` (load shedding on a loaded machine) once /health says the load is gone, bounded at 30 s.
const CLIENT = `
const [url, method, body] = process.argv.slice(1);
const init = body ? { method, body, headers: { 'content-type': 'application/json' } } : { method };
const deadline = Date.now() + 30000;
let response = await fetch(url, init);
let text = await response.text();
while (response.status === 503 && text.includes('"code":"Overloaded"') && Date.now() < deadline) {
  const state = await fetch(new URL('/health', url)).then((r) => r.json(), () => ({}));
  if (state.overloaded === false) {
    response = await fetch(url, init);
    text = await response.text();
  } else await new Promise((resolve) => setTimeout(resolve, 100));
}
process.stdout.write(JSON.stringify({ status: response.status, text }));
`;

interface Answer {
  status: number;
  text: string;
}

/** One request sent by a process of `uid`. */
async function requestAs(uid: number, url: string, method = 'GET', body = ''): Promise<Answer> {
  const [command, ...args] = [...asUser(uid), process.execPath, '--input-type=module', '-e', CLIENT, url, method, body];
  const { stdout } = await run(command!, args);
  return JSON.parse(stdout) as Answer;
}

/** Chowns every path (links themselves, not their targets) to `uid`. */
async function chownAll(root: string, uid: number): Promise<void> {
  await run('chown', ['-hR', `${uid}:${uid}`, root]);
}

function forbiddenWorkspace(message: string): { status: number; body: unknown } {
  return { status: 403, body: { statusCode: 403, code: 'ForbiddenWorkspace', error: 'Forbidden', message } };
}

function parsed(answer: Answer): { status: number; body: unknown } {
  return { status: answer.status, body: JSON.parse(answer.text) };
}

describe('a second local user and the victim’s daemon (real uids)', { skip: isRoot ? false : 'needs root' }, () => {
  let base = '';
  let cleanup: () => Promise<void> = async () => {};
  let V = '';
  let A = '';
  let A2 = '';
  const daemons: RunningDaemon[] = [];

  before(async () => {
    ({ dir: base, cleanup } = await makeTempDir('skillsd-cross-user-'));
    await chmod(base, 0o755);
    V = join(base, 'victim');
    A = join(base, 'attacker');
    A2 = join(base, 'attacker-2');
    await writeTree(V, {
      '.ssh/id_ed25519': KEY,
      'work/.musepi/skills/mine/SKILL.md': SK({ name: 'mine', description: 'The victim’s own skill' }),
      'allowed/own/.keep': '',
      // The victim's own link, under an allowed glob, to a directory of the attacker's.
      'allowed/link': { symlink: A2 },
    });
    await writeTree(A, {
      '.claude/skills/k/SKILL.md': { symlink: join(V, '.ssh/id_ed25519') },
      '.claude/skills/j/notes.md': { symlink: join(V, '.ssh/id_ed25519') },
      '.claude/skills/j/SKILL.md': { symlink: '../../../lib/j.md' },
      'lib/j.md': SK({ name: 'j', description: 'The attacker’s own skill, through the attacker’s own link' }),
      'AGENTS.md': { symlink: join(V, '.ssh/id_ed25519') },
      // A way into the victim's directory through a link of the attacker's.
      tohome: { symlink: join(V, 'work') },
    });
    await writeTree(A2, { '.keep': '' });
    await writeFile(
      join(V, 'follow.json'),
      JSON.stringify({ symlinks: 'follow', server: { allowedWorkspaces: [A, `${V}/allowed/*`] } }),
    );
    await chownAll(V, VICTIM);
    await chownAll(A, ATTACKER);
    await chownAll(A2, ATTACKER);
    await chmod(V, 0o700);
    await chmod(join(V, '.ssh'), 0o700);
    await chmod(join(V, '.ssh/id_ed25519'), 0o600);
    await chmod(join(V, 'follow.json'), 0o600);
  });
  after(async () => {
    for (const daemon of daemons) await daemon.process.kill();
    await cleanup();
  });

  async function start(extra: string[]): Promise<RunningDaemon> {
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', join(V, 'work'), ...extra], {
      home: V,
      cwd: V,
      wrapper: asUser(VICTIM),
    });
    daemons.push(daemon);
    return daemon;
  }

  it('default settings: ?cwd= naming the attacker’s directory, or a path through the attacker’s link, is 403', async () => {
    const { url } = await start([]);
    const notOwned = forbiddenWorkspace(
      `cwd is not an allowed workspace: ${A} is owned by uid ${ATTACKER}, not by the daemon's user (uid ${VICTIM}), ` +
        'and server.allowedWorkspaces does not name it',
    );
    // The attacker's own connections are refused before any workspace is looked at (same user only, by default).
    const otherPeer = {
      status: 403,
      body: {
        statusCode: 403,
        code: 'ForbiddenPeer',
        error: 'Forbidden',
        message: `Connections from other local users are refused: this one belongs to uid ${ATTACKER}, the daemon serves uid ${VICTIM}`,
      },
    };
    const cwd = `cwd=${encodeURIComponent(A)}`;
    // The attack as reported, sent by the attacker's own uid, then the same requests from the victim's (an agent of
    // theirs pointed at the attacker's directory): the three routes that read a SKILL.md or an AGENTS.md, and /skills.
    for (const uid of [ATTACKER, VICTIM]) {
      const expected = uid === ATTACKER ? otherPeer : notOwned;
      const answers = [
        await requestAs(uid, `${url}/skills?${cwd}`),
        await requestAs(uid, `${url}/skill/k?${cwd}`),
        await requestAs(uid, `${url}/invocations?${cwd}`, 'POST', JSON.stringify({ text: '/skill:k' })),
        await requestAs(uid, `${url}/context-files?${cwd}`),
      ];
      for (const answer of answers) assert.deepEqual(parsed(answer), expected, `as uid ${uid}`);
    }

    // The victim's own directory, reached through the attacker's link: the link is not followed.
    const through = await requestAs(VICTIM, `${url}/skills?cwd=${encodeURIComponent(join(A, 'tohome'))}`);
    assert.deepEqual(
      parsed(through),
      forbiddenWorkspace(
        `cwd is not an allowed workspace: the symbolic link ${join(A, 'tohome')} is owned by uid ${ATTACKER} and ` +
          `leads to uid ${VICTIM}: links are followed only when owned by the daemon's user (uid ${VICTIM}) or by ` +
          'the owner of their target',
      ),
    );
    // The victim's own directories still open.
    const own = await requestAs(VICTIM, `${url}/skills?cwd=${encodeURIComponent(join(V, 'allowed/own'))}`);
    assert.equal(own.status, 200);
    const home = await requestAs(VICTIM, `${url}/skills`);
    assert.deepEqual(
      (JSON.parse(home.text) as { skills: Array<{ name: string }> }).skills.map((skill) => skill.name),
      ['mine'],
    );
  });

  it('allowed and in follow mode: the attacker’s links to the victim’s files are not followed on any route', async () => {
    const { url } = await start(['--config', join(V, 'follow.json')]);
    const cwd = `cwd=${encodeURIComponent(A)}`;
    const rule = (link: string) =>
      `the symbolic link ${link} is owned by uid ${ATTACKER} and leads to uid ${VICTIM}: links are followed only ` +
      `when owned by the daemon's user (uid ${VICTIM}) or by the owner of their target`;
    const answers: Answer[] = [];

    const skills = await requestAs(VICTIM, `${url}/skills?${cwd}`);
    answers.push(skills);
    assert.equal(skills.status, 200);
    const listed = JSON.parse(skills.text) as { skills: Array<{ name: string }>; diagnostics: unknown[] };
    // The attacker's link to the attacker's own file is followed: only links to what is not theirs are refused.
    assert.deepEqual(
      listed.skills.map((skill) => skill.name),
      ['j'],
    );
    assert.deepEqual(listed.diagnostics, [
      {
        skillPath: join(A, '.claude/skills/k/SKILL.md'),
        message: `SKILL.md not read: ${rule(join(A, '.claude/skills/k/SKILL.md'))}; the skill is skipped`,
      },
    ]);

    const skill = await requestAs(VICTIM, `${url}/skill/k?${cwd}`);
    answers.push(skill);
    assert.deepEqual(parsed(skill), {
      status: 404,
      body: {
        statusCode: 404,
        code: 'SkillNotFound',
        error: 'Not Found',
        message: 'Unknown skill: k\nDid you mean j? (1 skill loaded)',
      },
    });
    const invoked = await requestAs(VICTIM, `${url}/invocations?${cwd}`, 'POST', JSON.stringify({ text: '/skill:k' }));
    answers.push(invoked);
    assert.deepEqual(parsed(invoked), { status: 200, body: { handled: false } });
    const context = await requestAs(VICTIM, `${url}/context-files?${cwd}`);
    answers.push(context);
    assert.deepEqual(parsed(context), {
      status: 200,
      body: {
        files: [],
        diagnostics: [{ path: join(A, 'AGENTS.md'), message: `AGENTS.md not read: ${rule(join(A, 'AGENTS.md'))}` }],
      },
    });
    // A file of a loaded skill that is the attacker's link to the key: refused even though follow mode follows links.
    const notes = await requestAs(VICTIM, `${url}/skill/j/notes.md?${cwd}`);
    answers.push(notes);
    assert.deepEqual(parsed(notes), {
      status: 403,
      body: {
        statusCode: 403,
        code: 'PathEscapesSkill',
        error: 'Forbidden',
        message: `Symbolic link not followed: ${rule(join(A, '.claude/skills/j/notes.md'))}`,
      },
    });
    const listing = await requestAs(VICTIM, `${url}/skill/j/?${cwd}`);
    answers.push(listing);
    for (const answer of answers) assert.equal(answer.text.includes(MARK), false, answer.text);

    // allowedWorkspaces is matched on real paths: the victim's link under an allowed glob to a directory of the
    // attacker's that no glob names is refused.
    const linked = await requestAs(VICTIM, `${url}/skills?cwd=${encodeURIComponent(join(V, 'allowed/link'))}`);
    assert.deepEqual(
      parsed(linked),
      forbiddenWorkspace(
        `cwd is not an allowed workspace: ${A2} is owned by uid ${ATTACKER}, not by the daemon's user ` +
          `(uid ${VICTIM}), and server.allowedWorkspaces does not name it`,
      ),
    );
  });
});
