import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

describe('GET /collisions', () => {
  it('lists every contested name with its winner and losers (docs/discovery.md §11 ex. 9)', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/.claude/skills/shared-name/SKILL.md': SK({ description: 'default' }),
        'custom/shared-name/SKILL.md': SK({ description: 'custom' }),
      },
      settings: { skills: { customDirectories: ['../custom'] } },
    });
    const { status, headers, body } = await getJson(`${s.base}/collisions`);
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), 'application/json; charset=utf-8');
    // A relative custom directory stays relative in filePath; source.path is absolute (docs/discovery.md §5 step 4).
    const customPath = `${s.root}/custom/shared-name/SKILL.md`;
    const claudePath = `${s.cwd}/.claude/skills/shared-name/SKILL.md`;
    assert.deepEqual(body, {
      generation: 1,
      collisions: [
        {
          name: 'shared-name',
          winner: {
            filePath: '../custom/shared-name/SKILL.md',
            source: { id: 'custom:user', provider: 'custom', providerName: 'Custom', level: 'user', path: customPath },
          },
          shadowed: [
            {
              filePath: claudePath,
              source: {
                id: 'claude:project',
                provider: 'claude',
                providerName: 'Claude Code',
                level: 'project',
                path: claudePath,
              },
              reason: 'custom-override',
            },
          ],
        },
      ],
    });
  });

  it('answers an empty list, and reads the workspace of ?cwd=', async (t) => {
    const s = await startServer(t, {
      tree: {
        'other/.musepi/skills/x/SKILL.md': SK({ description: 'N' }),
        'other/.agents/skills/x/SKILL.md': SK({ description: 'A' }),
      },
    });
    assert.deepEqual((await getJson(`${s.base}/collisions`)).body, { generation: 1, collisions: [] });
    const other = await getJson(`${s.base}/collisions?cwd=${encodeURIComponent(`${s.root}/other`)}`);
    assert.equal(other.status, 200);
    assert.deepEqual(
      other.body.collisions.map((c: { name: string; shadowed: { reason: string }[] }) => [
        c.name,
        c.shadowed[0]?.reason,
      ]),
      [['x', 'precedence']],
    );
  });
});
