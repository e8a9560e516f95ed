// The client's wait for the agent views (`viewsWaitMs`, docs/api.md "Agent views"): against a real app on a real port
// whose request wait is nothing, so that every read of the views answers 503 `NotReady` until the test lets them be
// computed.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SkillsdApiError } from '../../src/client/errors.js';
import { SkillsdClient } from '../../src/client/skillsd-client.js';
import { getJson, startServer } from '../helpers/app-server.js';
import { WAIT_MS, waitUntil } from '../helpers/deadlines.js';
import { SK } from '../helpers/temp-tree.js';

async function heldServer(t: Parameters<typeof startServer>[0]) {
  let release: () => void = () => {};
  const hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  const s = await startServer(t, {
    tree: { 'work/.claude/skills/review/SKILL.md': SK({ name: 'review', description: 'Review a change' }) },
    app: { readyWaitMs: 0 },
    holdViews: hold,
  });
  // Let through before the server closes: nothing is left waiting for the views.
  t.after(() => release());
  const asked: string[] = [];
  s.app.server.on('request', (request: { url?: string }) => asked.push(request.url ?? ''));
  return { s, release, asked };
}

it('agents, agentSkills, catalog and doctorSkill ask again while the views are computed, then answer', async (t) => {
  const { s, release, asked } = await heldServer(t);
  const told: Array<number | undefined> = [];
  const client = new SkillsdClient({ url: s.base, viewsWaitMs: WAIT_MS, onViewsWait: (ms) => told.push(ms) });
  const calls = Promise.all([
    client.agents(),
    client.agentSkills('claude-code'),
    client.catalog('claude-code'),
    client.doctorSkill('review'),
  ]);
  const paths = ['/agents', '/skills?agent=claude-code', '/catalog?agent=claude-code', '/doctor/review'];
  await waitUntil('every call asked twice', () =>
    paths.every((path) => asked.filter((url) => url === path).length >= 2),
  );
  release();
  const [agents, skills, catalog, doctor] = await calls;
  assert.deepEqual(agents, (await getJson(`${s.base}/agents`)).body);
  assert.deepEqual(skills, (await getJson(`${s.base}/skills?agent=claude-code`)).body);
  assert.deepEqual(catalog, (await getJson(`${s.base}/catalog?agent=claude-code`)).body);
  assert.deepEqual(doctor, (await getJson(`${s.base}/doctor/review`)).body);
  // Each call was told at least when its wait began and when it ended.
  assert.equal(told.filter((ms) => ms === undefined).length, 4);
  assert.ok(told.filter((ms) => typeof ms === 'number' && ms >= 0).length >= 4);
});

it('gives up after viewsWaitMs with the daemon’s NotReady, having told the time waited', async (t) => {
  const { s, asked } = await heldServer(t);
  const told: Array<number | undefined> = [];
  const client = new SkillsdClient({ url: s.base, viewsWaitMs: 1500, onViewsWait: (ms) => told.push(ms) });
  const started = Date.now();
  const error = await client.agents().catch((caught: unknown) => caught);
  assert.ok(Date.now() - started >= 1500);
  assert.ok(error instanceof SkillsdApiError);
  assert.equal(error.status, 503);
  assert.equal(error.code, 'NotReady');
  assert.equal(error.message, `The agent views of ${s.cwd} are still being computed`);
  assert.ok(asked.length >= 2);
  assert.equal(told.at(-1), undefined);
  assert.ok(told.slice(0, -1).every((ms) => typeof ms === 'number'));
});

it('without viewsWaitMs, a NotReady of the views is tried again like any 503 (`retries`)', async (t) => {
  const { s, asked } = await heldServer(t);
  const told: Array<number | undefined> = [];
  const client = new SkillsdClient({ url: s.base, retries: 0, onViewsWait: (ms) => told.push(ms) });
  const error = await client.agents().catch((caught: unknown) => caught);
  assert.ok(error instanceof SkillsdApiError);
  assert.equal(error.code, 'NotReady');
  assert.deepEqual(asked, ['/agents']);
  assert.deepEqual(told, []);
});
