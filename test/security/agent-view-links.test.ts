// The per-agent views read SKILL.md files by the rules of the default view, on the real daemon (the built CLI, a real
// port): a SKILL.md linked to the user's ~/.git-credentials is not read in contain mode, a link another user planted
// is not followed, and a frontmatter block over 64 KiB is not handed to the YAML reader. The views used to put the
// credentials into `/skills?agent=` (the description falls back to the first body line) and the catalog, and to parse
// blocks of any size (ten of 0.6 MiB: 10 s of CPU). Each refusal is a `[skillsd]` warning of the view
// (SECURITY.md "The views").

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { VIEW_IDS } from '../../src/discovery/agents/agents.js';
import { canSwitchUsers, requestAs } from '../helpers/as-user.js';
import { waitUntil } from '../helpers/deadlines.js';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const ANSWER_MS = 30_000;
const MARK = `ghp_${randomUUID().replace(/-/g, '')}`;
const CREDENTIALS = `https://octocat:${MARK}@github.com\n`;
const VIEWS = VIEW_IDS;

interface Warning {
  skillPath: string;
  message: string;
}

interface SkillsBody {
  skills: Array<{ name: string; description: string }>;
  warnings: Warning[];
}

/** The first answer other than 503 (NotReady while the views are computed, Overloaded on a loaded machine). */
async function settled(url: string): Promise<{ status: number; text: string }> {
  let got: { status: number; text: string } | undefined;
  await waitUntil(
    `an answer other than 503 from ${url}`,
    async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(ANSWER_MS) });
      const text = await response.text();
      if (response.status === 503) return false;
      got = { status: response.status, text };
      return true;
    },
    ANSWER_MS,
  );
  return got as { status: number; text: string };
}

/** The answer of a process of `uid`, retried while the views are computed (503 NotReady). */
async function settledAs(uid: number, url: string): Promise<{ status: number; text: string }> {
  let got: { status: number; text: string } | undefined;
  await waitUntil(
    `an answer other than 503 from ${url} as uid ${uid}`,
    async () => {
      const answer = await requestAs(uid, url);
      if (answer.status === 503) return false;
      got = { status: answer.status, text: answer.body };
      return true;
    },
    ANSWER_MS,
  );
  return got as { status: number; text: string };
}

async function tempRoot(t: TestContext): Promise<string> {
  const { dir, cleanup } = await makeTempDir('skillsd-view-links-');
  t.after(cleanup);
  return dir;
}

async function serve(t: TestContext, home: string, args: string[], wrapper?: string[]): Promise<RunningDaemon> {
  const daemon = await startDaemon(['serve', '--port', '0', ...args], {
    home,
    ...(wrapper === undefined ? {} : { wrapper, cwd: home }),
  });
  t.after(() => daemon.process.kill());
  return daemon;
}

function containRefusal(agent: string, link: string, target: string): Warning {
  return {
    skillPath: link,
    message:
      `[skillsd] ${agent} reads ${link}; skillsd does not: SKILL.md is a symbolic link to ${target}, which is outside ` +
      `the skill's directory, the workspace and its repository, and not a file named SKILL.md ("symlinks": "contain")`,
  };
}

