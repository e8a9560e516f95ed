// The idle-memory rows of the client benchmark: the resident memory reading, and the minimal Fastify app they use as the
// framework's floor (it must answer the way the daemon's `/skills` route is asked, or it measures nothing).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { residentOf, residentOfStatus, spawnMinimalFastify } from '../../bench/lib/idle-memory.js';
import { httpGet, type ServerProcess, waitForStatus } from '../../bench/lib/server-process.js';

describe('residentOfStatus', () => {
  it('reads VmRSS, RssAnon, and RssFile with RssShmem, of /proc/<pid>/status in bytes', () => {
    const status =
      'Name:\tnode\nVmPeak:\t  900000 kB\nVmHWM:\t   81234 kB\nVmRSS:\t   73456 kB\nRssAnon:\t   40000 kB\n' +
      'RssFile:\t   33000 kB\nRssShmem:\t     456 kB\nVmData:\t  120000 kB\n';
    assert.deepEqual(residentOfStatus(status), { total: 73456 * 1024, anon: 40000 * 1024, file: 33456 * 1024 });
  });

  it('is NaN where a line is missing (a kernel thread, a zombie)', () => {
    assert.deepEqual(residentOfStatus('Name:\tkworker\nState:\tZ (zombie)\n'), {
      total: Number.NaN,
      anon: Number.NaN,
      file: Number.NaN,
    });
  });

  it('reads this process, whose VmRSS is its private memory and its mapped files', () => {
    const resident = residentOf(process.pid);
    assert.ok(resident.anon > 1024 * 1024 && resident.file > 1024 * 1024, JSON.stringify(resident));
    // The three lines are read at one moment from one file: VmRSS is their sum.
    assert.equal(resident.total, resident.anon + resident.file);
  });
});

describe('the minimal Fastify app (bench/servers/minimal-fastify.mjs)', () => {
  let server: ServerProcess;
  before(async () => {
    server = await spawnMinimalFastify();
    await waitForStatus(server, '/skills', 200, 60_000);
  });
  after(() => server.stop());

  it('answers GET /skills with an empty list through its response schema', async () => {
    const answer = await httpGet(`${server.url}/skills`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(answer.body.toString('utf8'), '{"skills":[]}');
  });

  it('validates its querystring (the validator is compiled and used)', async () => {
    const good = await httpGet(`${server.url}/skills?provider=codex&cwd=/tmp`);
    assert.equal(good.status, 200);
    const bad = await httpGet(`${server.url}/skills?provider=nobody`);
    assert.equal(bad.status, 400);
    assert.equal(
      bad.body.toString('utf8'),
      '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"querystring/provider must be equal to one of the allowed values"}',
    );
  });

  it('has a resident size to compare with', () => {
    assert.ok(residentOf(server.child.pid ?? 0).total > 10 * 1024 * 1024);
  });
});
