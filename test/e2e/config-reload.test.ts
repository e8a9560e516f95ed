// `--config FILE` is watched: an edit re-applies live, a bad edit keeps the last good settings (docs/api.md §Starting it).

import assert from 'node:assert/strict';
import { rename, writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { WAIT_MS } from '../helpers/deadlines.js';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { SseClient } from '../helpers/sse-client.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function skillNames(url: string): Promise<string[]> {
  const body = (await (await fetch(`${url}/skills`)).json()) as { skills: Array<{ name: string }> };
  return body.skills.map((skill) => skill.name);
}

/** Polls until `predicate` holds, up to a deadline: the reload is asynchronous by nature. */
async function eventually<T>(
  read: () => Promise<T>,
  predicate: (value: T) => boolean,
  deadlineMs = WAIT_MS,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (predicate(value)) return value;
    if (Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('skillsd --config, edited while running (built CLI)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;
  let config: string;
  let events: SseClient;
  before(async () => {
    ({ dir, cleanup } = await makeTempDir('skillsd-e2e-'));
    await writeTree(dir, {
      'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
      'home/.claude/skills/secret/SKILL.md': SK({ name: 'secret', description: 'Hidden later' }),
      'etc/skillsd.yaml': 'profile: musepi\n',
    });
    config = `${dir}/etc/skillsd.yaml`;
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', dir, '--config', config, '--log-level', 'info'], {
      home: `${dir}/home`,
    });
    events = await SseClient.connect(`${daemon.url}/events?types=settings,settings-error`);
    await events.next((event) => event.event === 'hello');
  });
  after(async () => {
    events?.close();
    await daemon?.process.kill();
    await cleanup();
  });

  it('starts with the settings of the file', async () => {
    assert.deepEqual(await skillNames(daemon.url), ['pdf', 'secret']);
  });

  it('applies an edit that ignores a skill, without a restart', async () => {
    await writeFile(config, 'profile: musepi\nskills:\n  ignoredSkills: [secret]\n');
    assert.deepEqual(
      await eventually(
        () => skillNames(daemon.url),
        (names) => names.length === 1,
      ),
      ['pdf'],
    );
    await daemon.process.waitForLog((line) => line.msg === `config file ${config} re-applied`);
    const event = await events.next((e) => e.event === 'settings');
    assert.equal((JSON.parse(event.data) as { source: string }).source, config);
  });

  it('keeps serving the last good settings after a bad edit, and logs the file and the problem', async () => {
    await writeFile(config, 'skills:\n  ignoredSkill: [pdf]\n');
    const line = await daemon.process.waitForLog((log) => log.level === 50 && String(log.msg).includes(config));
    assert.equal(
      line.msg,
      `config file ${config}: unknown setting "skills.ignoredSkill"; keeping the last good settings`,
    );
    assert.equal(line.file, config);
    assert.equal(line.problem, 'unknown setting "skills.ignoredSkill"');
    assert.deepEqual(await skillNames(daemon.url), ['pdf']);
    const event = await events.next((e) => e.event === 'settings-error');
    assert.deepEqual(JSON.parse(event.data), { source: config, message: 'unknown setting "skills.ignoredSkill"' });

    await writeFile(config, ']] not yaml [[\n');
    await daemon.process.waitForLog((log) => log.level === 50 && String(log.msg).includes('invalid YAML'));
    assert.deepEqual(await skillNames(daemon.url), ['pdf']);
  });

  it('applies a fixed file saved by rename, as editors do', async () => {
    await writeFile(`${dir}/etc/.skillsd.yaml.swp`, 'profile: musepi\nskills:\n  ignoredSkills: [pdf]\n');
    await rename(`${dir}/etc/.skillsd.yaml.swp`, config);
    assert.deepEqual(
      await eventually(
        () => skillNames(daemon.url),
        (names) => names[0] === 'secret',
      ),
      ['secret'],
    );
  });
});

describe('skillsd flags over the config file (built CLI)', () => {
  it('lets --profile and --port win over the file, also after an edit', async () => {
    const { dir, cleanup } = await makeTempDir('skillsd-e2e-');
    const config = `${dir}/skillsd.json`;
    await writeFile(config, JSON.stringify({ profile: 'xcsh', server: { port: 1 } }));
    const daemon = await startDaemon(['serve', '--port', '0', '--profile', 'omp', '--cwd', dir, '--config', config], {
      home: dir,
      env: { SKILLSD_PROFILE: 'musepi' },
    });
    try {
      assert.notEqual(daemon.port, 1);
      const profile = async () => ((await (await fetch(`${daemon.url}/skills`)).json()) as { profile: string }).profile;
      assert.equal(await profile(), 'omp');
      await writeFile(config, JSON.stringify({ profile: 'xcsh', symlinks: 'follow', server: { port: 1 } }));
      await daemon.process.waitForLog((line) => line.msg === `config file ${config} re-applied`);
      assert.equal(await profile(), 'omp');
    } finally {
      await daemon.process.kill();
      await cleanup();
    }
  });
});
