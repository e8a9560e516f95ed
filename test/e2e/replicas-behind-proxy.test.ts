// Three daemons over the same files behind a real nginx doing round-robin on loopback: the team server of
// docs/deploy.md, short of a cluster. A poller moving between replicas sees one ETag and 304s; an edit reaches every
// replica and every SSE client exactly once; a git-sync-style swap of the skills link is one reload everywhere; a
// client whose replica is killed resumes on another with nothing lost and nothing repeated.
//
// nginx comes from Debian's packages (`.ci/run` installs nginx-light when it is missing); without it the test is
// skipped with a message saying so.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { SseClient, type SseEvent } from '../helpers/sse-client.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
const SKIP =
  NGINX === undefined ? 'nginx is not installed (apt-get install nginx-light): no reverse proxy to test' : false;
const REPLICAS = 3;
/** Safety net only: every wait below ends on an event or a condition. */
const WAIT_MS = 30_000;

const isIndex = (event: SseEvent): boolean => event.event === 'index';

function data(event: SseEvent): { generation: number; added: string[]; removed: string[]; changed: string[] } {
  return JSON.parse(event.data);
}

describe('replicas behind a round-robin reverse proxy', { skip: SKIP }, () => {
  let root: string;
  let cleanup: () => Promise<void>;
  const daemons: RunningDaemon[] = [];
  let nginx: ChildProcess | undefined;
  let proxy: string;
  const clients: SseClient[] = [];

  /** Adds or replaces a skill in one rename, as an editor or a checkout does. */
  async function putSkill(dir: string, name: string, description: string): Promise<void> {
    const staging = `${root}/staging/${name}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    await writeTree(staging, { 'SKILL.md': SK({ name, description }) });
    await rm(`${dir}/${name}`, { recursive: true, force: true });
    await rename(staging, `${dir}/${name}`);
  }

  async function replicaSkills(daemon: RunningDaemon) {
    const response = await fetch(`${daemon.url}/skills`);
    return { etag: response.headers.get('etag'), body: await response.text() };
  }

  /** Waits until every live replica answers the same body, containing `needle`; returns that answer. */
  async function converged(live: RunningDaemon[], needle: string) {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const answers = await Promise.all(live.map(replicaSkills));
      const same = answers.every((answer) => answer.body === answers[0]!.body && answer.etag === answers[0]!.etag);
      if (same && answers[0]!.body.includes(needle)) return answers[0]!;
      assert.ok(Date.now() < deadline, `replicas did not converge on ${needle}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** As an orchestrator does before sending traffic: every replica's readiness probe passes. */
  async function allReady(live: RunningDaemon[]): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const statuses = await Promise.all(
        live.map(async (daemon) => (await fetch(`${daemon.url}/health/ready`)).status),
      );
      if (statuses.every((status) => status === 200)) return;
      assert.ok(Date.now() < deadline, `replicas not ready: ${statuses.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async function metric(daemon: RunningDaemon, name: string, labels: string): Promise<number> {
    const text = await (await fetch(`${daemon.url}/metrics`)).text();
    const line = text.split('\n').find((each) => each.startsWith(`${name}${labels} `));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  }

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('skillsd-replicas-'));
    // The skills repository as git-sync lays it out: revisions side by side, `current` linking to one of them.
    await writeTree(root, {
      'home/.keep': '',
      'work/.git': { dir: true },
      'git/rev1/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
      'git/rev1/docx/SKILL.md': SK({ name: 'docx', description: 'Word' }),
      'git/current': { symlink: 'rev1' },
      'staging/.keep': '',
    });
    await writeFile(
      `${root}/config.json`,
      JSON.stringify({ server: { generation: 'content' }, skills: { customDirectories: [`${root}/git/current`] } }),
    );
    for (let i = 0; i < REPLICAS; i++) {
      daemons.push(
        await startDaemon(['serve', '--port', '0', '--cwd', `${root}/work`, '--config', `${root}/config.json`], {
          home: `${root}/home`,
        }),
      );
    }
    let port: number;
    ({ nginx, port } = await startNginx(`${root}/nginx`, daemons));
    proxy = `http://127.0.0.1:${port}`;
    await allReady(daemons);
  });

  after(async () => {
    for (const client of clients) client.close();
    if (nginx !== undefined && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx?.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    for (const daemon of daemons) await daemon.process.kill();
    await cleanup?.();
  });

  it('replicas answer byte-identical /skills; a poller moving between them sees one ETag and 304s', async () => {
    const first = await replicaSkills(daemons[0]!);
    for (const daemon of daemons.slice(1)) assert.deepEqual(await replicaSkills(daemon), first);
    const polled = await fetch(`${proxy}/skills`);
    assert.equal(polled.status, 200);
    assert.equal(await polled.text(), first.body);
    assert.equal(polled.headers.get('etag'), first.etag);
    const polls = 3 * REPLICAS;
    for (let i = 0; i < polls; i++) {
      const again = await fetch(`${proxy}/skills`, { headers: { 'if-none-match': first.etag! } });
      assert.equal(again.status, 304);
      assert.equal(again.headers.get('etag'), first.etag);
    }
    // Round-robin: every replica answered a share of the polls, each with a 304.
    const shares = await Promise.all(
      daemons.map((daemon) =>
        metric(daemon, 'skillsd_http_requests_total', '{method="GET",route="/skills",status="304"}'),
      ),
    );
    assert.equal(
      shares.reduce((sum, each) => sum + each, 0),
      polls,
    );
    for (const share of shares) assert.ok(share >= 1, `shares ${shares.join(', ')}`);
  });

  it('an edit and a git-sync link swap each reach every replica and every SSE client exactly once', async () => {
    const streams: SseClient[] = [];
    for (let i = 0; i < REPLICAS; i++) {
      const client = await SseClient.connect(`${proxy}/events`);
      clients.push(client);
      streams.push(client);
      assert.equal(client.status, 200);
      await client.next((event) => event.event === 'hello', WAIT_MS);
    }
    // One stream per replica.
    const streamShares = await Promise.all(daemons.map((daemon) => metric(daemon, 'skillsd_sse_streams', '')));
    assert.deepEqual(streamShares, [1, 1, 1]);
    const hellos = streams.map((client) => client.events[0]!);
    assert.equal(new Set(hellos.map((event) => `${event.id} ${event.data}`)).size, 1);

    // An edit in the published revision.
    await putSkill(`${root}/git/rev1`, 'xlsx', 'Sheets');
    const edits = await Promise.all(streams.map((client) => client.next(isIndex, WAIT_MS)));
    for (const event of edits) {
      assert.deepEqual(data(event).added, ['xlsx']);
      assert.equal(`${event.id} ${event.data}`, `${edits[0]!.id} ${edits[0]!.data}`);
    }

    // git-sync publishes a new revision: a full checkout beside the old one, then `current` swapped in one rename,
    // then the old checkout removed.
    await writeTree(root, {
      'git/rev2/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools, v2' }),
      'git/rev2/xlsx/SKILL.md': SK({ name: 'xlsx', description: 'Sheets' }),
      'git/rev2/pptx/SKILL.md': SK({ name: 'pptx', description: 'Slides' }),
    });
    await symlink('rev2', `${root}/git/current.next`);
    await rename(`${root}/git/current.next`, `${root}/git/current`);
    const swaps = await Promise.all(streams.map((client) => client.next(isIndex, WAIT_MS)));
    for (const event of swaps) {
      const { added, removed, changed } = data(event);
      assert.deepEqual({ added, removed, changed }, { added: ['pptx'], removed: ['docx'], changed: ['pdf'] });
      assert.equal(`${event.id} ${event.data}`, `${swaps[0]!.id} ${swaps[0]!.data}`);
    }
    await rm(`${root}/git/rev1`, { recursive: true });
    // The next change is the next event everywhere: the swap and the removal of the old checkout gave nothing more.
    await putSkill(`${root}/git/rev2`, 'sentinel', 'After the swap');
    for (const client of streams) {
      assert.deepEqual(data(await client.next(isIndex, WAIT_MS)).added, ['sentinel']);
      assert.deepEqual(
        client.events.map((event) => event.event),
        ['hello', 'index', 'index', 'index'],
      );
    }
    await converged(daemons, 'After the swap');
  });

  it('a client whose replica is killed resumes on another with no lost and no duplicated change', async () => {
    const client = await SseClient.connect(`${proxy}/events`);
    clients.push(client);
    const hello = await client.next((event) => event.event === 'hello', WAIT_MS);
    const streamShares = await Promise.all(daemons.map((daemon) => metric(daemon, 'skillsd_sse_streams', '')));
    // Each replica holds one stream of the previous test; the new one is on the replica that now holds two.
    const serving = streamShares.indexOf(2);
    assert.ok(serving >= 0, `streams ${streamShares.join(', ')}`);
    daemons[serving]!.process.child.kill('SIGKILL');
    await client.closedByServer(WAIT_MS);
    const survivors = daemons.filter((_, i) => i !== serving);

    // A change while the client is away, indexed by every surviving replica.
    await putSkill(`${root}/git/rev2`, 'missed', 'Made while disconnected');
    await converged(survivors, 'Made while disconnected');

    const resumed = await SseClient.connect(`${proxy}/events`, { 'last-event-id': hello.id! });
    clients.push(resumed);
    assert.equal(resumed.status, 200);
    const again = await resumed.next(() => true, WAIT_MS);
    assert.deepEqual([again.event, again.id], ['hello', hello.id]);
    const replayed = await resumed.next(() => true, WAIT_MS);
    assert.equal(replayed.event, 'index');
    assert.deepEqual(data(replayed).added, ['missed']);
    // Then live changes, once each.
    await putSkill(`${root}/git/rev2`, 'after', 'After the resume');
    const live = await resumed.next(() => true, WAIT_MS);
    assert.deepEqual([live.event, data(live).added], ['index', ['after']]);
    assert.deepEqual(
      resumed.events.map((event) => event.event),
      ['hello', 'index', 'index'],
    );
  });
});

