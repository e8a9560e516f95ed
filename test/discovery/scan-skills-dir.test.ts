import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanSkillsDir } from '../../src/discovery/scan-skills-dir.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const NATIVE = { profile: 'musepi', provider: 'native', providerName: 'MusePi', level: 'project' } as const;

describe('scanSkillsDir (SKILLS.md §3)', () => {
  it('builds the skill record of §1 (worked example 1)', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    await writeTree(dir, { 'pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) });
    const result = await scanSkillsDir(dir, { ...NATIVE, requireDescription: true });
    assert.deepEqual(result, {
      warnings: [],
      skills: [
        {
          name: 'pdf',
          description: 'PDF tools',
          filePath: `${dir}/pdf/SKILL.md`,
          baseDir: `${dir}/pdf`,
          hide: false,
          source: {
            id: 'native:project',
            provider: 'native',
            providerName: 'MusePi',
            level: 'project',
            path: `${dir}/pdf/SKILL.md`,
          },
          frontmatter: { name: 'pdf', description: 'PDF tools' },
        },
      ],
    });
  });
});
