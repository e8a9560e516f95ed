// The files the per-agent views read besides SKILL.md go through the guarded reader (docs/agents.md "Vocabulary",
// SECURITY.md §2): a `.git` file over its cap, a Codex `agents/openai.yaml` that is a FIFO, and Gemini CLI's
// trust rules (bounded in number, compared without a realpath each) give warnings of the view that wanted them.
// The FIFO and /dev/zero cases that hung or grew the daemon are in test/security/agent-view-reads.test.ts.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { computeAgentViews } from '../../src/discovery/agents/compute-views.js';
import { AgentFileTexts } from '../../src/discovery/agents/file-texts.js';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { agentWorlds, loadedNames, skill } from '../helpers/agent-trees.js';

const world = agentWorlds();
/** The number of trust rules the Gemini CLI view examines (src/discovery/agents/gemini-trust.ts). */
const MAX_TRUST_RULES = 1000;

/**
 * Counts the realpath calls made while `run` runs: the views resolve through `realpathSync.native` made a slice at a
 * time (src/discovery/files/sliced-fs.ts); the promise API is counted too, in case a caller uses it.
 */
async function countRealpaths<T>(run: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  const original = fsPromises.realpath;
  const originalNative = fs.realpathSync.native;
  const calls: string[] = [];
  fsPromises.realpath = ((path: Parameters<typeof original>[0], ...rest: unknown[]) => {
    calls.push(String(path));
    return (original as (...args: unknown[]) => ReturnType<typeof original>)(path, ...rest);
  }) as typeof original;
  fs.realpathSync.native = ((path: Parameters<typeof originalNative>[0], ...rest: unknown[]) => {
    calls.push(String(path));
    return (originalNative as (...args: unknown[]) => ReturnType<typeof originalNative>)(path, ...rest);
  }) as typeof originalNative;
  syncBuiltinESMExports();
  try {
    return { result: await run(), calls };
  } finally {
    fsPromises.realpath = original;
    fs.realpathSync.native = originalNative;
    syncBuiltinESMExports();
  }
}

test('a .git file over 64 KiB is not read: Claude Code and OpenCode warn, no worktree is looked for', async () => {
  const w = await world(
    ({ T }) => ({
      [`${T}/main/.git/HEAD`]: 'ref: refs/heads/main\n',
      [`${T}/main/.claude/skills/from-main/SKILL.md`]: skill('from-main'),
      [`${T}/wt/.git`]: `gitdir: ${T}/main/.git/worktrees/wt\n${'#'.repeat(64 * 1024)}\n`,
      [`${T}/wt/.claude/skills/from-wt/SKILL.md`]: skill('from-wt'),
    }),
    { cwd: 'wt' },
  );
  const file = `${w.T}/wt/.git`;
  const warning = {
    skillPath: file,
    message: `[skillsd] ${file} is not read (larger than 65536 bytes): no linked worktree is looked for`,
  };
  assert.deepEqual(loadedNames(w, 'claude-code'), ['from-wt']);
  assert.deepEqual(w.views.views.get('claude-code')?.warnings, [warning]);
  assert.deepEqual(w.views.views.get('opencode')?.warnings, [warning]);
  // The views that never look for a worktree say nothing of it.
  assert.deepEqual(w.views.views.get('codex')?.warnings, []);
});