function nginxConfig(dir: string, port: number, daemons: RunningDaemon[]): string {
  const servers = daemons.map((daemon) => `    server 127.0.0.1:${daemon.port};`).join('\n');
  return `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/client-body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream skillsd {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://skillsd;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_read_timeout 3600s;
      proxy_next_upstream error timeout;
    }
  }
}
`;
}

/** A loopback port nothing listens on: bound, then released for nginx. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/**
 * nginx in front of `daemons` on a free loopback port. Started again on another port when the one `freePort` released
 * was taken before nginx bound it (other programs open listeners all the time); any other exit fails the test.
 */
async function startNginx(conf: string, daemons: RunningDaemon[]): Promise<{ nginx: ChildProcess; port: number }> {
  await mkdir(conf, { recursive: true });
  for (;;) {
    const port = await freePort();
    await writeFile(`${conf}/nginx.conf`, nginxConfig(conf, port, daemons));
    await rm(`${conf}/error.log`, { force: true });
    const nginx = spawn(NGINX!, ['-p', `${conf}/`, '-c', `${conf}/nginx.conf`, '-e', `${conf}/error.log`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => nginx.once('exit', () => resolve()));
    let stderr = '';
    nginx.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    if (await waitForPort(port, () => nginx.exitCode !== null || nginx.signalCode !== null)) return { nginx, port };
    await exited;
    const said = `${stderr}${await readFile(`${conf}/error.log`, 'utf8').catch(() => '')}`;
    assert.match(said, /Address already in use/, `nginx exited: ${said}`);
  }
}

/** Until `port` accepts a connection (true), or the proxy exited (false). */
async function waitForPort(port: number, exited: () => boolean): Promise<boolean> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (exited()) return false;
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    assert.ok(Date.now() < deadline, `nginx did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
