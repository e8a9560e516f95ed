// A live workspace's doctor keeps each directory's report while nothing under the directory changed and every
// candidate wins or loses as before (doctor-memo.ts `directoryReport`): an edit makes its own directory's report
// again, and a change of another directory's winners makes that one again too. Checked against a doctor with no memo.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diagnoseWorkspace } from '../../../src/discovery/doctor/diagnose-workspace.js';
import { DoctorMemo } from '../../../src/discovery/doctor/doctor-memo.js';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import type { DiscoveryContext } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';

const workspace = workspaceFactory('skillsd-doctor-dirs-');

async function diagnose(ctx: DiscoveryContext, memo?: DoctorMemo) {
  const result = await discoverSkills(ctx);
  return diagnoseWorkspace({
    ctx,
    skills: result.skills,
    collisions: result.collisions,
    ...(memo === undefined ? {} : { memo }),
  });
}

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\nBody.\n`;

describe('the doctor’s directory reports', () => {
  it('are kept for directories nothing changed under, and made again where a change reaches', async () => {
    const { base, ctx } = await workspace({
      'P/.claude/skills/alpha/SKILL.md': skill('alpha', 'first'),
      'P/.claude/skills/beta/SKILL.md': skill('beta', 'second'),
      'P/.musepi/skills/gamma/SKILL.md': skill('gamma', 'third'),
    });
    const memo = new DoctorMemo();
    const first = await diagnose(ctx, memo);
    const byName = (diagnosis: typeof first, name: string) => diagnosis.candidates.find((c) => c.name === name);
    assert.ok(byName(first, 'alpha') !== undefined && byName(first, 'gamma') !== undefined);

    // A description edited in .musepi/skills: that directory is explained again, .claude/skills is kept as it was.
    const gamma = join(base, 'P/.musepi/skills/gamma/SKILL.md');
    await writeFile(gamma, skill('gamma', 'edited'));
    await memo.invalidate(false, [gamma]);
    const second = await diagnose(ctx, memo);
    assert.equal(byName(second, 'alpha'), byName(first, 'alpha'));
    assert.notEqual(byName(second, 'gamma'), byName(first, 'gamma'));
    assert.deepEqual(second, await diagnose(ctx));

    // gamma renamed alpha: nothing changed under .claude/skills, but its alpha now wins or loses against another
    // file, so that directory is explained again as well; the answer is the memo-less doctor's.
    await writeFile(gamma, skill('alpha', 'edited again'));
    await memo.invalidate(false, [gamma]);
    const third = await diagnose(ctx, memo);
    assert.deepEqual(third, await diagnose(ctx));
    assert.equal(third.candidates.filter((candidate) => candidate.name === 'alpha').length, 2);
    assert.ok(third.candidates.some((candidate) => candidate.name === 'alpha' && candidate.outcome === 'shadowed'));
    assert.notEqual(byName(third, 'beta'), byName(second, 'beta'));
  });
});
