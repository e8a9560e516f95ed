import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeXml, renderSkillsPrompt } from '../../src/discovery/skills-prompt.js';
import type { Profile, Skill } from '../../src/discovery/types.js';

function skill(name: string, description: string, hide = false): Skill {
  const baseDir = `/home/u/proj/.musepi/skills/${name}`;
  const filePath = `${baseDir}/SKILL.md`;
  return {
    name,
    description,
    filePath,
    baseDir,
    hide,
    source: { id: 'native:project', provider: 'native', providerName: 'MusePi', level: 'project', path: filePath },
    frontmatter: { name, description },
  };
}

const SKILLS = [skill('git-helper', 'Git ops'), skill('pdf', 'PDF tools'), skill('secret', 'Hidden one', true)];
const READ = ['read', 'bash'];

describe('renderSkillsPrompt (SKILLS.md §8)', () => {
  it('renders the MusePi block, hidden skills left out, in loaded order', () => {
    assert.equal(
      renderSkillsPrompt(SKILLS, { tools: READ, profile: 'musepi', format: 'markdown' }),
      [
        '# Skills & Rules',
        'Skills are specialized knowledge. If one matches your task, you MUST read `skill://<name>` before proceeding.',
        '<skills>',
        '- git-helper: Git ops',
        '- pdf: PDF tools',
        '</skills>',
      ].join('\n'),
    );
  });

  it('renders the same block for omp', () => {
    assert.equal(
      renderSkillsPrompt(SKILLS, { tools: ['read'], profile: 'omp', format: 'markdown' }),
      renderSkillsPrompt(SKILLS, { tools: ['read'], profile: 'musepi', format: 'markdown' }),
    );
  });

  it('keeps descriptions verbatim, empty ones included', () => {
    assert.equal(
      renderSkillsPrompt([skill('nd', ''), skill('lt', 'a < b & c')], {
        tools: ['read'],
        profile: 'musepi',
        format: 'markdown',
      }),
      [
        '# Skills & Rules',
        'Skills are specialized knowledge. If one matches your task, you MUST read `skill://<name>` before proceeding.',
        '<skills>',
        '- nd: ',
        '- lt: a < b & c',
        '</skills>',
      ].join('\n'),
    );
  });

  it('renders the xcsh block for every skill, hide ignored', () => {
    assert.equal(
      renderSkillsPrompt([...SKILLS, skill('bare', '')], { tools: ['read'], profile: 'xcsh', format: 'markdown' }),
      '# Skills\n\n## git-helper\nGit ops\n\n## pdf\nPDF tools\n\n## secret\nHidden one\n\n## bare',
    );
  });

  it('renders the Agent Skills XML form with everything escaped', () => {
    const tricky = skill('x&y', 'Use <b> for "bold" & \'quotes\'');
    assert.equal(
      renderSkillsPrompt([SKILLS[1] as Skill, tricky, SKILLS[2] as Skill], {
        tools: ['read'],
        profile: 'musepi',
        format: 'xml',
      }),
      [
        '<available_skills>',
        '  <skill>',
        '    <name>pdf</name>',
        '    <description>PDF tools</description>',
        '    <location>/home/u/proj/.musepi/skills/pdf/SKILL.md</location>',
        '  </skill>',
        '  <skill>',
        '    <name>x&amp;y</name>',
        '    <description>Use &lt;b&gt; for &quot;bold&quot; &amp; &apos;quotes&apos;</description>',
        '    <location>/home/u/proj/.musepi/skills/x&amp;y/SKILL.md</location>',
        '  </skill>',
        '</available_skills>',
      ].join('\n'),
    );
  });

  it('lists hidden skills in the XML form of xcsh only', () => {
    const xml = (profile: Profile) => renderSkillsPrompt(SKILLS, { tools: ['read'], profile, format: 'xml' });
    assert.doesNotMatch(xml('musepi'), /secret/);
    assert.match(xml('xcsh'), /<name>secret<\/name>/);
  });

  const empty: Array<[string, Skill[], string[], Profile, 'markdown' | 'xml']> = [
    ['no read tool (musepi)', SKILLS, ['bash'], 'musepi', 'markdown'],
    ['no tools at all', SKILLS, [], 'musepi', 'markdown'],
    ['a tool named like read but not read', SKILLS, ['Read', 'reader'], 'musepi', 'markdown'],
    ['no read tool (xcsh)', SKILLS, ['bash'], 'xcsh', 'markdown'],
    ['no read tool (xml)', SKILLS, ['bash'], 'musepi', 'xml'],
    ['no skills', [], ['read'], 'musepi', 'markdown'],
    ['no skills (xcsh)', [], ['read'], 'xcsh', 'markdown'],
    ['no skills (xml)', [], ['read'], 'musepi', 'xml'],
    ['only hidden skills', [skill('h', 'd', true)], ['read'], 'musepi', 'markdown'],
    ['only hidden skills (xml)', [skill('h', 'd', true)], ['read'], 'omp', 'xml'],
  ];
  for (const [label, skills, tools, profile, format] of empty) {
    it(`renders nothing for ${label}`, () => {
      assert.equal(renderSkillsPrompt(skills, { tools, profile, format }), '');
    });
  }
});

describe('escapeXml', () => {
  it('escapes the five XML specials and nothing else', () => {
    assert.equal(escapeXml(`<a href="x">&'é\n`), '&lt;a href=&quot;x&quot;&gt;&amp;&apos;é\n');
  });
});
