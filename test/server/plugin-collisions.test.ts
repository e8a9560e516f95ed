// Collisions name the plugin a candidate came with (SKILLS.md §4a, API.md `Collision`): `source.plugin` in
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
});
