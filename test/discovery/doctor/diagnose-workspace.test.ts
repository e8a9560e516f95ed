// The doctor engine on real trees: each near miss gives its exact finding; pipeline outcomes name the cause; advice
// never changes what loads.

import assert from 'node:assert/strict';
import { chmod, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diagnoseName, diagnoseWorkspace } from '../../../src/discovery/doctor/diagnose-workspace.js';
import type { Finding } from '../../../src/discovery/doctor/types.js';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { parseSettings } from '../../../src/discovery/settings.js';
import type { DiscoveryContext } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';
import { SK } from '../../helpers/temp-tree.js';

const workspace = workspaceFactory('skillsd-doctor-');

async function diagnose(ctx: DiscoveryContext) {
  const result = await discoverSkills(ctx);
  return { result, diagnosis: await diagnoseWorkspace({ ctx, skills: result.skills, collisions: result.collisions }) };
}

/** The findings under `dir`, with paths made relative to it. */
function under(findings: readonly Finding[], dir: string): Finding[] {
  return findings
    .filter((finding) => finding.path.startsWith(`${dir}/`))
    .map((finding) => ({ ...finding, path: finding.path.slice(dir.length + 1) }));
}

describe('doctor: near misses', () => {
  it('reports each near miss of a claude skills directory with its exact finding', async () => {
    const C = 'P/.claude/skills';
    const { base, ctx } = await workspace({
      [`${C}/empty`]: { dir: true },
      [`${C}/lower/skill.md`]: SK({ description: 'd' }),
      [`${C}/group/x/SKILL.md`]: SK({ description: 'd' }),
      [`${C}/named/SKILL.md`]: SK({ name: 'other', description: 'd' }),
      [`${C}/spaced/SKILL.md`]: SK({ name: 'My Skill', description: 'd' }),
      [`${C}/nofm/SKILL.md`]: '# Just a body\n',
      [`${C}/broken/SKILL.md`]: '---\nname: broken\ndescription: [unclosed: x\n---\n',
      [`${C}/colon/SKILL.md`]: '---\nname: colon\ndescription: Use when: asked\n---\n',
      [`${C}/off/SKILL.md`]: '---\nname: off\ndescription: d\nenabled: false\n---\n',
      [`${C}/blank/SKILL.md`]: '',
      [`${C}/open/SKILL.md`]: '---\nname: open\ndescription: d\n',
      [`${C}/loop`]: { symlink: 'loop' },
      [`${C}/dangling`]: { symlink: '../nowhere' },
      [`${C}/SKILL.md`]: SK({ description: 'loose' }),
      [`${C}/fine/SKILL.md`]: SK({ name: 'fine', description: 'Fine', license: 'MIT', color: 'red' }),
    });
    const dir = join(base, C);
    const { result, diagnosis } = await diagnose(ctx);
    // What loads is the reference's, advice or not.
    assert.deepEqual(
      result.skills.map((skill) => [skill.name, skill.description]),
      [
        ['blank', ''],
        ['broken', '[unclosed: x'],
        ['colon', 'Use when: asked'],
        ['fine', 'Fine'],
        ['My Skill', 'd'],
        ['nofm', ''],
        ['open', ''],
        ['other', 'd'],
      ].filter(([name]) => name !== 'blank'),
    );
    const notValid = 'frontmatter is not valid YAML (line 2 of the block: ';
    const findings = under(diagnosis.findings, dir);
    assert.deepEqual(
      findings.map((finding) => [finding.rule, finding.severity, finding.path, finding.line]),
      [
        ['skill-md-in-skills-dir', 'warning', 'SKILL.md', undefined],
        ['dangling-link', 'error', 'dangling', undefined],
        ['no-skill-md', 'warning', 'empty', undefined],
        ['skill-md-too-deep', 'error', 'group/x/SKILL.md', undefined],
        ['link-loop', 'error', 'loop', undefined],
        ['wrong-case-skill-md', 'error', 'lower/skill.md', undefined],
        ['empty-skill-md', 'error', 'blank/SKILL.md', undefined],
        ['yaml-line-fallback', 'warning', 'broken/SKILL.md', 3],
        ['description-raw-yaml', 'warning', 'broken/SKILL.md', 3],
        ['yaml-repaired', 'warning', 'colon/SKILL.md', 3],
        ['spec-unknown-field', 'info', 'fine/SKILL.md', 5],
        ['spec-name-folder', 'warning', 'named/SKILL.md', 2],
        ['no-frontmatter', 'warning', 'nofm/SKILL.md', undefined],
        ['spec-name-missing', 'info', 'nofm/SKILL.md', undefined],
        ['enabled-false', 'info', 'off/SKILL.md', 4],
        ['unclosed-frontmatter', 'error', 'open/SKILL.md', 1],
        ['description-empty', 'warning', 'open/SKILL.md', 3],
        ['spec-name-missing', 'info', 'open/SKILL.md', undefined],
        ['spec-name-charset', 'warning', 'spaced/SKILL.md', 2],
        ['spec-name-folder', 'warning', 'spaced/SKILL.md', 2],
        ['name-not-invocable', 'warning', 'spaced/SKILL.md', undefined],
      ],
    );
    const byRule = (rule: string, path: string) =>
      findings.find((finding) => finding.rule === rule && finding.path === path);
    assert.deepEqual(byRule('wrong-case-skill-md', 'lower/skill.md'), {
      rule: 'wrong-case-skill-md',
      severity: 'error',
      path: 'lower/skill.md',
      message: 'the file is named skill.md: only SKILL.md, in exactly that case, is read',
      hint: `rename it to ${dir}/lower/SKILL.md`,
    });
    assert.deepEqual(byRule('skill-md-too-deep', 'group/x/SKILL.md'), {
      rule: 'skill-md-too-deep',
      severity: 'error',
      path: 'group/x/SKILL.md',
      message: `SKILL.md is two levels below ${dir}: only ${dir}/<name>/SKILL.md is found (no groups)`,
      hint: `move ${dir}/group/x to ${dir}/x`,
    });
    assert.equal(
      byRule('dangling-link', 'dangling')?.message,
      'the link dangling -> ../nowhere points to nothing: it is skipped',
    );
    assert.equal(byRule('link-loop', 'loop')?.message, 'the link loop -> loop loops back on itself: it is skipped');
    assert.equal(byRule('no-skill-md', 'empty')?.message, 'the folder is empty: it is not a skill');
    assert.equal(
      byRule('no-frontmatter', 'nofm/SKILL.md')?.message,
      'no frontmatter: the skill is named after its folder and listed as "- nofm: " with no description',
    );
    assert.equal(
      byRule('description-raw-yaml', 'broken/SKILL.md')?.message,
      'the frontmatter is not valid YAML: the model reads the raw line text as the description: "[unclosed: x"',
    );
    assert.ok(byRule('yaml-line-fallback', 'broken/SKILL.md')?.message.startsWith(notValid));
    assert.equal(
      byRule('spec-name-charset', 'spaced/SKILL.md')?.message,
      'name "My Skill" is not lower-case letters, digits and single hyphens (Agent Skills)',
    );
    // One fix for the three rules of that name, and it breaks none of them (docs/doctor.md "Fixes").
    for (const rule of ['spec-name-charset', 'spec-name-folder', 'name-not-invocable']) {
      assert.equal(byRule(rule, 'spaced/SKILL.md')?.hint, 'set name: my-skill and rename the folder to my-skill');
    }
    assert.equal(
      byRule('spec-name-folder', 'named/SKILL.md')?.message,
      'name "other" differs from its folder "named" (Agent Skills: they must be equal)',
    );
    assert.equal(
      byRule('spec-unknown-field', 'fine/SKILL.md')?.message,
      'field "color" is not in the Agent Skills specification',
    );
    const claude = diagnosis.directories.find((entry) => entry.path === dir);
    assert.deepEqual(claude, {
      path: dir,
      provider: 'claude',
      level: 'project',
      exists: true,
      readable: true,
      skills: 7,
    });
    const native = diagnosis.directories.find((entry) => entry.path === join(base, 'P/.musepi/skills'));
    assert.deepEqual(native, {
      path: join(base, 'P/.musepi/skills'),
      provider: 'native',
      level: 'project',
      exists: false,
      readable: false,
      skills: 0,
    });
  });

  it('a required description missing skips the skill with an error; an empty one that loads is a warning', async () => {
    const { base, ctx } = await workspace({
      'P/.musepi/skills/nodesc/SKILL.md': SK({ name: 'nodesc' }),
      'P/.musepi/skills/nofm/SKILL.md': '# Body only\n',
      'P/.claude/skills/loaded/SKILL.md': SK({ name: 'loaded' }),
    });
    const { diagnosis } = await diagnose(ctx);
    const findings = under(diagnosis.findings, base);
    assert.deepEqual(
      findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.severity, f.path, f.message]),
      [
        [
          'description-required',
          'error',
          'P/.musepi/skills/nodesc/SKILL.md',
          'its frontmatter has no (or an empty) description, which MusePi requires: the skill is skipped',
        ],
        [
          'description-required',
          'error',
          'P/.musepi/skills/nofm/SKILL.md',
          'it has no frontmatter, so no description, which MusePi requires: the skill is skipped',
        ],
        [
          'description-empty',
          'warning',
          'P/.claude/skills/loaded/SKILL.md',
          'no description: the prompt lists "- loaded: " and the model cannot tell when to use it',
        ],
      ],
    );
    const skipped = diagnosis.candidates.find((candidate) => candidate.name === 'nodesc');
    assert.equal(skipped?.outcome, 'skipped');
  });

  it('an unreadable SKILL.md and an unreadable folder are errors', { skip: process.getuid?.() === 0 }, async (t) => {
    const { base, ctx } = await workspace({
      'P/.claude/skills/secret/SKILL.md': SK({ description: 'd' }),
      'P/.claude/skills/closed/SKILL.md': SK({ description: 'd' }),
    });
    await chmod(join(base, 'P/.claude/skills/secret/SKILL.md'), 0o000);
    await chmod(join(base, 'P/.claude/skills/closed'), 0o000);
    t.after(async () => {
      await chmod(join(base, 'P/.claude/skills/secret/SKILL.md'), 0o644);
      await chmod(join(base, 'P/.claude/skills/closed'), 0o755);
    });
    const { diagnosis } = await diagnose(ctx);
    assert.deepEqual(
      under(diagnosis.findings, join(base, 'P/.claude/skills')).map((f) => [f.rule, f.severity, f.path, f.message]),
      [
        ['unreadable-directory', 'error', 'closed', 'the folder cannot be read (EACCES): it is skipped'],
        ['unreadable-skill-md', 'error', 'secret/SKILL.md', 'SKILL.md cannot be read (EACCES); the skill is skipped'],
      ],
    );
  });
});

