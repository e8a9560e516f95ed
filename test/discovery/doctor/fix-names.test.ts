// A fix never breaks another rule (docs/doctor.md "Fixes"): every name a hint proposes passes the naming rules, on
// names real skills carry (spaces, capitals, a name longer than 64, a folder that breaks the rules itself).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diagnoseWorkspace } from '../../../src/discovery/doctor/diagnose-workspace.js';
import { isSpecName, nameFix, specName } from '../../../src/discovery/doctor/spec-name.js';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';
import { SK } from '../../helpers/temp-tree.js';

const workspace = workspaceFactory('skillsd-fix-names-');

/** Every name or folder name a hint proposes: `name: X`, `rename the folder to X`, `move … to <dir>/X`. */
function proposals(hint: string): string[] {
  const out: string[] = [];
  for (const match of hint.matchAll(/name: ([^,\s]+(?: [^,\s]+)*?)(?=,| and | or |$)/g)) out.push(match[1]!);
  for (const match of hint.matchAll(/rename the folder to ("[^"]*"|[^,\s]+(?: [^,\s]+)*?)(?=,| or | and |$)/g)) {
    out.push(match[1]!.replace(/^"|"$/g, ''));
  }
  const moved = /^move .* to .*\/([^/]+)$/.exec(hint);
  if (moved !== null) out.push(moved[1]!);
  return out;
}

describe('doctor: the names fixes propose', () => {
  it('specName gives a name that passes the rules, and leaves one that passes as it is', () => {
    const cases: Array<[string, string]> = [
      ['Accessibility Auditor', 'accessibility-auditor'],
      ['pdf', 'pdf'],
      ['PDF Tools', 'pdf-tools'],
      ['  --Release   Notes!! ', 'release-notes'],
      ['my_skill.v2', 'my-skill-v2'],
      ['Ünïcode Ñame', 'n-code-ame'],
      ['***', 'my-skill'],
      ['', 'my-skill'],
      [`${'a'.repeat(63)} b`, 'a'.repeat(63)],
      ['x'.repeat(70), 'x'.repeat(64)],
    ];
    assert.deepEqual(
      cases.map(([text]) => [text, specName(text)]),
      cases,
    );
    for (const [text] of cases) assert.equal(isSpecName(specName(text)), true, text);
    assert.equal(nameFix('Accessibility Auditor', 'accessibility-auditor'), 'name: accessibility-auditor');
    assert.equal(
      nameFix('Release Notes', 'Release Notes'),
      'name: release-notes and rename the folder to release-notes',
    );
  });

  it('every hint of a tree of badly named skills proposes names that pass every naming rule', async () => {
    const C = 'P/.claude/skills';
    const long = `${'long-'.repeat(14)}name`;
    const { base, ctx } = await workspace({
      [`${C}/accessibility-auditor/SKILL.md`]: SK({ name: 'Accessibility Auditor', description: 'd' }),
      [`${C}/Release Notes/SKILL.md`]: SK({ description: 'd' }),
      [`${C}/Bare Folder/SKILL.md`]: '# No frontmatter\n',
      [`${C}/pdf-2/SKILL.md`]: SK({ name: 'pdf', description: 'd' }),
      [`${C}/Odd Folder/SKILL.md`]: SK({ name: 'fine-name', description: 'd' }),
      [`${C}/long/SKILL.md`]: SK({ name: long, description: 'd' }),
      [`${C}/Group/Deep Skill/SKILL.md`]: SK({ description: 'd' }),
      'P/.musepi/skills/Needs Description/SKILL.md': '# No frontmatter, and MusePi requires a description\n',
    });
    const result = await discoverSkills(ctx);
    const { findings } = await diagnoseWorkspace({ ctx, skills: result.skills, collisions: result.collisions });
    const dir = join(base, C);
    const hinted = findings
      .filter((finding) => finding.hint !== undefined && /name|folder|move/.test(finding.hint))
      .map((finding) => [finding.rule, finding.path.slice(base.length + 1), finding.hint]);
    const long64 = long.slice(0, 64);
    const both = (name: string) => `set name: ${name} and rename the folder to ${name}`;
    const frontmatter = (name: string) =>
      `start the file with: ---, name: ${name}, description: <when to use it>, ---, and rename the folder to ${name}`;
    assert.deepEqual(hinted, [
      ['description-required', 'P/.musepi/skills/Needs Description/SKILL.md', frontmatter('needs-description')],
      ['skill-md-too-deep', `${C}/Group/Deep Skill/SKILL.md`, `move ${dir}/Group/Deep Skill to ${dir}/deep-skill`],
      ['no-frontmatter', `${C}/Bare Folder/SKILL.md`, frontmatter('bare-folder')],
      ['spec-name-missing', `${C}/Bare Folder/SKILL.md`, 'add name: bare-folder and rename the folder to bare-folder'],
      ['spec-name-charset', `${C}/Bare Folder/SKILL.md`, both('bare-folder')],
      ['name-not-invocable', `${C}/Bare Folder/SKILL.md`, both('bare-folder')],
      ['spec-name-folder', `${C}/Odd Folder/SKILL.md`, 'rename the folder to fine-name'],
      [
        'spec-name-missing',
        `${C}/Release Notes/SKILL.md`,
        'add name: release-notes and rename the folder to release-notes',
      ],
      ['spec-name-charset', `${C}/Release Notes/SKILL.md`, both('release-notes')],
      ['name-not-invocable', `${C}/Release Notes/SKILL.md`, both('release-notes')],
      // The name the folder already has: nothing else to rename.
      ['spec-name-charset', `${C}/accessibility-auditor/SKILL.md`, 'set name: accessibility-auditor'],
      ['spec-name-folder', `${C}/accessibility-auditor/SKILL.md`, 'set name: accessibility-auditor'],
      ['name-not-invocable', `${C}/accessibility-auditor/SKILL.md`, 'set name: accessibility-auditor'],
      ['spec-name-length', `${C}/long/SKILL.md`, both(long64)],
      ['spec-name-folder', `${C}/long/SKILL.md`, both(long64)],
      // Both names pass: either fix does.
      ['spec-name-folder', `${C}/pdf-2/SKILL.md`, 'rename the folder to pdf or set name: pdf-2'],
    ]);
    const proposed = hinted.flatMap(([, , hint]) => proposals(hint as string));
    assert.ok(proposed.length >= hinted.length, proposed.join(' '));
    for (const name of proposed) assert.equal(isSpecName(name), true, `${JSON.stringify(name)} breaks a naming rule`);
  });
});
