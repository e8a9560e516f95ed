// What the client commands say where a newcomer was left guessing (docs/cli.md): an empty prompt block says why, a
// watch line for a change of collisions says what changed, and the doctor says each reason once, in words that name
// the rule that decided.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runClient } from '../helpers/run-client.js';
import { DaemonProcess, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-wording-');
  t.after(cleanup);
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  await writeTree(dir, {
    'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools (user)' }),
    'project/.git': { dir: true },
    'project/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools (project)' }),
  });
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
  t.after(() => daemon.process.kill());
  return { home, project };
}

describe('client command wording (built CLI)', () => {
  it('prompt --tools bash prints the empty block and says why on stderr', async (t) => {
    const { home, project } = await fixture(t);
    const run = await runClient(['prompt', '--tools', 'bash'], { home, cwd: project });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      'skillsd: prompt: the block is empty: --tools bash has no read tool, and skills are listed only for a model that can read them\n',
    );
    const withRead = await runClient(['prompt', '--tools', 'read,bash'], { home, cwd: project });
    assert.equal(withRead.stderr, '');
    assert.match(withRead.stdout, /^- pdf: PDF tools \(user\)$/m);
  });

  it('doctor NAME says the one-provider user-over-project rule, once per candidate', async (t) => {
    const { home, project } = await fixture(t);
    const run = await runClient(['doctor', 'pdf'], { home, cwd: project });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        `pdf: loaded from ${home}/.claude/skills/pdf/SKILL.md (claude:user)`,
        '',
        'Candidates, in pipeline order',
        `  1. loaded  claude:user  ${home}/.claude/skills/pdf/SKILL.md`,
        '     loaded: the first enabled candidate of this name in priority order',
        `  2. shadowed  claude:project  ${project}/.claude/skills/pdf/SKILL.md`,
        `     shadowed by ${home}/.claude/skills/pdf/SKILL.md (claude:user): Claude Code reads its user-level skills before its project-level ones`,
        '',
        'Agents',
        `claude-code: loaded ${home}/.claude/skills/pdf/SKILL.md`,
        'codex: unseen: Codex does not read ~/.claude/skills',
        `opencode: loaded ${project}/.claude/skills/pdf/SKILL.md`,
        'gemini-cli: unseen: Gemini CLI does not read ~/.claude/skills',
        `copilot-cli: loaded ${project}/.claude/skills/pdf/SKILL.md`,
        `vscode: loaded ${project}/.claude/skills/pdf/SKILL.md`,
        `goose: loaded ${project}/.claude/skills/pdf/SKILL.md`,
        `musepi: loaded ${home}/.claude/skills/pdf/SKILL.md`,
        `omp: loaded ${home}/.claude/skills/pdf/SKILL.md`,
        `xcsh: loaded ${home}/.claude/skills/pdf/SKILL.md`,
        '',
      ].join('\n'),
    );
  });

  it('a watch line for a change that only touched a collision says so, and the collision line says who wins', async (t) => {
    const { home, project } = await fixture(t);
    const watch = new DaemonProcess(['watch'], { home, cwd: project });
    t.after(() => watch.kill());
    await watch.waitForStderr(/^watching: generation 1, 1 skills\n/, 30_000);
    // A third candidate of the name, behind the two there are: the loaded skill stays the same.
    await writeTree(project, { '.agents/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'Agents' }) });
    await watch.waitForStdout(/^collision .*\n/m, 30_000);
    assert.equal(
      watch.stdout,
      [
        'generation 2: no skill added, removed or changed (a collision or a warning changed)',
        `collision changed: "pdf": ${home}/.claude/skills/pdf/SKILL.md (claude:user) wins over ${project}/.claude/skills/pdf/SKILL.md (claude:project), ${project}/.agents/skills/pdf/SKILL.md (agents:project)`,
        '',
      ].join('\n'),
    );
  });
});