test('a Codex agents/openai.yaml that is a FIFO is refused with a warning; the skill still loads', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/piped/SKILL.md`]: skill('piped'),
    [`${P}/.agents/skills/piped/agents/.keep`]: '',
  }));
  const fifo = join(w.P, '.agents/skills/piped/agents/openai.yaml');
  execFileSync('mkfifo', [fifo]);
  const codex = (await viewsOf(w.H, w.P)).views.get('codex');
  assert.deepEqual(
    codex?.skills.map((s) => s.name),
    ['piped'],
  );
  assert.deepEqual(codex?.warnings, [
    {
      skillPath: `${w.P}/.agents/skills/piped/SKILL.md`,
      message: `[skillsd] Codex side file ${fifo} is not read (not a regular file)`,
    },
  ]);
});

const trustTree =
  (rules: (d: { T: string; H: string; P: string }) => Record<string, string>) =>
  (d: { T: string; H: string; P: string }) => ({
    [`${d.P}/.agents/skills/ws/SKILL.md`]: skill('ws'),
    [`${d.H}/.gemini/trustedFolders.json`]: JSON.stringify(rules(d)),
  });

test(`a trusted-folders file of more than ${MAX_TRUST_RULES} rules is not examined: untrusted, with a warning`, async () => {
  const many = (d: { P: string }) => {
    const rules: Record<string, string> = {};
    for (let i = 0; i < 20_000; i++) rules[`/nowhere/${i}`] = 'TRUST_FOLDER';
    rules[d.P] = 'TRUST_FOLDER';
    return rules;
  };
  const { result: w, calls } = await countRealpaths(() => world(trustTree(many)));
  const file = `${w.H}/.gemini/trustedFolders.json`;
  assert.deepEqual(loadedNames(w, 'gemini-cli'), []);
  assert.deepEqual(w.views.views.get('gemini-cli')?.warnings, [
    {
      skillPath: file,
      message: `[skillsd] Gemini CLI trusted folders ${file} hold 20001 rules, more than the 1000 skillsd examines: workspace not trusted`,
    },
  ]);
  assert.equal(calls.filter((path) => path.startsWith('/nowhere/')).length, 0);
});

test(`${MAX_TRUST_RULES} rules are decided without a realpath each; links to the workspace's folders still match`, async () => {
  const rules = (d: { T: string; H: string; P: string }) => {
    const out: Record<string, string> = {};
    for (let i = 0; i < MAX_TRUST_RULES - 3; i++) out[`${d.T}/elsewhere/${i}`] = 'TRUST_FOLDER';
    // The home through a link trusts; the workspace itself, written with `..` through that link, does not.
    out[`${d.T}/home-link`] = 'TRUST_FOLDER';
    out[`${d.T}/home-link/work/../work/proj`] = 'DO_NOT_TRUST';
    out[`${d.H}/work`] = 'TRUST_FOLDER';
    return out;
  };
  const { result: w, calls } = await countRealpaths(() =>
    world((d) => ({
      ...trustTree(rules)(d),
      [`${d.T}/home-link`]: { symlink: d.H },
      ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${d.T}/elsewhere/${i}/.keep`, ''])),
    })),
  );
  // The longest rule is the workspace's own (through the link and `..`): untrusted.
  assert.deepEqual(loadedNames(w, 'gemini-cli'), []);
  const untrusted = `[skillsd] Gemini CLI does not trust ${w.P}: workspace skills are not loaded`;
  assert.deepEqual(w.views.views.get('gemini-cli')?.warnings, [{ skillPath: '', message: untrusted }]);
  // Only the two rules that lead to an ancestor through a link were resolved (keys made absolute first, as Gemini
  // CLI loads them: `..` is gone).
  assert.deepEqual(
    calls.filter((path) => path.startsWith(`${w.T}/elsewhere/`)),
    [],
  );
  assert.deepEqual(
    calls.filter((path) => path.startsWith(`${w.T}/home-link`)),
    [`${w.T}/home-link`, `${w.T}/home-link/work/proj`],
  );
});

test('the cheap comparison agrees with a realpath: a plain rule on an ancestor and TRUST_PARENT trust', async () => {
  const ancestor = await world(trustTree(({ H }) => ({ [`${H}/work/`]: 'TRUST_FOLDER' })));
  assert.deepEqual(loadedNames(ancestor, 'gemini-cli'), ['ws']);
  const parent = await world(trustTree(({ P }) => ({ [`${P}/sibling`]: 'TRUST_PARENT' })));
  assert.deepEqual(loadedNames(parent, 'gemini-cli'), ['ws']);
  const linked = await world((d) => ({
    ...trustTree(({ T }) => ({ [`${T}/proj-link`]: 'TRUST_FOLDER' }))(d),
    [`${d.T}/proj-link`]: { symlink: d.P },
  }));
  assert.deepEqual(loadedNames(linked, 'gemini-cli'), ['ws']);
});

/** The views of HOME `home` and workspace `cwd` as they are now (the world computed them when it was built). */
function viewsOf(home: string, cwd: string) {
  return computeAgentViews({
    home,
    cwd,
    env: {},
    texts: new AgentFileTexts(),
    symlinks: 'follow',
    discoverProfile: (profile) => discoverSkills({ home, cwd, env: {}, settings: { ...defaultSettings(), profile } }),
  });
}
