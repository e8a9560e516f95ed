// The lines the doctor gives frontmatter keys (skill-file-findings.ts `keyLines`) and whether it sees the block closed
// (`frontmatterState`), whatever the line breaks: LF, CRLF, or a lone CR, which discovery reads as a line break too
// (docs/discovery.md §2 rule 2).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnoseWorkspace } from '../../../src/discovery/doctor/diagnose-workspace.js';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';

const workspace = workspaceFactory('skillsd-doctor-lines-');

const LINES = ['---', 'name: {name}', 'description: d', '', 'extra-key: 1', 'other_key: 2', '---', '', 'body: 3', ''];

describe('doctor: lines of frontmatter keys', () => {
  it('numbers keys alike under LF, CRLF and lone CR, and stops at the closing line', async () => {
    const skill = (name: string, eol: string) => LINES.join(eol).replace('{name}', name);
    const S = 'P/.claude/skills';
    const { ctx } = await workspace({
      [`${S}/lf/SKILL.md`]: skill('lf', '\n'),
      [`${S}/crlf/SKILL.md`]: skill('crlf', '\r\n'),
      [`${S}/cr/SKILL.md`]: skill('cr', '\r'),
      [`${S}/open/SKILL.md`]: '---\nname: open\ndescription: d\n\nlate-key: x\n',
    });
    const result = await discoverSkills(ctx);
    const { findings } = await diagnoseWorkspace({ ctx, skills: result.skills, collisions: result.collisions });
    const seen = findings
      .filter((finding) => finding.rule === 'spec-unknown-field' || finding.rule === 'unclosed-frontmatter')
      .map(({ rule, path, line }) => [rule, path.slice(ctx.cwd.length + 1), line]);
    assert.deepEqual(seen, [
      ['spec-unknown-field', '.claude/skills/cr/SKILL.md', 5],
      ['spec-unknown-field', '.claude/skills/cr/SKILL.md', 6],
      ['spec-unknown-field', '.claude/skills/crlf/SKILL.md', 5],
      ['spec-unknown-field', '.claude/skills/crlf/SKILL.md', 6],
      ['spec-unknown-field', '.claude/skills/lf/SKILL.md', 5],
      ['spec-unknown-field', '.claude/skills/lf/SKILL.md', 6],
      ['unclosed-frontmatter', '.claude/skills/open/SKILL.md', 1],
    ]);
  });
});
