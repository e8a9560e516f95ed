// The typed client against a real app on a real port: REST calls, conditional polling with ETag, the event subscription
// (resume with Last-Event-ID, `reset` refetch), and finding a daemon through its runtime file.

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { SkillsdEvent } from '../../src/client/api-types.js';
import { SkillsdApiError } from '../../src/client/errors.js';
import { DEFAULT_URL, findDaemon } from '../../src/client/find-daemon.js';
import { writeRuntimeFile } from '../../src/client/runtime-file.js';
import { SkillsdClient } from '../../src/client/skillsd-client.js';
import { startServer } from '../helpers/app-server.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

/** Load shedding off: a busy test machine's event loop lag would answer 503 Overloaded (tested elsewhere). */
const CALM = { app: { pressure: { maxEventLoopDelayMs: 0 } } };
const PDF = { 'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) };

describe('SkillsdClient', () => {
  it('answers the REST calls and maps error answers to SkillsdApiError', async (t) => {
    const server = await startServer(t, { tree: PDF, ...CALM });
    const client = new SkillsdClient({ url: `${server.base}/` });
    assert.deepEqual(
      (await client.skills()).skills.map((skill) => skill.name),
      ['pdf'],
    );
    assert.equal((await client.skill('pdf')).description, 'PDF tools');
    assert.equal((await client.file('pdf')).body.toString(), SK({ name: 'pdf', description: 'PDF tools' }));
    assert.match(await client.prompt(), /^- pdf: PDF tools$/m);
    assert.equal((await client.invoke('/skill:pdf x')).details?.args, 'x');
    assert.equal((await client.health()).skills, 1);
    const error = await client.skill('nope').catch((caught: unknown) => caught);
    assert.ok(error instanceof SkillsdApiError);
    assert.equal(error.status, 404);
    assert.equal(error.code, 'SkillNotFound');
    assert.equal(error.message, 'Unknown skill: nope\nNo close name (1 skill loaded)');
    // `..` is sent so that the daemon sees (and refuses) it, not resolved away by URL parsing.
    const traversal = await client.file('pdf', '../../etc/passwd').catch((caught: unknown) => caught);
    assert.ok(traversal instanceof SkillsdApiError);
    assert.equal(traversal.code, 'InvalidPath');
  });

  it('polls conditionally: 304 while the index is unchanged, the new answer once it moves', async (t) => {
    const server = await startServer(t, { tree: PDF, ...CALM });
    const client = new SkillsdClient({ url: server.base });
    const first = await client.skillsIfChanged(undefined);
    assert.equal(first.notModified, false);
    const again = await client.skillsIfChanged(first.etag);
    assert.deepEqual(again, { notModified: true, etag: first.etag });
    await writeTree(server.root, { 'work/.musepi/skills/ocr/SKILL.md': SK({ description: 'OCR' }) });
    await (await server.registry.get()).rebuild();
    const moved = await client.skillsIfChanged(first.etag);
    assert.equal(moved.notModified, false);
    assert.ok(!moved.notModified && moved.answer.generation === 2);
    assert.notEqual(moved.etag, first.etag);
  });

  it('subscribes, and resumes after a dropped connection with Last-Event-ID: every change seen once', async (t) => {
    const server = await startServer(t, { tree: PDF, ...CALM });
    const client = new SkillsdClient({ url: server.base });
    const events: SkillsdEvent[] = [];
    const drops: unknown[] = [];
    const { until, wake } = signal();
    const subscription = client.subscribe({
      retryMs: 10,
      maxRetryMs: 10,
      onEvent(event) {
        events.push(event);
        wake();
      },
      onDisconnect: (error) => drops.push(error),
    });
    t.after(() => subscription.close());
    await until(() => events.length === 1);
    const workspace = await server.registry.get();
    await writeTree(server.root, { 'work/.musepi/skills/a/SKILL.md': SK({ description: 'A' }) });
    await workspace.rebuild();
    await until(() => events.some((event) => event.event === 'index'));
    // Every connection cut, the server still listening: the client comes back with the last id it saw.
    server.app.server.closeAllConnections();
    await writeTree(server.root, { 'work/.musepi/skills/b/SKILL.md': SK({ description: 'B' }) });
    await workspace.rebuild();
    await until(() => events.filter((event) => event.event === 'index').length === 2);
    subscription.close();
    await subscription.done;
    assert.equal(drops.length, 1);
    const index = events.filter((event) => event.event === 'index');
    assert.deepEqual(
      index.map((event) => event.data),
      [
        { generation: 2, added: ['a'], removed: [], changed: [] },
        { generation: 3, added: ['b'], removed: [], changed: [] },
      ],
    );
    // Ids name states of the index (derived from its content), so they need not grow; each change has its own.
    const ids = events.filter((event) => event.event !== 'hello').map((event) => event.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(subscription.lastEventId, index[1]?.id);
  });

  it('calls onReset when the events after its id are no longer held', async (t) => {
    const server = await startServer(t, { tree: PDF, registry: { eventLogCapacity: 1 }, ...CALM });
    const workspace = await server.registry.get();
    for (const name of ['a', 'b', 'c']) {
      await writeTree(server.root, { [`work/.musepi/skills/${name}/SKILL.md`]: SK({ description: name }) });
      await workspace.rebuild();
    }
    const client = new SkillsdClient({ url: server.base });
    const resets: number[] = [];
    const { until, wake } = signal();
    const subscription = client.subscribe({
      lastEventId: '1',
      onEvent: wake,
      onReset(generation) {
        resets.push(generation);
        wake();
      },
    });
    t.after(() => subscription.close());
    await until(() => resets.length === 1);
    assert.deepEqual(resets, [4]);
  });
});

/** Wait for a condition that event callbacks make true. */
function signal() {
  let waiters: Array<() => void> = [];
  return {
    wake() {
      const woken = waiters;
      waiters = [];
      for (const resolve of woken) resolve();
    },
    async until(predicate: () => boolean) {
      while (!predicate()) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

describe('findDaemon', () => {
  it('prefers --url, then SKILLSD_URL, then the runtime file of a daemon serving this directory, then :7420', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-find-');
    t.after(cleanup);
    const location = { env: { XDG_RUNTIME_DIR: `${dir}/run` }, home: `${dir}/home` };
    await mkdir(`${dir}/tok`, { recursive: true });
    await writeFile(`${dir}/tok/token`, 'secret-token\n', { mode: 0o600 });
    writeRuntimeFile(location, {
      pid: process.pid,
      url: 'http://127.0.0.1:45678',
      port: 45678,
      host: '127.0.0.1',
      cwd: `${dir}/project`,
      startedAt: '2026-01-01T00:00:00.000Z',
      tokenFile: `${dir}/tok/token`,
      version: '0.1.0',
    });
    const found = await findDaemon({ ...location, cwd: `${dir}/project/sub` });
    assert.equal(found.source, 'runtime-file');
    assert.equal(found.url, 'http://127.0.0.1:45678');
    assert.equal(found.token, 'secret-token');
    assert.equal(found.runtime?.pid, process.pid);
    const env = await findDaemon({
      ...location,
      env: { ...location.env, SKILLSD_URL: 'http://localhost:45678/' },
      cwd: dir,
    });
    assert.deepEqual([env.source, env.url, env.runtime?.pid], ['env', 'http://localhost:45678', process.pid]);
    const option = await findDaemon({ ...location, url: 'http://127.0.0.1:1', cwd: dir });
    assert.deepEqual([option.source, option.url, option.token], ['option', 'http://127.0.0.1:1', undefined]);
    const none = await findDaemon({ env: {}, home: `${dir}/nobody`, cwd: dir });
    assert.deepEqual([none.source, none.url], ['default', DEFAULT_URL]);
  });

  it('ignores a runtime file of a dead process and a directory others can write', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-find-');
    t.after(cleanup);
    const location = { env: {}, home: dir };
    const info = {
      url: 'http://127.0.0.1:45679',
      port: 45679,
      host: '127.0.0.1',
      cwd: dir,
      startedAt: '2026-01-01T00:00:00.000Z',
      version: '0.1.0',
    };
    // A pid far above pid_max: no such process.
    writeRuntimeFile(location, { ...info, pid: 2 ** 30 });
    assert.equal((await findDaemon({ ...location, cwd: dir })).source, 'default');
    writeRuntimeFile(location, { ...info, pid: process.pid });
    assert.equal((await findDaemon({ ...location, cwd: dir })).source, 'runtime-file');
    const { chmod } = await import('node:fs/promises');
    await chmod(`${dir}/.skillsd/run`, 0o777);
    assert.equal((await findDaemon({ ...location, cwd: dir })).source, 'default');
  });
});