describe('a repository whose SKILL.md is a link to ~/.git-credentials (built CLI)', () => {
  it('no view reads it: /skills?agent=, /catalog and /agents never hold its text, with a warning instead', async (t) => {
    const root = await tempRoot(t);
    const H = `${root}/home`;
    const W = `${root}/work`;
    await writeTree(root, {
      'home/.git-credentials': CREDENTIALS,
      'work/.git/HEAD': 'ref: refs/heads/main\n',
      'work/.claude/skills/ok/SKILL.md': SK({ name: 'ok', description: 'A plain skill' }),
      'work/.claude/skills/leak/SKILL.md': { symlink: `${H}/.git-credentials` },
      // A relative link, as a cloned repository carries it, four levels down a recursive agent's root.
      'work/.agents/skills/group/deep/SKILL.md': { symlink: '../../../../../home/.git-credentials' },
    });
    const daemon = await serve(t, H, ['--cwd', W]);
    const claudeLink = `${W}/.claude/skills/leak/SKILL.md`;
    const deepLink = `${W}/.agents/skills/group/deep/SKILL.md`;
    const target = `${H}/.git-credentials`;

    const claude = await settled(`${daemon.url}/skills?agent=claude-code`);
    assert.equal(claude.status, 200);
    const claudeBody = JSON.parse(claude.text) as SkillsBody;
    assert.deepEqual(
      claudeBody.skills.map((skill) => [skill.name, skill.description]),
      [['ok', 'A plain skill']],
    );
    assert.deepEqual(claudeBody.warnings, [containRefusal('Claude Code', claudeLink, target)]);

    const opencode = await settled(`${daemon.url}/skills?agent=opencode`);
    assert.equal(opencode.status, 200);
    const opencodeBody = JSON.parse(opencode.text) as SkillsBody;
    assert.deepEqual(
      opencodeBody.skills.map((skill) => [skill.name, skill.description]),
      [['ok', 'A plain skill']],
    );
    assert.deepEqual(opencodeBody.warnings, [
      containRefusal('OpenCode', claudeLink, target),
      containRefusal('OpenCode', deepLink, target),
    ]);

    const catalog = await settled(`${daemon.url}/catalog?agent=claude-code`);
    assert.equal(catalog.status, 200);
    assert.equal(
      (JSON.parse(catalog.text) as { text: string }).text,
      'The following skills are available for use with the Skill tool:\n\n- ok: A plain skill',
    );

    const answers = [claude, opencode, catalog, await settled(`${daemon.url}/agents`)];
    for (const view of VIEWS) {
      answers.push(await settled(`${daemon.url}/skills?agent=${view}`));
      answers.push(await settled(`${daemon.url}/catalog?agent=${view}`));
    }
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(answer.text.includes(MARK), false, answer.text);
    }
  });
});

describe('a SKILL.md link another local user planted (real uids)', {
  skip: canSwitchUsers ? false : 'needs root',
}, () => {
  const VICTIM = 65533;
  const ATTACKER = 65534;

  it('is not followed by any view, even in follow mode, with a warning naming the rule', async (t) => {
    const root = await tempRoot(t);
    await chmod(root, 0o755);
    const V = `${root}/victim`;
    const A = `${root}/attacker`;
    await writeTree(V, { '.git-credentials': CREDENTIALS });
    await writeTree(A, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.claude/skills/k/SKILL.md': { symlink: `${V}/.git-credentials` },
      '.agents/skills/g/k2/SKILL.md': { symlink: `${V}/.git-credentials` },
      // The attacker's own link to the attacker's own file is followed: only links to what is not theirs are refused.
      '.claude/skills/j/SKILL.md': { symlink: '../../../lib/j.md' },
      'lib/j.md': SK({ name: 'j', description: 'The attacker’s own skill' }),
    });
    const config = join(V, 'follow.json');
    await writeFile(config, JSON.stringify({ symlinks: 'follow', server: { allowedWorkspaces: [A] } }));
    execFileSync('chown', ['-hR', `${VICTIM}:${VICTIM}`, V]);
    execFileSync('chown', ['-hR', `${ATTACKER}:${ATTACKER}`, A]);
    await chmod(V, 0o700);
    await chmod(`${V}/.git-credentials`, 0o600);
    await chmod(config, 0o600);
    const daemon = await serve(
      t,
      V,
      ['--cwd', V, '--config', config],
      ['setpriv', `--reuid=${VICTIM}`, `--regid=${VICTIM}`, '--clear-groups'],
    );
    const cwd = `cwd=${encodeURIComponent(A)}`;
    const refusal = (agent: string, link: string): Warning => ({
      skillPath: link,
      message:
        `[skillsd] ${agent} reads ${link}; skillsd does not: the symbolic link ${link} is owned by uid ${ATTACKER} ` +
        `and leads to uid ${VICTIM}: links are followed only when owned by the daemon's user (uid ${VICTIM}) or by ` +
        'the owner of their target',
    });
    const k = `${A}/.claude/skills/k/SKILL.md`;
    const k2 = `${A}/.agents/skills/g/k2/SKILL.md`;

    const claude = await settledAs(VICTIM, `${daemon.url}/skills?agent=claude-code&${cwd}`);
    assert.equal(claude.status, 200);
    const claudeBody = JSON.parse(claude.text) as SkillsBody;
    assert.deepEqual(
      claudeBody.skills.map((skill) => [skill.name, skill.description]),
      [['j', 'The attacker’s own skill']],
    );
    assert.deepEqual(claudeBody.warnings, [refusal('Claude Code', k)]);

    const opencode = await settledAs(VICTIM, `${daemon.url}/skills?agent=opencode&${cwd}`);
    assert.equal(opencode.status, 200);
    const opencodeBody = JSON.parse(opencode.text) as SkillsBody;
    assert.deepEqual(
      opencodeBody.skills.map((skill) => skill.name),
      ['j'],
    );
    assert.deepEqual(opencodeBody.warnings, [refusal('OpenCode', k), refusal('OpenCode', k2)]);

    const answers = [claude, opencode, await settledAs(VICTIM, `${daemon.url}/agents?${cwd}`)];
    for (const view of VIEWS) {
      answers.push(await settledAs(VICTIM, `${daemon.url}/skills?agent=${view}&${cwd}`));
      answers.push(await settledAs(VICTIM, `${daemon.url}/catalog?agent=${view}&${cwd}`));
    }
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(answer.text.includes(MARK), false, answer.text);
    }
  });
});

