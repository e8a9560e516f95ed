import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { pbkdf2 } from 'node:crypto';
import { closeSync, constants, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { BatchedLogDestination } from '../../src/cli/log-destination.js';
import { drainLogs } from '../../src/cli/logger.js';
import { WAIT_MS } from '../helpers/deadlines.js';
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

/**
 * A FIFO opened read-write and non-blocking: writes fill its kernel buffer (64 KiB) and then answer EAGAIN, as a
 * stdout pipe whose reader stopped does; a test may read it itself later.
 */
async function unreadPipe(t: TestContext): Promise<number> {
  const { dir, cleanup } = await makeTempDir();
  const path = join(dir, 'fifo');
  execFileSync('mkfifo', [path]);
  const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  t.after(async () => {
    closeSync(fd);
    await cleanup();
  });
  return fd;
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
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

  it('bounds what waits for a descriptor nobody reads, and says how many lines it dropped once it can write', async (t) => {
    const fd = await unreadPipe(t);
    const destination = new BatchedLogDestination(fd, { chunkBytes: 1024, delayMs: 1, maxQueuedBytes: 8 * 1024 });
    const text = (i: number) => `{"n":${1_000_000 + i},"pad":"${'x'.repeat(100)}"}\n`;
    const lineBytes = text(0).length;
    const total = 3000;
    for (let i = 0; i < total; i++) destination.write(text(i));
    destination.flush();
    // Read until the destination has written everything it kept and its notice.
    const received: string[] = [];
    const buffer = Buffer.alloc(64 * 1024);
    const deadline = Date.now() + WAIT_MS;
    while (!received.join('').includes('droppedLines') && Date.now() < deadline) {
      try {
        const read = readSync(fd, buffer, 0, buffer.length, null);
        received.push(buffer.toString('utf8', 0, read));
      } catch (error) {
        assert.equal((error as NodeJS.ErrnoException).code, 'EAGAIN');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    const lines = received
      .join('')
      .split('\n')
      .filter((line) => line !== '');
    const notice = JSON.parse(lines.at(-1) ?? '{}') as Record<string, unknown>;
    const kept = lines.slice(0, -1);
    assert.equal(notice.level, 40);
    assert.equal(notice.msg, 'log lines dropped: stdout was not read fast enough');
    // Every line is either written whole or counted as dropped; the kept ones are in order.
    assert.equal(kept.length + (notice.droppedLines as number), total);
    assert.ok((notice.droppedLines as number) > 0);
    assert.ok(kept.every((line) => line.length === lineBytes - 1));
    const numbers = kept.map((line) => (JSON.parse(line) as { n: number }).n - 1_000_000);
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => a - b),
    );
    // Kept: what the pipe took before it filled, plus at most the bound.
    assert.ok(kept.length * lineBytes <= 64 * 1024 + 8 * 1024 + 1024, `kept ${kept.length} lines`);
  });

  it('drainLogs: a close waits until the lines held by a busy thread pool are written, in order', async (t) => {
    const file = await logFile(t);
    const destination = new BatchedLogDestination(file.fd, { chunkBytes: 1024, delayMs: 60_000 });
    // The thread pool's four threads are busy: a chunk handed to it waits, as it does behind a loaded daemon's reads.
    const busy = Array.from(
      { length: 4 },
      () => new Promise((resolve) => pbkdf2('x', 'y', 200_000, 32, 'sha256', resolve)),
    );
    const lines = Array.from({ length: 60 }, (_, i) => line(i));
    for (const text of lines) destination.write(text);
    destination.flush();
    // A line after the chunk in the thread pool's hands: the one the exit path would have written first.
    lines.push(line(60));
    destination.write(line(60));
    assert.equal(await drainLogs({ flush: (callback) => destination.flush(callback) }, WAIT_MS), true);
    assert.equal(file.read(), lines.join(''));
    await Promise.all(busy);
  });

  it('drainLogs gives up after its bound when nobody reads the descriptor', async (t) => {
    const fd = await unreadPipe(t);
    const destination = new BatchedLogDestination(fd, { chunkBytes: 1024, delayMs: 1 });
    // More than the FIFO's kernel buffer (64 KiB), never read.
    for (let i = 0; i < 1000; i++) destination.write(`{"n":${i},"pad":"${'x'.repeat(100)}"}\n`);
    assert.equal(await drainLogs({ flush: (callback) => destination.flush(callback) }, 200), false);
  });
});
