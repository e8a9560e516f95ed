// `skillsd open` of the built CLI against a real daemon: the page's URL through a pipe (with the token in its
// fragment, and `?cwd=`), the browser started on a terminal (an `xdg-open` on the PATH that records what it was
// given; the terminal a pseudo-terminal from util-linux `script`), and exit 3 without a daemon.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { CLI, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const run = promisify(execFile);
const TOKEN = 'b3Blbi10ZXN0LXRva2VuLXZhbHVlLTMyLWJ5dGVzLWxvbmc';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-open-');
  t.after(cleanup);
  await writeTree(dir, {
    'home/.keep': '',
    'project/.git': { dir: true },
    'project/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    'bin/xdg-open': '#!/bin/sh\nprintf "%s" "$1" > "$(dirname "$0")/opened"\n',
  });
  await chmod(`${dir}/bin/xdg-open`, 0o755);
  return { dir, home: `${dir}/home`, project: `${dir}/project` };
}

describe('skillsd open', () => {
  it('prints the page URL through a pipe, with ?cwd= and the token in the fragment', async (t) => {
    const { dir, home, project } = await fixture(t);
    await writeFile(`${dir}/token`, `${TOKEN}\n`, { mode: 0o600 });
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project, '--token-file', `${dir}/token`], {
      home,
    });
    t.after(() => daemon.process.kill());
    const plain = await runClient(['open'], { home, cwd: project });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, `${daemon.url}/ui#token=${TOKEN}\n`);
    const other = await runClient(['open', '--cwd', project], { home, cwd: project });
    assert.equal(other.stdout, `${daemon.url}/ui?cwd=${encodeURIComponent(project)}#token=${TOKEN}\n`);
  });

  it('starts the browser on a terminal and says so without the token; --print only prints', async (t) => {
    const { dir, home, project } = await fixture(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    const inTerminal = async (args: string[]) => {
      const quoted = [process.execPath, CLI, ...args].map((arg) => `'${arg}'`).join(' ');
      const { stdout } = await run('script', ['-qec', `exec ${quoted} 2>/dev/null`, '/dev/null'], {
        cwd: project,
        env: { PATH: `${dir}/bin:${process.env.PATH ?? '/usr/bin:/bin'}`, TERM: 'dumb', HOME: home },
        timeout: 60_000,
      });
      return stdout.replaceAll('\r\n', '\n');
    };
    assert.equal(await inTerminal(['open']), `Opened ${daemon.url}/ui in the browser\n`);
    assert.equal(await readFile(`${dir}/bin/opened`, 'utf8'), `${daemon.url}/ui`);
    assert.equal(await inTerminal(['open', '--print']), `${daemon.url}/ui\n`);
  });

  it('exits 3 when no daemon runs', async (t) => {
    const { home, project } = await fixture(t);
    const none = await runClient(['open'], { home, cwd: project, env: { SKILLSD_URL: await deadUrl(t) } });
    assert.equal(none.code, 3);
    assert.equal(none.stdout, '');
  });
});
