// The doctor of a live workspace's views lists folders and reads SKILL.md files through the views' own reads
// (doctor/types.ts `SharedReads`): only what lies at its real path, and always with the answer of a doctor that reads
// for itself. The tree holds what must not be taken from the views: linked folders and files, a file over the 1 MiB
// cap, a folder without SKILL.md, SKILL.md in the wrong case (twice), one level too deep.

import assert from 'node:assert/strict';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AgentFileTexts } from '../../../src/discovery/agents/file-texts.js';
import { RootWalkMemo } from '../../../src/discovery/agents/walk-memo.js';
import { diagnoseWorkspace } from '../../../src/discovery/doctor/diagnose-workspace.js';
import type { SharedReads } from '../../../src/discovery/doctor/types.js';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import type { DiscoveryContext } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';

const workspace = workspaceFactory('skillsd-doctor-shared-');

const skill = (name: string, description: string, body = 'Body.') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

async function diagnose(ctx: DiscoveryContext, shared?: SharedReads) {
  const result = await discoverSkills(ctx);
  return diagnoseWorkspace({
    ctx,
    skills: result.skills,
    collisions: result.collisions,
    ...(shared === undefined ? {} : { shared }),
  });
}

/** The views' listings and texts, counting what the doctor asked of them. */
function countedReads(): { shared: SharedReads; listed: string[]; read: string[] } {
  const walks = new RootWalkMemo();
  const texts = new AgentFileTexts();
  texts.begin();
  const listed: string[] = [];
  const read: string[] = [];
  return {
    listed,
    read,
    shared: {
      list: (dir) => {
        listed.push(dir);
        return walks.listing(dir);
      },
      text: (path) => {
        read.push(path);
        return texts.read(path);
      },
    },
  };
}

describe('the doctor with the views’ reads', () => {
  it('answers as the doctor that reads for itself, and takes from the views only what lies at its real path', async () => {
    const { base, ctx } = await workspace({
      'P/.claude/skills/plain/SKILL.md': skill('plain', 'fine', 'See [the guide](guide.md) and scripts/run.sh.'),
      'P/.claude/skills/plain/scripts/run.sh': 'echo\n',
      'P/.claude/skills/bad-name/SKILL.md': skill('Bad_Name', 'a name against the specification'),
      'P/.claude/skills/big/SKILL.md': skill('big', 'over the cap', 'x'.repeat(1024 * 1024 + 10)),
      'P/.claude/skills/no-skill/README.md': 'nothing\n',
      'P/.claude/skills/two-cases/skill.md': skill('two-cases', 'lower case'),
      'P/.claude/skills/two-cases/Skill.md': skill('two-cases', 'mixed case'),
      'P/.claude/skills/group/inner/SKILL.md': skill('inner', 'one level too deep'),
      'P/.claude/skills/linked-folder': { symlink: '../../library/folder' },
      'P/.claude/skills/linked-file/SKILL.md': { symlink: '../../../library/file.md' },
      'P/.musepi/skills': { symlink: '../.claude/skills' },
      'P/library/folder/SKILL.md': skill('linked-folder', 'behind a folder link'),
      'P/library/file.md': skill('linked-file', 'behind a file link'),
    });
    const alone = await diagnose(ctx);
    const { shared, listed, read } = countedReads();
    assert.deepEqual(await diagnose(ctx, shared), alone);

    // The tree gives findings of every kind it was written for.
    const rules = new Set(alone.findings.map((finding) => finding.rule));
    for (const rule of ['no-skill-md', 'wrong-case-skill-md', 'skill-md-too-deep', 'missing-referenced-file']) {
      assert.ok(rules.has(rule), `${rule} in ${[...rules]}`);
    }
    // Shared: the real folders of the real skills directory (a folder holding a linked SKILL.md is one), and the
    // SKILL.md files that are no links; never the linked folder, the linked file, nor anything under the skills
    // directory reached through a link (.musepi/skills).
    const claude = join(await realpath(base), 'P/.claude/skills');
    assert.deepEqual([...new Set(listed)].sort(), [
      `${claude}/bad-name`,
      `${claude}/big`,
      `${claude}/group`,
      `${claude}/linked-file`,
      `${claude}/no-skill`,
      `${claude}/plain`,
      `${claude}/two-cases`,
    ]);
    assert.deepEqual([...new Set(read)].sort(), [
      `${claude}/bad-name/SKILL.md`,
      `${claude}/big/SKILL.md`,
      `${claude}/plain/SKILL.md`,
    ]);
  });
});
