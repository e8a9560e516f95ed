// The conformance harness's own parts, without the agents: the comparison finds every kind of difference, the list of
// known differences matches only exactly, trees are laid out as declared, the recording endpoint records, and the
// skillsd side asks a real daemon (docs/conformance.md).

import assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareAnswers, firstDivergence } from '../../conformance/lib/compare.js';
import { AGENTS, PINNED } from '../../conformance/lib/install.js';
import { judge, type KnownDifference } from '../../conformance/lib/known-differences.js';
import { startModelEndpoint } from '../../conformance/lib/model-endpoint.js';
import { askSkillsd } from '../../conformance/lib/skillsd-side.js';
import { materialiseScenario } from '../../conformance/lib/tree.js';
import type { Answer } from '../../conformance/lib/types.js';
import { agentSpec } from '../../src/discovery/agents/agents.js';

const parent = mkdtempSync(join(tmpdir(), 'skillsd-conformance-test-'));
after(() => rmSync(parent, { recursive: true, force: true }));

const ROOT = '/tmp/c/s1';
const answer = (skills: Answer['skills'], catalog: string | null = null): Answer => ({ skills, catalog });
const pdf = { name: 'pdf', path: `${ROOT}/home/.claude/skills/pdf/SKILL.md`, description: 'Extract: tables' };
const lint = { name: 'lint', path: `${ROOT}/home/.claude/skills/lint/SKILL.md`, description: 'Lint code' };

describe('compareAnswers', () => {
  it('agrees on the same skills in another order, and leaves an unasked catalog out', () => {
    const result = compareAnswers(answer([pdf, lint]), answer([lint, pdf]), ROOT);
    assert.deepEqual(result, {
      outcome: { set: 'agree', descriptions: 'agree', catalog: 'not-asked' },
      differences: [],
    });
  });

  it('reports a skill only one side loads, with the root written as {root}', () => {
    const result = compareAnswers(answer([pdf, lint]), answer([pdf]), ROOT);
    assert.equal(result.outcome.set, 'differ');
    assert.deepEqual(result.differences, [
      {
        aspect: 'set',
        skillsd: ['lint {root}/home/.claude/skills/lint/SKILL.md', 'pdf {root}/home/.claude/skills/pdf/SKILL.md'],
        agent: ['pdf {root}/home/.claude/skills/pdf/SKILL.md'],
      },
    ]);
  });

  it('reports the same name at another path as a different set', () => {
    const moved = { ...pdf, path: `${ROOT}/home/proj/.claude/skills/pdf/SKILL.md` };
    assert.equal(compareAnswers(answer([pdf]), answer([moved]), ROOT).outcome.set, 'differ');
  });

  it('reports a description that differs by one trailing carriage return', () => {
    const result = compareAnswers(
      answer([pdf, lint]),
      answer([{ ...pdf, description: 'Extract: tables\r' }, lint]),
      ROOT,
    );
    assert.deepEqual(result.outcome, { set: 'agree', descriptions: 'differ', catalog: 'not-asked' });
    assert.deepEqual(result.differences, [
      {
        aspect: 'descriptions',
        skillsd: { 'pdf {root}/home/.claude/skills/pdf/SKILL.md': 'Extract: tables' },
        agent: { 'pdf {root}/home/.claude/skills/pdf/SKILL.md': 'Extract: tables\r' },
      },
    ]);
  });

  it('compares catalogs byte for byte', () => {
    const same = compareAnswers(answer([pdf], `- pdf: x (${ROOT}/a)`), answer([pdf], `- pdf: x (${ROOT}/a)`), ROOT);
    assert.equal(same.outcome.catalog, 'agree');
    const other = compareAnswers(answer([pdf], `- pdf: x (${ROOT}/a)`), answer([pdf], `- pdf: x (${ROOT}/a)\n`), ROOT);
    assert.equal(other.outcome.catalog, 'differ');
    assert.deepEqual(other.differences, [
      { aspect: 'catalog', skillsd: '- pdf: x ({root}/a)', agent: '- pdf: x ({root}/a)\n' },
    ]);
  });

  it("agrees where the agent's random pick is one of skillsd's candidates, and only then", () => {
    const a = `${ROOT}/home/.agents/skills/d/SKILL.md`;
    const b = `${ROOT}/home/proj/.claude/skills/d/SKILL.md`;
    const c = `${ROOT}/home/proj/.agents/skills/d/SKILL.md`;
    const ours = answer([{ name: 'd', path: b, description: 'project', candidates: [a, b] }]);
    const picked = compareAnswers(ours, answer([{ name: 'd', path: a, description: 'user' }]), ROOT);
    assert.deepEqual(picked.outcome, { set: 'agree', descriptions: 'agree', catalog: 'not-asked' });
    const outside = compareAnswers(ours, answer([{ name: 'd', path: c, description: 'user' }]), ROOT);
    assert.deepEqual(outside.differences, [
      {
        aspect: 'set',
        skillsd: ['d {root}/home/proj/.claude/skills/d/SKILL.md'],
        agent: ['d {root}/home/proj/.agents/skills/d/SKILL.md'],
      },
    ]);
  });

  it('says where two texts part', () => {
    assert.equal(firstDivergence('abcdef', 'abcxef'), 'at 3: skillsd "abcdef" / agent "abcxef"');
  });
});

