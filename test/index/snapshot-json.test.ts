import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discoverSkills } from '../../src/discovery/discover-skills.js';
import { createScanMemo } from '../../src/discovery/scan-memo.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { DiscoveryContext } from '../../src/discovery/types.js';
import { snapshotContent } from '../../src/index/snapshot.js';
import { SnapshotSerializer } from '../../src/index/snapshot-json.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

describe('SnapshotSerializer', () => {
  it('gives the very text and hash of snapshotContent, also across reloads that keep records', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    await writeTree(dir, {
      'H/.keep': '',
      'P/.git/HEAD': '',
      'P/.musepi/skills/a/SKILL.md': SK({ description: 'quote " and \\\\ and \u2028 and é' }),
      'P/.claude/skills/a/SKILL.md': SK({ description: 'shadowed' }),
      'H/.agents/skills/b/SKILL.md': '---\nname: b\ndescription: x\nmetadata:\n  k: [1, 2]\n---\n',
      'H/.agents/skills/c/SKILL.md': '---\nname: [unclosed\n---\n',
      'H/.musepi/agent/managed-skills/m/SKILL.md': SK({ description: 'managed' }),
    });
    const ctx: DiscoveryContext = {
      home: join(dir, 'H'),
      cwd: join(dir, 'P'),
      env: {},
      settings: defaultSettings(),
    };
    const serializer = new SnapshotSerializer();
    const scans = createScanMemo();
    for (const profile of ['musepi', 'xcsh'] as const) {
      const result = await discoverSkills(ctx, { scans });
      assert.deepEqual(serializer.content(ctx.cwd, profile, result), snapshotContent(ctx.cwd, profile, result));
    }
    await writeFile(join(dir, 'H/.agents/skills/b/SKILL.md'), SK({ name: 'b', description: 'edited' }));
    assert.equal(scans.invalidate([join(dir, 'H/.agents/skills/b/SKILL.md')]), true);
    const result = await discoverSkills(ctx, { scans });
    const content = serializer.content(ctx.cwd, 'musepi', result);
    assert.deepEqual(content, snapshotContent(ctx.cwd, 'musepi', result));
    assert.ok(content.json.includes('"description":"edited"'));
  });
});
