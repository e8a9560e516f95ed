// The filters of `GET /skills` (docs/api.md "GET /skills"): the collisions kept are those of the kept skills' names,
// in the default view and in a profile's agent view; an unknown `provider=` is 400 `BadRequest` with the allowed
// values of the profile whose skills are listed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer, type TestServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

// `dup`: native (project) wins over claude (project). `twin`: claude (user) wins over agents (project). `solo`: alone.
const TREE = {
  'work/.musepi/skills/dup/SKILL.md': SK({ description: 'Native copy' }),
  'work/.claude/skills/dup/SKILL.md': SK({ description: 'Claude copy' }),
  'home/.claude/skills/twin/SKILL.md': SK({ description: 'User twin' }),
  'work/.agents/skills/twin/SKILL.md': SK({ description: 'Project twin' }),
  'work/.musepi/skills/solo/SKILL.md': SK({ description: 'Alone' }),
};

const MUSEPI_PROVIDERS =
  'native, omp-plugins, claude, agent-plugins, claude-plugins, agents, codex, opencode, github, musepi-managed, custom';
const XCSH_PROVIDERS = 'native, claude, claude-plugins, agents, codex, opencode, custom';

async function namesOf(s: TestServer, query: string): Promise<{ skills: string[]; collisions: string[] }> {
  const { status, body } = await getJson(`${s.base}/skills?${query}`);
  assert.equal(status, 200, query);
  return {
    skills: body.skills.map((skill: { name: string }) => skill.name),
    collisions: body.collisions.map((collision: { name: string }) => collision.name),
  };
}

describe('GET /skills filters', () => {
  it('keep the collisions of the kept skills’ names, by q, provider and level', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const cases: Array<[string, string[], string[]]> = [
      ['', ['dup', 'solo', 'twin'], ['dup', 'twin']],
      ['q=twin', ['twin'], ['twin']],
      // q= reads the description too: the collision goes with its loaded skill.
      ['q=native%20copy', ['dup'], ['dup']],
      ['q=alone', ['solo'], []],
      ['provider=claude', ['twin'], ['twin']],
      ['provider=native', ['dup', 'solo'], ['dup']],
      ['provider=claude:user', ['twin'], ['twin']],
      ['provider=agents', [], []],
      ['level=user', ['twin'], ['twin']],
      ['level=project', ['dup', 'solo'], ['dup']],
      ['level=project&q=dup', ['dup'], ['dup']],
    ];
    for (const [query, skills, collisions] of cases) {
      assert.deepEqual(await namesOf(s, query), { skills, collisions }, query);
    }
    const { body } = await getJson(`${s.base}/skills?provider=claude`);
    const claudeUser = {
      id: 'claude:user',
      provider: 'claude',
      providerName: 'Claude Code',
      level: 'user',
      path: `${s.home}/.claude/skills/twin/SKILL.md`,
    };
    assert.deepEqual(body.collisions, [
      {
        name: 'twin',
        winner: { filePath: claudeUser.path, source: claudeUser },
        shadowed: [
          {
            filePath: `${s.cwd}/.agents/skills/twin/SKILL.md`,
            source: {
              id: 'agents:project',
              provider: 'agents',
              providerName: 'Agent Dirs (.agent/.agents)',
              level: 'project',
              path: `${s.cwd}/.agents/skills/twin/SKILL.md`,
            },
            reason: 'precedence',
          },
        ],
      },
    ]);
    assert.equal(body.generation, 1);
  });

  it('keep the collisions of the kept skills’ names in a profile’s agent view', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const cases: Array<[string, string[], string[]]> = [
      ['agent=musepi', ['dup', 'solo', 'twin'], ['dup', 'twin']],
      ['agent=musepi&q=twin', ['twin'], ['twin']],
      ['agent=musepi&provider=claude', ['twin'], ['twin']],
      ['agent=musepi&level=project', ['dup', 'solo'], ['dup']],
      ['agent=musepi&q=alone', ['solo'], []],
    ];
    for (const [query, skills, collisions] of cases) {
      assert.deepEqual(await namesOf(s, query), { skills, collisions }, query);
    }
  });

  it('refuses a provider= that is no provider of the profile with 400 BadRequest and the allowed values', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const refusals: Array<[string, string]> = [
      ['provider=claude-code', `Unknown provider: claude-code. Providers of profile musepi: ${MUSEPI_PROVIDERS}`],
      ['provider=claude:team', `Unknown provider: claude:team. Providers of profile musepi: ${MUSEPI_PROVIDERS}`],
      ['provider=omp-managed', `Unknown provider: omp-managed. Providers of profile musepi: ${MUSEPI_PROVIDERS}`],
      [
        'agent=xcsh&provider=omp-plugins',
        `Unknown provider: omp-plugins. Providers of profile xcsh: ${XCSH_PROVIDERS}`,
      ],
    ];
    for (const [query, allowed] of refusals) {
      const { status, body } = await getJson(`${s.base}/skills?${query}`);
      assert.equal(status, 400, query);
      assert.deepEqual(
        body,
        {
          statusCode: 400,
          code: 'BadRequest',
          error: 'Bad Request',
          message: `${allowed}; or a source id <provider>:user or <provider>:project`,
        },
        query,
      );
    }
    // Every provider of the profile, and each as a source id, is a filter (matching nothing is then an answer).
    for (const query of [
      'provider=github',
      'provider=custom:user',
      'provider=musepi-managed',
      'agent=omp&provider=omp-plugins',
    ]) {
      const { status } = await getJson(`${s.base}/skills?${query}`);
      assert.equal(status, 200, query);
    }
    // With another agent, provider= is refused as before, and an unknown agent first of all.
    const other = await getJson(`${s.base}/skills?agent=codex&provider=claude`);
    assert.equal(other.status, 400);
    assert.equal(
      other.body.message,
      "provider= filters the profiles' views only; it cannot be combined with agent=codex",
    );
    const unknown = await getJson(`${s.base}/skills?agent=cursor&provider=nobody`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'UnknownAgent');
  });
});
