// Workspaces that keep agent views are bounded (SECURITY.md "The views", docs/api.md "Agent views"): requests naming
// distinct `?cwd=` below one repository each used to compute and keep every view of every skill, memory growing with
// the number of workspaces asked about. Now at most `server.maxViewWorkspaces` (4) keep them; one more drops the least
// recently used workspace's views, which its next request computes again, to the same answer. Views a stream follows
// are not dropped. Concurrent first requests of one workspace share one computation.

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { discoverSkillChange } from '../../src/discovery/pipeline/discover-skills.js';
import { parseSettings } from '../../src/discovery/settings.js';
import { holdBackground } from '../../src/discovery/time-slices.js';
import type { DiscoverFn } from '../../src/live-index/workspace-index-options.js';
import { DEFAULT_MAX_VIEW_WORKSPACES, MAX_FIRST_VIEW_COMPUTATIONS } from '../../src/live-index/workspace-registry.js';
import { type JsonBody, startServer, type TestServer } from '../helpers/app-server.js';
import { WAIT_MS, waitUntil } from '../helpers/deadlines.js';
import { SseClient } from '../helpers/sse-client.js';
import { SK } from '../helpers/temp-tree.js';

const SKILLS = 300;
const WORKSPACES = 12;
/** A first computation of the views waits this long before 503: twelve at once take seconds on a loaded machine. */
const VIEWS_WAIT_MS = 4 * WAIT_MS;
const nameOf = (i: number) => `p${String(i).padStart(3, '0')}`;

interface Served {
  server: TestServer;
  /** `work/sub0` … `work/sub11`: each a workspace of its own, inside the repository that holds the skills. */
  dirs: string[];
  /** First views computed per workspace, counted by the discoveries of the other profiles they make. */
  profileDiscoveries: Map<string, number>;
}

async function serve(t: TestContext, settings?: unknown): Promise<Served> {
  const tree: Record<string, string> = {};
  for (let i = 0; i < SKILLS; i++) {
    tree[`work/.claude/skills/${nameOf(i)}/SKILL.md`] = SK({ description: `Project skill ${i}` });
  }
  const profileDiscoveries = new Map<string, number>();
  const server = await startServer(t, {
    tree,
    settings,
    app: { readyWaitMs: VIEWS_WAIT_MS },
    registry: { discover: countingDiscover(profileDiscoveries) },
  });
  const dirs = Array.from({ length: WORKSPACES }, (_, i) => `${server.cwd}/sub${i}`);
  for (const dir of dirs) await mkdir(dir);
  return { server, dirs, profileDiscoveries };
}

/**
 * Discovery as usual, counting per workspace those of a profile other than the daemon's: only a computation of the
 * agent views makes them, the same number each time.
 */
function countingDiscover(counts: Map<string, number>): DiscoverFn {
  return (ctx, options) => {
    if (ctx.settings.profile !== 'musepi') counts.set(ctx.cwd, (counts.get(ctx.cwd) ?? 0) + 1);
    return discoverSkillChange(ctx, options);
  };
}

async function matrixOf(served: Served, cwd: string): Promise<{ etag: string | null; body: JsonBody }> {
  const response = await fetch(`${served.server.base}/agents?cwd=${encodeURIComponent(cwd)}`);
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return { etag: response.headers.get('etag'), body: JSON.parse(text) };
}

/** Every SKILL.md of the repository, loaded by Claude Code, whichever workspace below it asked. */
function assertMatrix(served: Served, body: JsonBody): void {
  assert.equal(body.skills.length, SKILLS);
  assert.deepEqual(
    body.skills.map((row: JsonBody) => row.name),
    Array.from({ length: SKILLS }, (_, i) => nameOf(i)),
  );
  const first = body.skills[0];
  assert.equal(first.filePath, `${served.server.cwd}/.claude/skills/p000/SKILL.md`);
  assert.equal(first.views['claude-code'].status, 'loaded');
}

