// `GET /doctor` is computed once per generation and shared by concurrent requests (docs/api.md "Security
// defaults"), over a real socket: the count of reports computed is read from `GET /metrics`.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { startServer } from '../helpers/app-server.js';
import { waitUntil } from '../helpers/deadlines.js';
import { SK } from '../helpers/temp-tree.js';

/** Load shedding off: a busy test machine's event loop lag would answer 503 Overloaded (tested elsewhere). */
const CALM = { app: { pressure: { maxEventLoopDelayMs: 0 } } };

async function reportsComputed(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((each) => each.startsWith('skillsd_doctor_reports_total '));
  assert.ok(line, 'skillsd_doctor_reports_total is exposed');
  return Number(line.split(' ')[1]);
}

describe('GET /doctor, once per generation', () => {
  it('computes one report for twenty concurrent requests and the names asked after them', async (t) => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 50; i++) {
      tree[`work/.musepi/skills/s${i}/SKILL.md`] = SK({ name: `s${i}`, description: `Skill ${i}` });
    }
    const s = await startServer(t, { ...CALM, tree });
    assert.equal(await reportsComputed(s.base), 0);
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${s.base}/doctor`)));
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      Array(20).fill(200),
    );
    assert.equal(new Set(bodies).size, 1);
    assert.equal(await reportsComputed(s.base), 1);
    const named = await Promise.all(Array.from({ length: 5 }, (_, i) => fetch(`${s.base}/doctor/s${i}`)));
    assert.deepEqual(
      named.map((answer) => answer.status),
      Array(5).fill(200),
    );
    assert.equal(await reportsComputed(s.base), 1);
  });

  it('computes afresh when the generation moves', async (t) => {
    const s = await startServer(t, {
      ...CALM,
      watch: true,
      tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) },
    });
    const first = (await (await fetch(`${s.base}/doctor`)).json()) as { generation: number };
    assert.equal(await reportsComputed(s.base), 1);
    await writeFile(`${s.cwd}/.musepi/skills/pdf/SKILL.md`, SK({ name: 'pdf', description: 'PDF tools, edited' }));
    await waitUntil('the index moves on', async () => {
      const body = (await (await fetch(`${s.base}/skills`)).json()) as { generation: number };
      return body.generation > first.generation;
    });
    const second = (await (await fetch(`${s.base}/doctor`)).json()) as { generation: number };
    assert.ok(second.generation > first.generation);
    assert.equal(await reportsComputed(s.base), 2);
  });
});
