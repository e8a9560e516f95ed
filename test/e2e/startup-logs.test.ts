// What `skillsd serve` tells an operator at start: the summary line of the first index (exact fields), and the
// format for people. The built CLI, real files, real sockets.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { waitUntil } from '../helpers/deadlines.js';
import { DaemonProcess, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function project(t: TestContext) {
  const { dir, cleanup } = await makeTempDir('skillsd-startup-logs-');
  t.after(cleanup);
  await writeTree(dir, {
    'home/.keep': '',
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    'work/.musepi/skills/xlsx/SKILL.md': SK({ name: 'xlsx', description: 'Sheets' }),
    // A skills directory that is a file: one reference warning.
    'work/.claude/skills': 'not a directory',
    // A `---js` fence is refused, never run: two diagnostics (its skill still loads, without frontmatter).
    'work/.agents/skills/fenced/SKILL.md': '---js\n{ name: "x" }\n---\n# Body\n',
  });
  return { home: join(dir, 'home'), cwd: join(dir, 'work') };
}

describe('skillsd serve: start-up log lines', () => {
  it('sums up the first index in one info line before the listening line, matching what is served', async (t) => {
    const { home, cwd } = await project(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', cwd], { home });
    t.after(() => daemon.process.kill());
    const logs = daemon.process.logs;
    const summaries = logs.filter((line) => line.msg.startsWith('indexed '));
    assert.equal(summaries.length, 1);
    const summaryAt = logs.indexOf(summaries[0] as (typeof logs)[number]);
    const listeningAt = logs.findIndex((line) => line.msg.startsWith('skillsd listening on '));
    assert.ok(summaryAt < listeningAt, 'the summary comes before the listening line');
    const { level, time, pid, hostname, indexMs, ...summary } = summaries[0] as Record<string, unknown>;
    assert.equal(level, 30);
    assert.equal(Number.isInteger(indexMs) && (indexMs as number) >= 0, true, `indexMs ${indexMs}`);
    assert.deepEqual(summary, {
      cwd,
      skills: 3,
      warnings: 1,
      diagnostics: 2,
      watchMode: 'events',
      msg: `indexed 3 skills (1 warning, 2 diagnostics) in ${indexMs} ms; watch mode events`,
    });

    const answer = (await (await fetch(`${daemon.url}/skills`)).json()) as {
      skills: { name: string }[];
      warnings: unknown[];
      diagnostics: unknown[];
    };
    assert.deepEqual(
      answer.skills.map((skill) => skill.name),
      ['fenced', 'pdf', 'xlsx'],
    );
    assert.equal(answer.warnings.length, 1);
    assert.equal(answer.diagnostics.length, 2);
    const health = (await (await fetch(`${daemon.url}/health`)).json()) as { watchMode: string };
    assert.equal(health.watchMode, 'events');
  });

  it('names the polling watch mode when it is asked for', async (t) => {
    const { home, cwd } = await project(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', cwd, '--watch-mode', 'poll'], { home });
    t.after(() => daemon.process.kill());
    const summary = daemon.process.logs.find((line) => line.msg.startsWith('indexed '));
    assert.equal(summary?.watchMode, 'polling');
    assert.match(summary?.msg ?? '', /; watch mode polling$/);
  });

  it('prints lines for people with --log-format pretty (and SKILLSD_LOG_FORMAT=pretty), JSON by default', async (t) => {
    const { home, cwd } = await project(t);
    for (const [args, env] of [
      [['--log-format', 'pretty'], { NO_COLOR: '1' }],
      [[], { NO_COLOR: '1', SKILLSD_LOG_FORMAT: 'pretty' }],
    ] as const) {
      const daemon = new DaemonProcess(['serve', '--port', '0', '--cwd', cwd, ...args], { home, env });
      t.after(() => daemon.kill());
      await waitUntil('the listening line', () => daemon.stdout.includes('skillsd listening on '));
      const lines = daemon.stdout.split('\n').filter((line) => line !== '');
      assert.deepEqual(daemon.logs, [], 'no JSON line');
      for (const line of lines) assert.throws(() => JSON.parse(line), `not JSON: ${line}`);
      const summary = lines.find((line) => line.includes('indexed 3 skills'));
      assert.match(
        summary ?? '',
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: indexed 3 skills \(1 warning, 2 diagnostics\) in \d+ ms; watch mode events$/,
      );
      const fields = lines.slice(lines.indexOf(summary ?? '') + 1, lines.indexOf(summary ?? '') + 7);
      assert.deepEqual(
        fields.map((field) => field.replace(/indexMs: \d+$/, 'indexMs: N')),
        [
          `    cwd: "${cwd}"`,
          '    skills: 3',
          '    warnings: 1',
          '    diagnostics: 2',
          '    indexMs: N',
          '    watchMode: "events"',
        ],
      );
      // Request lines are pretty too, the polling fast path's (GET /skills) included.
      const url = /skillsd listening on (http:\S+)/.exec(daemon.stdout)?.[1];
      for (const path of ['/skills', '/skills', '/health']) assert.equal((await fetch(`${url}${path}`)).status, 200);
      await waitUntil('three request lines', () => daemon.stdout.match(/INFO: request completed/g)?.length === 3);
      assert.deepEqual(daemon.logs, [], 'still no JSON line');
      await daemon.kill();
    }
  });
});
