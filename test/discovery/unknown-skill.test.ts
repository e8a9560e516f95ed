// The message of a skill name that is not loaded (docs/discovery.md §6), shared by REST, MCP and the command line:
// the closest loaded names (at most five) and the count of skills, never the list of every name.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closeSkillNames, unknownSkillMessage, unknownSkillNote } from '../../src/discovery/unknown-skill.js';

const THOUSAND = Array.from({ length: 1000 }, (_, i) => `skill-${String(i).padStart(3, '0')}`);

describe('unknownSkillMessage (docs/discovery.md §6)', () => {
  // [label, typed name, loaded names, expected message]
  const cases: Array<[string, string, string[], string]> = [
    ['one extra letter', 'pdff', ['docx', 'pdf', 'xlsx'], 'Unknown skill: pdff\nDid you mean pdf? (3 skills loaded)'],
    ['another case', 'PDF', ['docx', 'pdf'], 'Unknown skill: PDF\nDid you mean pdf? (2 skills loaded)'],
    ['two neighbours swapped', 'dpf', ['pdf', 'zip'], 'Unknown skill: dpf\nDid you mean pdf? (2 skills loaded)'],
    ['nothing close', 'nope', ['pdf', 'quiet'], 'Unknown skill: nope\nNo close name (2 skills loaded)'],
    ['one skill, singular', 'nope', ['pdf'], 'Unknown skill: nope\nNo close name (1 skill loaded)'],
    ['no skill at all', 'pdf', [], 'Unknown skill: pdf\nNo skills loaded'],
    [
      'closest first, then by name, joined with "or"',
      'docs',
      ['docs-writer', 'docx', 'dots', 'pdf'],
      'Unknown skill: docs\nDid you mean docx, dots or docs-writer? (4 skills loaded)',
    ],
    [
      'a name containing the typed one',
      'lint',
      ['eslint-rules', 'pdf'],
      'Unknown skill: lint\nDid you mean eslint-rules? (2 skills loaded)',
    ],
    [
      'at most five of 1,000',
      'skill-00',
      THOUSAND,
      'Unknown skill: skill-00\nDid you mean skill-000, skill-001, skill-002, skill-003 or skill-004? (1000 skills loaded)',
    ],
    ['nothing close among 1,000', 'nope', THOUSAND, 'Unknown skill: nope\nNo close name (1000 skills loaded)'],
  ];
  for (const [label, name, names, expected] of cases) {
    it(label, () => assert.equal(unknownSkillMessage(name, names), expected));
  }

  it('stays short with 1,000 long names, whatever is typed', () => {
    const long = THOUSAND.map((name) => `${name}-${'x'.repeat(50)}`);
    for (const typed of ['skill-5', 'skill-500-', 'x'.repeat(4096), '']) {
      const message = unknownSkillMessage(typed, long);
      const note = message.slice(message.indexOf('\n') + 1);
      assert.ok(note.length <= 5 * 61 + 60, `${note.length} characters: ${note}`);
    }
  });

  it('gives the command line the same note, starting lower-case', () => {
    assert.equal(unknownSkillNote('pdff', ['pdf']), 'did you mean pdf? (1 skill loaded)');
    assert.equal(unknownSkillNote('x', []), 'no skills loaded');
  });

  it('counts a name listed twice once', () => {
    assert.deepEqual(closeSkillNames('pdff', ['pdf', 'pdf', 'pdfa']), ['pdf', 'pdfa']);
  });
});
