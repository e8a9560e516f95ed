// process-identity.ts: a process that has exited is not running, even while its parent has not yet collected its exit
// status (a zombie). `skillsd stop` returns when the daemon is gone, not when whoever started it reaps it.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { processStart } from '../../src/client/process-identity.js';

/** The state letter of `/proc/<pid>/stat` (field 3), or undefined once the pid is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('processStart', () => {
  it('answers for a running process and not for an exited one its parent has not reaped', async (t) => {
    // A background `sleep` of a shell that then becomes `sleep` itself, which never collects its children: once the
    // background one is killed, it stays a zombie until the parent ends.
    const parent = spawn('sh', ['-c', 'sleep 300 & echo $!; exec sleep 300'], { stdio: ['ignore', 'pipe', 'inherit'] });
    t.after(() => parent.kill('SIGKILL'));
    const pid = await new Promise<number>((resolve) => {
      parent.stdout.setEncoding('utf8').once('data', (line: string) => resolve(Number(line.trim())));
    });
    // Killed only once the shell is `sleep` (a shell would reap it). Waits on the conditions, not on time.
    await until(() => readFileSync(`/proc/${parent.pid}/comm`, 'utf8') === 'sleep\n');
    assert.notEqual(processStart(pid), undefined);
    process.kill(pid, 'SIGKILL');
    await until(() => stateOf(pid) === 'Z');
    assert.equal(processStart(pid), undefined);
    assert.deepEqual(processStart(process.pid)?.bootId, readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  });
});
