// Compares skillsd's answer with the agent's on the three questions: the loaded set (name and SKILL.md path), the
// descriptions of the skills both load, and the catalog text byte for byte. The compared values are written with the
// scenario root as `{root}`, so that a difference reads the same on every run and can be listed as known.

import type { Answer } from './types.js';

export type Aspect = 'set' | 'descriptions' | 'catalog';
export const ASPECTS: readonly Aspect[] = ['set', 'descriptions', 'catalog'];

export interface Difference {
  aspect: Aspect;
  skillsd: unknown;
  agent: unknown;
}

export interface Comparison {
  /** Per aspect: agree, differ, or not asked (the catalog question was skipped). */
  outcome: Record<Aspect, 'agree' | 'differ' | 'not-asked'>;
  differences: Difference[];
}

export function compareAnswers(given: Answer, agent: Answer, root: string): Comparison {
  const differences: Difference[] = [];
  const outcome = { set: 'agree', descriptions: 'agree', catalog: 'not-asked' } as Comparison['outcome'];
  const local = (text: string) => text.replaceAll(root, '{root}');
  const skillsd = resolveRaces(given, agent);

  const ours = loadedSet(skillsd, local);
  const theirs = loadedSet(agent, local);
  if (ours.join('\n') !== theirs.join('\n')) {
    outcome.set = 'differ';
    differences.push({ aspect: 'set', skillsd: ours, agent: theirs });
  }

  const byKey = new Map(agent.skills.map((skill) => [key(skill, local), skill.description]));
  const ourDescriptions: Record<string, string> = {};
  const theirDescriptions: Record<string, string> = {};
  for (const skill of skillsd.skills) {
    const theirsText = byKey.get(key(skill, local));
    if (theirsText === undefined || theirsText === skill.description) continue;
    ourDescriptions[key(skill, local)] = skill.description;
    theirDescriptions[key(skill, local)] = theirsText;
  }
  if (Object.keys(ourDescriptions).length > 0) {
    outcome.descriptions = 'differ';
    differences.push({ aspect: 'descriptions', skillsd: ourDescriptions, agent: theirDescriptions });
  }

  if (skillsd.catalog !== null && agent.catalog !== null) {
    const ourCatalog = local(skillsd.catalog);
    const theirCatalog = local(agent.catalog);
    outcome.catalog = ourCatalog === theirCatalog ? 'agree' : 'differ';
    if (ourCatalog !== theirCatalog) differences.push({ aspect: 'catalog', skillsd: ourCatalog, agent: theirCatalog });
  }
  return { outcome, differences };
}

/** `name path` lines, sorted, one per loaded skill (a name loaded twice shows twice). */
function loadedSet(answer: Answer, local: (text: string) => string): string[] {
  return answer.skills.map((skill) => key(skill, local)).sort();
}

function key(skill: { name: string; path: string }, local: (text: string) => string): string {
  return `${skill.name} ${local(skill.path)}`;
}

/** A short account of where two values part, for the one-line report. */
export function firstDivergence(a: unknown, b: unknown): string {
  const left = typeof a === 'string' ? a : JSON.stringify(a);
  const right = typeof b === 'string' ? b : JSON.stringify(b);
  let i = 0;
  while (i < left.length && i < right.length && left[i] === right[i]) i += 1;
  const from = Math.max(0, i - 30);
  const show = (text: string) => JSON.stringify(text.slice(from, i + 50));
  return `at ${i}: skillsd ${show(left)} / agent ${show(right)}`;
}

/**
 * Where skillsd names the files the agent picks among at random (`candidates`), the agent's pick agrees when it is one
 * of them: skillsd's entry then stands for the file the agent loaded, with that file's description (descriptions are
 * compared where the agent's choice is determined).
 */
function resolveRaces(skillsd: Answer, agent: Answer): Answer {
  if (!skillsd.skills.some((skill) => skill.candidates !== undefined)) return skillsd;
  const skills = skillsd.skills.map((skill) => {
    if (skill.candidates === undefined) return skill;
    const pick = agent.skills.find((other) => other.name === skill.name && skill.candidates?.includes(other.path));
    if (pick === undefined || pick.path === skill.path) return skill;
    return { ...skill, path: pick.path, description: pick.description };
  });
  return { ...skillsd, skills };
}
