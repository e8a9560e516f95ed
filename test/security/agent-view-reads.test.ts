// The per-agent views against hostile files on the real daemon (the built CLI, a real port): a FIFO at a `.git` the
// worktree check reads, Gemini CLI's settings.json as a FIFO or a link to /dev/zero, and a trusted-folders file of
// 200,000 rules. Each once parked libuv's thread pool (GET /agents stayed 503 NotReady), grew the daemon past 1 GiB,
// or cost a realpath per rule on every build; now each is a warning of the view that wanted it (SECURITY.md §2,
// docs/agents.md "Vocabulary"). These are hang tests: the deadlines are generous, the answers take < 1 s.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { waitUntil } from '../helpers/deadlines.js';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

/** Far above the < 1 s these answers take, far below the forever they took. */
const ANSWER_MS = 20_000;
/** The daemon's peak resident memory stays far below the 1.17 GiB a /dev/zero settings file cost. */
const MAX_HWM_KB = 300 * 1024;

interface Answer {
  status: number;
  body: { warnings?: Array<{ skillPath: string; message: string }>; skills?: Array<{ name: string }> };
}

/** A fresh temp root, removed after the test. */
async function tempRoot(t: TestContext): Promise<string> {
  const { dir, cleanup } = await makeTempDir('skillsd-agent-reads-');
  t.after(cleanup);
  return dir;
}

async function serve(t: TestContext, home: string, cwd: string): Promise<RunningDaemon> {
  // The agents' variables of the test's own environment must not move Gemini's files elsewhere.
  const env = { GEMINI_CLI_HOME: '', GEMINI_CLI_TRUST_WORKSPACE: '', GEMINI_CLI_TRUSTED_FOLDERS_PATH: '' };
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', cwd], { home, env });
  t.after(() => daemon.process.kill());
  return daemon;
}

/**
 * The first answer other than 503 (NotReady while the views are computed, Overloaded on a loaded machine), within
 * ANSWER_MS: a view stuck behind a blocked read never gets there.
 */
async function answer(url: string): Promise<Answer> {
  let got: Answer | undefined;
  await waitUntil(
    `an answer other than 503 from ${url}`,
    async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(ANSWER_MS) });
      if (response.status === 503) {
        await response.arrayBuffer();
        return false;
      }
      got = { status: response.status, body: (await response.json()) as Answer['body'] };
      return true;
    },
    ANSWER_MS,
  );
  return got as Answer;
}

async function assertHealthy(daemon: RunningDaemon): Promise<void> {
  const health = await fetch(`${daemon.url}/health`, { signal: AbortSignal.timeout(ANSWER_MS) });
  assert.equal(health.status, 200);
  // Every file operation still runs: the default view answers too.
  assert.equal((await answer(`${daemon.url}/skills`)).status, 200);
}

function peakRssKb(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then((status) => Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]));
}

function warningsOf(got: Answer): string[] {
  return (got.body.warnings ?? []).map((warning) => warning.message);
}

describe('a FIFO at a .git the views read (built CLI)', () => {
  for (const where of ['an ancestor of the workspace', 'the workspace itself'] as const) {
    it(`at ${where}: GET /agents and GET /skills?agent= answer 200 with a warning, /health keeps answering`, async (t) => {
      const root = await tempRoot(t);
      // The ancestor case is another user's FIFO at /tmp/.git above every workspace under /tmp.
      const cwd = where === 'the workspace itself' ? `${root}/work` : `${root}/shared/work`;
      const gitDir = where === 'the workspace itself' ? cwd : root;
      await writeTree(root, {
        'home/.keep': '',
        [`${cwd.slice(root.length + 1)}/.claude/skills/pdf/SKILL.md`]: SK({ description: 'PDF tools' }),
      });
      const fifo = `${gitDir}/.git`;
      execFileSync('mkfifo', [fifo]);
      const daemon = await serve(t, `${root}/home`, cwd);

      assert.equal((await answer(`${daemon.url}/agents`)).status, 200);
      const warning = `[skillsd] ${fifo} is not read (not a regular file): no linked worktree is looked for`;
      for (const agent of ['claude-code', 'opencode']) {
        const view = await answer(`${daemon.url}/skills?agent=${agent}`);
        assert.equal(view.status, 200);
        assert.ok(warningsOf(view).includes(warning), `${agent}: ${JSON.stringify(view.body.warnings)}`);
      }
      const claude = await answer(`${daemon.url}/skills?agent=claude-code`);
      assert.deepEqual(
        claude.body.skills?.map((skill) => skill.name),
        ['pdf'],
      );
      await assertHealthy(daemon);
    });
  }
});

