// GET /doctor and GET /doctor/{name} over a real socket.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

/** Load shedding off: a busy test machine's event loop lag would answer 503 Overloaded (tested elsewhere). */
const CALM = { app: { pressure: { maxEventLoopDelayMs: 0 } } };

describe('GET /doctor', () => {
  it('lists every directory looked at, the findings, warnings, collisions and the watch mode', async (t) => {
    const server = await startServer(t, {
      ...CALM,
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
        'work/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'Other' }),
        'work/.claude/skills/lower/skill.md': SK({ description: 'd' }),
      },
    });
    const { status, body } = await getJson(`${server.base}/doctor`);
    assert.equal(status, 200);
    assert.equal(body.generation, 1);
    assert.equal(body.cwd, server.cwd);
    assert.equal(body.profile, 'musepi');
    assert.deepEqual(body.watch, { mode: 'off' });
    assert.deepEqual(body.directories[0], {
      path: `${server.cwd}/.musepi/skills`,
      provider: 'native',
      level: 'project',
      exists: true,
      readable: true,
      skills: 1,
    });
    assert.deepEqual(
      body.findings.map((f: { rule: string; severity: string }) => [f.rule, f.severity]),
      [
        ['wrong-case-skill-md', 'error'],
        ['shadowed', 'info'],
      ],
    );
    assert.equal(body.collisions.length, 1);
    assert.deepEqual(body.warnings, []);
  });

  it('/doctor/{name} gives every candidate and the winner; an unclaimed name answers 200 with none', async (t) => {
    const server = await startServer(t, {
      ...CALM,
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
        'work/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'Other' }),
      },
    });
    const { body } = await getJson(`${server.base}/doctor/pdf`);
    assert.equal(body.name, 'pdf');
    assert.equal(body.winner.filePath, `${server.cwd}/.musepi/skills/pdf/SKILL.md`);
    assert.deepEqual(
      body.candidates.map((c: { outcome: string; source: { id: string } }) => [c.outcome, c.source.id]),
      [
        ['loaded', 'native:project'],
        ['shadowed', 'claude:project'],
      ],
    );
    const none = await getJson(`${server.base}/doctor/nobody`);
    assert.equal(none.status, 200);
    // No agent has a file of that name either (docs/api.md "Agent views").
    assert.deepEqual(none.body, { name: 'nobody', winner: null, candidates: [], findings: [], agents: {} });
  });
});
