import assert from 'node:assert/strict';
import { pbkdf2 } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { BatchedLogDestination } from '../../src/cli/log-destination.js';
import { makeTempDir } from '../helpers/temp-tree.js';

async function logFile(t: TestContext): Promise<{ fd: number; read: () => string }> {
  const { dir, cleanup } = await makeTempDir();
  const path = join(dir, 'log');
  const fd = openSync(path, 'w');
  t.after(async () => {
    closeSync(fd);
    await cleanup();
  });
  return { fd, read: () => readFileSync(path, 'utf8') };
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(condition(), 'timed out');
}

const line = (i: number) => `{"n":${i},"text":"ünïcode ✓ 🎉"}\n`;

describe('BatchedLogDestination', () => {
  it('writes lines in order, within its delay, across chunk boundaries and for lines longer than a chunk', async (t) => {
    const file = await logFile(t);
    const destination = new BatchedLogDestination(file.fd, { chunkBytes: 256, delayMs: 10 });
    const long = `{"long":"${'é'.repeat(400)}"}\n`;
    const lines = [...Array.from({ length: 50 }, (_, i) => line(i)), long, line(50)];
    for (const text of lines) destination.write(text);
    await until(() => file.read().length === lines.join('').length);
    assert.equal(file.read(), lines.join(''));
    // A lone line is written after the delay, with nothing else to fill its chunk.
    destination.write(line(51));
    await until(() => file.read().endsWith(line(51)));
  });

  it('writes everything pending at once on flushSync (the process exit path)', async (t) => {
    const file = await logFile(t);
    const destination = new BatchedLogDestination(file.fd, { chunkBytes: 1024, delayMs: 60_000 });
    const lines = Array.from({ length: 200 }, (_, i) => line(i));
    for (const text of lines) destination.write(text);
    // Earlier full chunks may be in the thread pool's hands: wait for them, as the process's exit does not.
    await new Promise<void>((resolve) => destination.flush(() => resolve()));
    // Nothing is left to an asynchronous write that the exiting process would not wait for. The thread pool is kept
    // busy meanwhile, so an asynchronous write started here could not have finished by the time the file is read.
    const busy = Array.from(
      { length: 4 },
      () => new Promise((resolve) => pbkdf2('x', 'y', 100_000, 32, 'sha256', resolve)),
    );
    for (let i = 200; i < 230; i++) {
      lines.push(line(i));
      destination.write(line(i));
      destination.flushSync();
      assert.equal(file.read(), lines.join(''));
    }
    await Promise.all(busy);
  });

  it('keeps going when its file descriptor cannot be written', async () => {
    // A closed descriptor (EBADF): the lines are dropped, the daemon is not stopped by its log.
    const { dir, cleanup } = await makeTempDir();
    const fd = openSync(join(dir, 'log'), 'w');
    closeSync(fd);
    const destination = new BatchedLogDestination(fd, { chunkBytes: 64, delayMs: 1 });
    for (let i = 0; i < 20; i++) destination.write(line(i));
    await new Promise<void>((resolve) => destination.flush(() => resolve()));
    destination.flushSync();
    await cleanup();
  });
});
