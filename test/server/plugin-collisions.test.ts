// Collisions name the plugin a candidate came with (docs/discovery.md §4a, docs/api.md `Collision`): `source.plugin` in
// GET /collisions and in GET /skills/{name}'s `shadowed`, absent for candidates of other providers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { agentManifest } from '../helpers/plugin-trees.js';
import { SK } from '../helpers/temp-tree.js';

const app = { pressure: { maxEventLoopDelayMs: 60_000 } };

describe('plugin candidates in collisions', () => {
  it('GET /collisions and GET /skills/{name} carry source.plugin', async (t) => {
    const s = await startServer(t, {
      app,
      tree: {
        // Two extension packages of the workspace: `ext` (omp-plugins, 90) and `kit`, an Agent Plugin (75).
        'work/.musepi/settings.json': JSON.stringify({ extensions: ['../ext', '../kit'] }),
        'ext/package.json': JSON.stringify({ name: '@team/ext' }),
        'ext/skills/lint/SKILL.md': SK({ description: 'From ext' }),
        'kit/plugin.json': agentManifest('kit'),
        'kit/skills/lint/SKILL.md': SK({ name: 'lint', description: 'From kit' }),
        'work/.claude/skills/lint/SKILL.md': SK({ description: 'From claude' }),
      },
    });
    const ext = `${s.root}/ext/skills/lint/SKILL.md`;
    const kit = `${s.root}/kit/skills/lint/SKILL.md`;
    const claude = `${s.cwd}/.claude/skills/lint/SKILL.md`;
    const shadowed = [
      {
        filePath: claude,
        source: {
          id: 'claude:project',
          provider: 'claude',
          providerName: 'Claude Code',
          level: 'project',
          path: claude,
        },
        reason: 'precedence',
      },
      {
        filePath: kit,
        source: {
          id: 'agent-plugins:project',
          provider: 'agent-plugins',
          providerName: 'Agent Plugins',
          level: 'project',
          path: kit,
          plugin: 'kit',
        },
        reason: 'precedence',
      },
    ];
    const winnerSource = {
      id: 'omp-plugins:project',
      provider: 'omp-plugins',
      providerName: 'OMP Extension Packages',
      level: 'project',
      path: ext,
      plugin: '@team/ext',
    };
    assert.deepEqual((await getJson(`${s.base}/collisions`)).body, {
      generation: 1,
      collisions: [{ name: 'lint', winner: { filePath: ext, source: winnerSource }, shadowed }],
    });
    const skill = await getJson(`${s.base}/skills/lint`);
    assert.equal(skill.status, 200);
    assert.deepEqual(skill.body.source, winnerSource);
    assert.deepEqual(skill.body.shadowed, shadowed);
  });

  it('GET /doctor/{name} lists the plugin candidates with the others, and says why a plugin skill was skipped', async (t) => {
    const s = await startServer(t, {
      app,
      tree: {
        'work/.musepi/settings.json': JSON.stringify({ extensions: ['../ext', '../kit'] }),
        'ext/package.json': JSON.stringify({ name: '@team/ext' }),
        'ext/skills/lint/SKILL.md': SK({ description: 'From ext' }),
        'kit/plugin.json': agentManifest('kit'),
        'kit/skills/lint/SKILL.md': SK({ name: 'lint', description: 'From kit' }),
        // Strict validation (Agent Plugins): a name that is not its folder's is skipped.
        'kit/skills/fmt/SKILL.md': SK({ name: 'format', description: 'Formats' }),
        'work/.claude/skills/lint/SKILL.md': SK({ description: 'From claude' }),
      },
    });
    const lint = await getJson(`${s.base}/doctor/lint`);
    assert.equal(lint.status, 200);
    assert.equal(lint.body.winner.filePath, `${s.root}/ext/skills/lint/SKILL.md`);
    assert.deepEqual(
      lint.body.candidates.map((c: { outcome: string; filePath: string; source: { id: string; plugin?: string } }) => [
        c.outcome,
        c.source.id,
        c.source.plugin ?? null,
        c.filePath,
      ]),
      [
        ['loaded', 'omp-plugins:project', '@team/ext', `${s.root}/ext/skills/lint/SKILL.md`],
        // Providers in priority order: claude (80) before agent-plugins (75).
        ['shadowed', 'claude:project', null, `${s.cwd}/.claude/skills/lint/SKILL.md`],
        ['shadowed', 'agent-plugins:project', 'kit', `${s.root}/kit/skills/lint/SKILL.md`],
      ],
    );
    const fmt = await getJson(`${s.base}/doctor/fmt`);
    assert.equal(fmt.status, 200);
    assert.equal(fmt.body.winner, null);
    assert.equal(fmt.body.candidates.length, 1);
    assert.equal(fmt.body.candidates[0].outcome, 'skipped');
    assert.equal(fmt.body.candidates[0].source.plugin, 'kit');
    assert.equal(fmt.body.candidates[0].filePath, `${s.root}/kit/skills/fmt/SKILL.md`);
    assert.equal(fmt.body.candidates[0].reason, '"name" "format" does not match directory "fmt"');
  });
});