describe("Gemini CLI's settings and trusted folders (built CLI)", () => {
  /** HOME and a workspace with one workspace skill `ws`; `gemini` places the files under HOME/.gemini. */
  async function geminiWorld(t: TestContext, gemini: (dir: string, work: string) => Promise<void>) {
    const root = await tempRoot(t);
    await writeTree(root, {
      'home/.gemini/.keep': '',
      'work/.git/HEAD': 'ref: refs/heads/main\n',
      'work/.agents/skills/ws/SKILL.md': SK({ name: 'ws', description: 'workspace skill' }),
    });
    await gemini(`${root}/home/.gemini`, `${root}/work`);
    const daemon = await serve(t, `${root}/home`, `${root}/work`);
    return { root, daemon, dir: `${root}/home/.gemini` };
  }

  it('settings.json and trustedFolders.json as FIFOs: 200 with a warning for each, the workspace untrusted', async (t) => {
    const { daemon, dir } = await geminiWorld(t, async (dir) => {
      execFileSync('mkfifo', [`${dir}/settings.json`, `${dir}/trustedFolders.json`]);
    });
    const view = await answer(`${daemon.url}/skills?agent=gemini-cli`);
    assert.equal(view.status, 200);
    assert.deepEqual(view.body.skills, []);
    const settings = `${dir}/settings.json`;
    const folders = `${dir}/trustedFolders.json`;
    assert.deepEqual(warningsOf(view), [
      `[skillsd] Gemini CLI settings ${settings} are not read (not a regular file): folder trust is taken as on`,
      `[skillsd] Gemini CLI trusted folders ${folders} are not read (not a regular file): workspace not trusted`,
    ]);
    assert.equal((await answer(`${daemon.url}/agents`)).status, 200);
    await assertHealthy(daemon);
  });

  it('settings.json linked to /dev/zero: 200 with a warning, the trust rules still apply, memory stays small', async (t) => {
    const { daemon, dir } = await geminiWorld(t, async (dir, work) => {
      await symlink('/dev/zero', `${dir}/settings.json`);
      await writeFile(`${dir}/trustedFolders.json`, JSON.stringify({ [work]: 'TRUST_FOLDER' }));
    });
    const view = await answer(`${daemon.url}/skills?agent=gemini-cli`);
    assert.equal(view.status, 200);
    assert.deepEqual(
      view.body.skills?.map((skill) => skill.name),
      ['ws'],
    );
    assert.deepEqual(warningsOf(view), [
      `[skillsd] Gemini CLI settings ${dir}/settings.json are not read (not a regular file): folder trust is taken as on`,
    ]);
    await assertHealthy(daemon);
    const hwm = await peakRssKb(daemon.process.child.pid as number);
    assert.ok(hwm > 0 && hwm < MAX_HWM_KB, `VmHWM ${hwm} kB`);
    t.diagnostic(`daemon VmHWM ${hwm} kB`);
  });

  it('a trustedFolders.json of 200,000 rules: answered within the bound, with a warning, the workspace untrusted', async (t) => {
    const { daemon, dir } = await geminiWorld(t, async (dir) => {
      const rules: Record<string, string> = {};
      for (let i = 0; i < 200_000; i++) rules[`/nowhere/${i}`] = 'TRUST_FOLDER';
      await writeFile(`${dir}/trustedFolders.json`, JSON.stringify(rules));
    });
    const view = await answer(`${daemon.url}/skills?agent=gemini-cli`);
    assert.equal(view.status, 200);
    assert.deepEqual(view.body.skills, []);
    assert.deepEqual(warningsOf(view), [
      `[skillsd] Gemini CLI trusted folders ${dir}/trustedFolders.json are not read (larger than 1048576 bytes): workspace not trusted`,
    ]);
    await assertHealthy(daemon);
  });
});