describe('judge', () => {
  const entry: KnownDifference = {
    agent: 'codex',
    scenario: 'bom',
    aspect: 'set',
    issue: 39,
    skillsdAnswer: ['a {root}/x'],
    agentAnswer: [],
  };

  it('knows a difference listed with exactly the same answers', () => {
    assert.equal(judge([entry], 'codex', 'bom', { aspect: 'set', skillsd: ['a {root}/x'], agent: [] }), 'known');
  });

  it('calls a listed difference whose answers moved changed', () => {
    assert.equal(judge([entry], 'codex', 'bom', { aspect: 'set', skillsd: ['a {root}/y'], agent: [] }), 'changed');
  });

  it('calls a difference of another scenario, aspect or agent new', () => {
    const difference = { aspect: 'set' as const, skillsd: ['a {root}/x'], agent: [] };
    assert.equal(judge([entry], 'codex', 'other', difference), 'new');
    assert.equal(judge([entry], 'opencode', 'bom', difference), 'new');
    assert.equal(judge([entry], 'codex', 'bom', { ...difference, aspect: 'catalog' }), 'new');
  });
});

describe('materialiseScenario', () => {
  it('lays out files, bytes, sized files, links, pipes, repositories and setup steps at <parent>/<id>', () => {
    const laid = materialiseScenario(
      {
        id: 'every-kind',
        rule: 'each kind of entry',
        tree: {
          'home/.claude/skills/pdf/SKILL.md': '---\nname: pdf\ndescription: in {home}\n---\n',
          'home/proj/.agents/skills/bom/SKILL.md': { base64: Buffer.from('\uFEFF---\n').toString('base64') },
          'home/big/SKILL.md': { head: '---\n', size: 1000, fill: 'y' },
          'home/proj/.claude/skills/linked': { link: '../../../.claude/skills/pdf' },
          'home/.git': { fifo: true },
          'home/empty': { dir: true },
        },
        git: ['home/proj'],
        env: { CODEX_HOME: '{home}/.codex-alt' },
        setup: ['touch {cwd}/made-by-setup'],
      },
      parent,
    );
    assert.equal(laid.root, join(parent, 'every-kind'));
    assert.equal(laid.home, join(laid.root, 'home'));
    assert.equal(laid.cwd, join(laid.root, 'home/proj'));
    assert.deepEqual(laid.env, { CODEX_HOME: join(laid.home, '.codex-alt') });
    assert.equal(
      readFileSync(join(laid.home, '.claude/skills/pdf/SKILL.md'), 'utf8'),
      `---\nname: pdf\ndescription: in ${laid.home}\n---\n`,
    );
    assert.deepEqual(
      [...readFileSync(join(laid.cwd, '.agents/skills/bom/SKILL.md'))],
      [0xef, 0xbb, 0xbf, 45, 45, 45, 10],
    );
    const big = readFileSync(join(laid.home, 'big/SKILL.md'), 'utf8');
    assert.equal(big.length, 1000);
    assert.equal(big.slice(0, 5), '---\ny');
    assert.equal(readlinkSync(join(laid.cwd, '.claude/skills/linked')), '../../../.claude/skills/pdf');
    assert.ok(lstatSync(join(laid.home, '.git')).isFIFO());
    assert.ok(statSync(join(laid.home, 'empty')).isDirectory());
    assert.ok(statSync(join(laid.cwd, '.git/HEAD')).isFile());
    assert.ok(statSync(join(laid.cwd, 'made-by-setup')).isFile());
  });
});

describe('startModelEndpoint', () => {
  it('records a request and answers an Anthropic stream as events', async () => {
    const endpoint = await startModelEndpoint();
    try {
      const response = await fetch(`${endpoint.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ stream: true, system: 'catalog here' }),
      });
      assert.equal(response.headers.get('content-type'), 'text/event-stream');
      const text = await response.text();
      assert.match(text, /^event: message_start\n/);
      assert.match(text, /event: message_stop\n/);
      const [recorded] = endpoint.take();
      assert.equal(recorded?.path, '/v1/messages');
      assert.equal(recorded?.body, '{"stream":true,"system":"catalog here"}');
      assert.deepEqual(endpoint.take(), []);
    } finally {
      await endpoint.close();
    }
  });
});

describe('askSkillsd', () => {
  it("asks a real daemon for an agent's skills and catalog", async () => {
    const laid = materialiseScenario(
      {
        id: 'daemon',
        rule: 'a user skill of Codex',
        tree: { 'home/.codex/skills/lint/SKILL.md': '---\nname: lint\ndescription: "Lint: code"\n---\nbody\n' },
      },
      parent,
    );
    const scratch = mkdtempSync(join(parent, 'scratch-'));
    const answer = await askSkillsd(laid, 'codex', { contextWindow: 0 }, scratch);
    const path = join(laid.home, '.codex/skills/lint/SKILL.md');
    assert.deepEqual(answer.skills, [{ name: 'lint', path, description: 'Lint: code' }]);
    assert.equal(
      answer.catalog,
      [
        '<skills_instructions>',
        '## Skills',
        'A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of ' +
          'skills that can be used. Each entry includes a name, description, and a short path that can be expanded ' +
          'into an absolute path using the skill roots table.',
        '### Skill roots',
        `- \`r0\` = \`${join(laid.home, '.codex/skills')}\``,
        '### Available skills',
        '- lint: Lint: code (file: r0/lint/SKILL.md)',
        '</skills_instructions>',
      ].join('\n'),
    );
  });
});

describe('verified labels', () => {
  it('name the pinned release of conformance/agents.json wherever a view says it is verified', () => {
    for (const agent of AGENTS) {
      const { name, describes, confidence } = agentSpec(agent).info;
      if (confidence === 'verified') assert.equal(describes, `${name} ${PINNED[agent].version} (verified)`);
      else assert.doesNotMatch(describes, /verified/);
    }
  });
});