describe('workspaces that keep agent views', () => {
  it('twelve ?cwd= workspaces at once: each answers in full, at most four keep their views', async (t) => {
    const served = await serve(t);
    const { registry } = served.server;
    assert.equal(registry.maxViewWorkspaces, DEFAULT_MAX_VIEW_WORKSPACES);
    assert.equal(DEFAULT_MAX_VIEW_WORKSPACES, 4);

    const answers = await Promise.all(served.dirs.map((dir) => matrixOf(served, dir)));
    for (const answer of answers) assertMatrix(served, answer.body);
    // The twelve first computations took turns, two at a time, however many were asked at once.
    assert.equal(MAX_FIRST_VIEW_COMPUTATIONS, 2);
    assert.equal(registry.firstViewsGate.stats.peak, 2);
    assert.equal(registry.firstViewsGate.stats.running, 0);
    assert.equal(registry.size, WORKSPACES + 1);
    assert.equal(registry.viewWorkspaces, 4);
    const kept = served.server.registry.viewWorkspaceDirs();
    assert.equal(kept.length, 4);

    // A workspace whose views were dropped computes them again, to the same answer; one of the four is dropped.
    const dropped = served.dirs.find((dir) => !kept.includes(dir)) as string;
    const again = await matrixOf(served, dropped);
    assert.deepEqual(again, answers[served.dirs.indexOf(dropped)]);
    assert.equal(registry.viewWorkspaces, 4);
    assert.ok(served.server.registry.viewWorkspaceDirs().includes(dropped));
    assert.equal(served.profileDiscoveries.get(dropped), 2 * (served.profileDiscoveries.get(kept[0]!) ?? 0));

    // A lower bound from a config reload applies at once.
    await registry.applySettings(parseSettings({ server: { maxViewWorkspaces: 2 } }), 'test');
    assert.equal(registry.maxViewWorkspaces, 2);
    assert.equal(registry.viewWorkspaces, 2);
  });

  it('concurrent first requests of one workspace share one computation', async (t) => {
    const served = await serve(t);
    const [one, many] = served.dirs as [string, string];
    assertMatrix(served, (await matrixOf(served, one)).body);
    const perComputation = served.profileDiscoveries.get(one);
    // The two other profiles (omp and xcsh) are discovered once per computation of the views.
    assert.equal(perComputation, 2);

    const answers = await Promise.all(Array.from({ length: 6 }, () => matrixOf(served, many)));
    for (const answer of answers) assert.deepEqual(answer, answers[0]);
    assertMatrix(served, answers[0]!.body);
    assert.equal(served.profileDiscoveries.get(many), perComputation);
  });

  it('views a stream follows are not dropped; server.maxViewWorkspaces sets the bound', async (t) => {
    assert.throws(
      () => parseSettings({ server: { maxViewWorkspaces: 0 } }),
      /"server\.maxViewWorkspaces" must be an integer from 1 to 1000, got 0/,
    );
    const served = await serve(t, { server: { maxViewWorkspaces: 1 } });
    const { registry } = served.server;
    const [followed, second, third] = served.dirs as [string, string, string];
    const stream = await SseClient.connect(
      `${served.server.base}/events?agent=claude-code&cwd=${encodeURIComponent(followed)}`,
    );
    t.after(() => stream.close());
    assert.equal(stream.status, 200);
    await stream.next((event) => event.event === 'hello');
    assert.deepEqual(served.server.registry.viewWorkspaceDirs(), [followed]);

    // Over the bound, but the only other holder is followed: both keep their views.
    assertMatrix(served, (await matrixOf(served, second)).body);
    assert.deepEqual(served.server.registry.viewWorkspaceDirs(), [followed, second]);
    assert.equal(registry.viewWorkspaces, 2);

    // The stream gone, the next workspace to compute its views leaves only its own, from the moment they are set:
    // the bound is not left to background work, which another request in progress holds back.
    stream.close();
    await waitUntil('the stream released', () => served.server.app.eventStreams.size === 0);
    const release = holdBackground();
    try {
      assertMatrix(served, (await matrixOf(served, third)).body);
      assert.deepEqual(served.server.registry.viewWorkspaceDirs(), [third]);
      assert.equal(registry.viewWorkspaces, 1);
    } finally {
      release();
    }
  });
});
