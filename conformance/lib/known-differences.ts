// The reviewed list of differences between skillsd and the real agents (conformance/known-differences.json). A
// difference the list holds with exactly the same two answers is known; any other difference fails the run, and so
// does a listed one whose answers changed. An entry that no longer occurs is reported as fixed, to be removed.

import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { Aspect, Difference } from './compare.js';
import type { ConformanceAgent } from './types.js';

export const KNOWN_FILE = new URL('../known-differences.json', import.meta.url);

export interface KnownDifference {
  agent: ConformanceAgent;
  scenario: string;
  aspect: Aspect;
  /** The issue that will make skillsd agree. */
  issue: number;
  skillsdAnswer: unknown;
  agentAnswer: unknown;
}

interface KnownFile {
  about: string;
  differences: KnownDifference[];
}

const ABOUT =
  'Differences between skillsd and the real agents that were reviewed: each names the scenario, both answers and the ' +
  'issue that will fix it. `npm run conformance` fails on any difference not listed here exactly (docs/conformance.md).';

export function readKnownDifferences(): KnownDifference[] {
  return (JSON.parse(readFileSync(KNOWN_FILE, 'utf8')) as KnownFile).differences;
}

export type Verdict = 'known' | 'new' | 'changed';

/** How one difference stands against the list. */
export function judge(
  known: KnownDifference[],
  agent: ConformanceAgent,
  scenario: string,
  difference: Difference,
): Verdict {
  const entry = known.find((k) => k.agent === agent && k.scenario === scenario && k.aspect === difference.aspect);
  if (entry === undefined) return 'new';
  const same =
    isDeepStrictEqual(entry.skillsdAnswer, difference.skillsd) &&
    isDeepStrictEqual(entry.agentAnswer, difference.agent);
  return same ? 'known' : 'changed';
}

/**
 * Writes the list anew: entries of the agents and scenarios this run covered are replaced by this run's differences
 * (each tagged with `issue`); the others are kept as they were.
 */
export function writeKnownDifferences(
  known: KnownDifference[],
  covered: (agent: ConformanceAgent, scenario: string) => boolean,
  found: KnownDifference[],
): void {
  const kept = known.filter((entry) => !covered(entry.agent, entry.scenario));
  const differences = [...kept, ...found].sort(
    (a, b) =>
      a.agent.localeCompare(b.agent) || a.scenario.localeCompare(b.scenario) || a.aspect.localeCompare(b.aspect),
  );
  const file: KnownFile = { about: ABOUT, differences };
  writeFileSync(KNOWN_FILE, `${JSON.stringify(file, null, 2)}\n`);
}