describe('frontmatter blocks of 0.6 MiB in ~/.claude/skills (built CLI)', () => {
  it('are not parsed by the views: Claude Code reads them as blocks that do not parse, with a warning each', async (t) => {
    const root = await tempRoot(t);
    const H = `${root}/home`;
    // Ten valid YAML blocks of 0.6 MiB, each its own (a block read once is remembered): a description, then a
    // `metadata` mapping of 45,000 keys. Parsed, each held the event loop for about a second.
    const filler = Array.from({ length: 45_000 }, (_, i) => `  key${String(i).padStart(5, '0')}: v`).join('\n');
    const blocks = Array.from({ length: 10 }, (_, i) => `description: big ${i}\nmetadata:\n${filler}`);
    const tree: Record<string, string> = { 'work/.git/HEAD': 'ref: refs/heads/main\n' };
    blocks.forEach((block, i) => {
      tree[`home/.claude/skills/big${i}/SKILL.md`] = `---\n${block}\n---\n\nBody line\n`;
    });
    await writeTree(root, tree);
    assert.equal(blocks[0]?.length, 630_028);
    const daemon = await serve(t, H, ['--cwd', `${root}/work`]);

    const claude = await settled(`${daemon.url}/skills?agent=claude-code`);
    assert.equal(claude.status, 200);
    const body = JSON.parse(claude.text) as SkillsBody;
    const names = Array.from({ length: 10 }, (_, i) => `big${i}`);
    assert.deepEqual(
      body.skills.map((skill) => [skill.name, skill.description]),
      names.map((name) => [name, 'Body line']),
    );
    assert.deepEqual(
      body.warnings,
      names.map((name) => {
        const file = `${H}/.claude/skills/${name}/SKILL.md`;
        return {
          skillPath: file,
          message:
            `[skillsd] Claude Code parses the frontmatter of ${file}; skillsd does not parse a block of more than ` +
            // Claude Code's block ends at the first `---` of the file, so it holds the line break before it too.
            '65536 characters (this one has 630029) and reads it as one that does not parse',
        };
      }),
    );
    assert.equal((await settled(`${daemon.url}/agents`)).status, 200);
    const health = await fetch(`${daemon.url}/health`, { signal: AbortSignal.timeout(ANSWER_MS) });
    assert.equal(health.status, 200);
  });
});