describe('doctor: pipeline outcomes', () => {
  it('names the candidate that won, the toggle, the glob and the list that removed the others', async () => {
    const { base, ctx: plain } = await workspace({
      'P/.musepi/skills/dup/SKILL.md': SK({ description: 'N' }),
      'P/.claude/skills/dup/SKILL.md': SK({ description: 'C' }),
      'P/.agents/skills/dup/SKILL.md': SK({ description: 'A' }),
      'P/.claude/skills/exp-x/SKILL.md': SK({ description: 'E' }),
      'P/.claude/skills/gone/SKILL.md': SK({ description: 'G' }),
      'P/.codex/skills/cx/SKILL.md': SK({ description: 'X' }),
      'H/.musepi/agent/managed-skills/Bad_Name/SKILL.md': SK({ description: 'M' }),
    });
    await symlink(join(base, 'P/.claude/skills/gone'), join(base, 'P/.agents/skills/gone'));
    const ctx = {
      ...plain,
      settings: parseSettings({
        skills: { enableAgentsProject: false, ignoredSkills: ['exp-*'] },
        disabledExtensions: ['skill:gone'],
        disabledProviders: ['codex'],
      }),
    };
    const { diagnosis } = await diagnose(ctx);
    const rel = (path: string) => path.slice(base.length + 1);
    const dup = diagnoseName('dup', diagnosis, undefined);
    assert.deepEqual(
      dup.candidates.map((c) => [c.outcome, c.source.id, rel(c.filePath), c.reason]),
      [
        [
          'loaded',
          'native:project',
          'P/.musepi/skills/dup/SKILL.md',
          'loaded: the first enabled candidate of this name in priority order',
        ],
        [
          'shadowed',
          'claude:project',
          'P/.claude/skills/dup/SKILL.md',
          `shadowed by ${base}/P/.musepi/skills/dup/SKILL.md (native:project): MusePi comes before Claude Code in priority order`,
        ],
        [
          'filtered',
          'agents:project',
          'P/.agents/skills/dup/SKILL.md',
          'agents:project is switched off: skills.enableAgentsProject is false',
        ],
      ],
    );
    const reasonOf = (name: string) =>
      diagnoseName(name, diagnosis, undefined).candidates.map((c) => [c.outcome, c.reason]);
    assert.deepEqual(reasonOf('exp-x'), [['filtered', 'matches ignoredSkills "exp-*"']]);
    assert.deepEqual(reasonOf('gone'), [
      ['filtered', '"skill:gone" is listed in disabledExtensions'],
      ['filtered', '"skill:gone" is listed in disabledExtensions'],
    ]);
    assert.deepEqual(reasonOf('cx'), [['filtered', 'provider codex is listed in disabledProviders']]);
    assert.deepEqual(reasonOf('Bad_Name'), [['filtered', 'managed skill names must match ^[a-z0-9][a-z0-9-]{0,63}$']]);
    // The same outcomes are info findings of the workspace.
    assert.deepEqual(
      diagnosis.findings.filter((f) => f.rule === 'ignored-skill').map((f) => [rel(f.path), f.severity, f.message]),
      [['P/.claude/skills/exp-x/SKILL.md', 'info', 'filtered: matches ignoredSkills "exp-*"']],
    );
  });

  it('a realpath duplicate is shadowed as the same file; a name nobody claims gives its near misses', async () => {
    const { base, ctx } = await workspace({
      'P/.claude/skills/real/SKILL.md': SK({ name: 'real', description: 'R' }),
      'P/.agents/skills/miss/skill.md': SK({ description: 'd' }),
    });
    await symlink(join(base, 'P/.claude/skills/real'), join(base, 'P/.agents/skills/real'));
    const { diagnosis } = await diagnose(ctx);
    const real = diagnoseName('real', diagnosis, undefined);
    assert.deepEqual(
      real.candidates.map((c) => [c.outcome, c.source.id]),
      [
        ['loaded', 'claude:project'],
        ['shadowed', 'agents:project'],
      ],
    );
    assert.equal(
      real.candidates[1]?.reason,
      `the same file (by realpath) as ${base}/P/.claude/skills/real/SKILL.md (claude:project), which is loaded: dropped`,
    );
    const miss = diagnoseName('miss', diagnosis, undefined);
    assert.deepEqual(miss.candidates, []);
    assert.deepEqual(
      miss.findings.map((f) => [f.rule, f.path]),
      [['wrong-case-skill-md', `${base}/P/.agents/skills/miss/skill.md`]],
    );
  });

  it('a relative custom directory: candidates are named as the records name them, as written', async () => {
    const { ctx } = await workspace({
      'P/team-skills/review/SKILL.md': SK({ name: 'review', description: 'Reviews' }),
      'P/team-skills/broken/SKILL.md': '---\nname: broken\n---\n',
    });
    const settings = parseSettings({ skills: { customDirectories: ['team-skills'] } });
    const { result, diagnosis } = await diagnose({ ...ctx, settings });
    assert.equal(result.skills.find((skill) => skill.name === 'review')?.filePath, 'team-skills/review/SKILL.md');
    const review = diagnoseName('review', diagnosis, undefined);
    assert.deepEqual(
      review.candidates.map((c) => [c.outcome, c.source.id, c.filePath]),
      [['loaded', 'custom:user', 'team-skills/review/SKILL.md']],
    );
    const broken = diagnoseName('broken', diagnosis, undefined);
    assert.deepEqual(
      broken.candidates.map((c) => [c.outcome, c.filePath]),
      [['skipped', 'team-skills/broken/SKILL.md']],
    );
  });

  it('skills.enabled false: one info finding, nothing read', async () => {
    const { ctx } = await workspace({});
    const settings = parseSettings({ skills: { enabled: false } });
    const diagnosis = await diagnoseWorkspace({ ctx: { ...ctx, settings }, skills: [], collisions: [] });
    assert.deepEqual(diagnosis.directories, []);
    assert.deepEqual(
      diagnosis.findings.map((f) => f.rule),
      ['skills-disabled'],
    );
  });
});
