// docs/agents.md names, for each rule of the five agents run by the conformance harness, the scenario that shows it
// (`agent/scenario`): every such citation must name a scenario that exists, so a renamed or removed scenario cannot
// leave a rule citing nothing (docs/conformance.md).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AGENTS } from '../../conformance/lib/install.js';
import type { ConformanceAgent, Scenario } from '../../conformance/lib/types.js';

const doc = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');
const CITATION = new RegExp(`\`(${AGENTS.join('|')})/([a-z0-9][a-z0-9-]*)\``, 'g');

test('every agent/scenario cited in docs/agents.md is a scenario of that agent', async () => {
  const ids = new Map<ConformanceAgent, Set<string>>();
  for (const agent of AGENTS) {
    const { scenarios } = (await import(`../../conformance/scenarios/${agent}.js`)) as { scenarios: Scenario[] };
    ids.set(agent, new Set(scenarios.map((scenario) => scenario.id)));
  }
  const cited = [...doc.matchAll(CITATION)].map((match) => [match[1] as ConformanceAgent, match[2] as string] as const);
  const missing = cited.filter(([agent, id]) => !ids.get(agent)?.has(id)).map(([agent, id]) => `${agent}/${id}`);
  assert.deepEqual(missing, []);
  for (const agent of AGENTS) {
    assert.ok(
      cited.some(([who]) => who === agent),
      `docs/agents.md cites no scenario of ${agent}`,
    );
  }
});
