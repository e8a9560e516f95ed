// Readers racing a writer: while skills are renamed, edited, added and removed without pause, 20 clients poll
// `/skills` and a file route. Every answer must be one whole snapshot (GUIDE: a snapshot is swapped in one
// assignment): it parses, its generation never goes back for a client, one ETag always names one body, and the list
// is internally consistent (docs/discovery.md §1 order, unique names, baseDir = dirname(filePath)).

import assert from 'node:assert/strict';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { compareSkills } from '../../src/discovery/pipeline/sort-skills.js';
import { startServer } from '../helpers/app-server.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { SK, type TreeEntry } from '../helpers/temp-tree.js';

/** The race lasts at least this long, and until the pollers have seen MIN_GENERATIONS generations. */
const RUN_MS = 8000;
const MIN_GENERATIONS = 10;
const POLLERS = 20;
const STABLE = SK({ description: 'Never touched' });

interface Listing {
  generation: number;
  skills: Array<{ name: string; filePath: string; baseDir: string }>;
}

describe('readers racing a writer', () => {
  it('every /skills answer is one consistent snapshot and the file route stays right', async (t) => {
    const tree: Record<string, TreeEntry> = { 'work/.musepi/skills/stable/SKILL.md': STABLE };
    for (let i = 0; i < 30; i++) tree[`work/.musepi/skills/w${i}/SKILL.md`] = SK({ description: `v0 ${i}` });
    const s = await startServer(t, { tree, watch: true });
    await (await s.registry.get()).ready;
    const skills = join(s.cwd, '.musepi', 'skills');

    // On a loaded machine the reloads come slower: the race goes on until the pollers have seen enough generations
    // to mean something, within a safety bound that fails below with what was seen.
    const started = Date.now();
    const bodyByGeneration = new Map<number, string>();
    const racing = () => {
      const elapsed = Date.now() - started;
      if (elapsed > RUN_MS + 2 * WAIT_MS) return false;
      return elapsed < RUN_MS || bodyByGeneration.size < MIN_GENERATIONS;
    };
    let edits = 0;
    const renamed = new Set<number>();
    const removed = new Set<number>();
    const writer = (async () => {
      // Names w0..w29 take turns: edited, renamed to r<i> (and back), removed, added again.

      const turns = new Array<number>(30).fill(0);
      while (racing()) {
        const i = edits % 30;
        const dir = join(skills, renamed.has(i) ? `r${i}` : `w${i}`);
        const turn = turns[i]!++ % 3;
        if (removed.has(i)) {
          await mkdir(dir, { recursive: true });
          await writeFile(join(dir, 'SKILL.md'), SK({ description: `added ${edits}` }));
          removed.delete(i);
        } else if (turn === 0) {
          await writeFile(join(dir, 'SKILL.md.tmp'), SK({ description: `edit ${edits}` }));
          await rename(join(dir, 'SKILL.md.tmp'), join(dir, 'SKILL.md'));
        } else if (turn === 1) {
          await rename(dir, join(skills, renamed.has(i) ? `w${i}` : `r${i}`));
          if (renamed.has(i)) renamed.delete(i);
          else renamed.add(i);
        } else {
          await rm(dir, { recursive: true });
          removed.add(i);
        }
        edits++;
        // The pace of a busy editor session, without starving the pollers of the two cores.
        if (edits % 4 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    const bodyByEtag = new Map<string, string>();
    const problems: string[] = [];
    let answers = 0;
    const poll = async (client: number) => {
      let lastGeneration = 0;
      while (racing()) {
        const response = await fetch(`${s.base}/skills`);
        const text = await response.text();
        answers++;
        if (response.status !== 200) {
          problems.push(`client ${client}: status ${response.status}: ${text}`);
          continue;
        }
        let body: Listing;
        try {
          body = JSON.parse(text) as Listing;
        } catch {
          problems.push(`client ${client}: unparsable body`);
          continue;
        }
        const etag = response.headers.get('etag') ?? '';
        const known = bodyByEtag.get(etag);
        if (known === undefined) bodyByEtag.set(etag, text);
        else if (known !== text) problems.push(`client ${client}: ETag ${etag} names two bodies`);
        const sameGeneration = bodyByGeneration.get(body.generation);
        if (sameGeneration === undefined) bodyByGeneration.set(body.generation, text);
        else if (sameGeneration !== text) problems.push(`generation ${body.generation} has two bodies`);
        if (body.generation < lastGeneration) {
          problems.push(`client ${client}: generation ${body.generation} after ${lastGeneration}`);
        }
        lastGeneration = body.generation;
        problems.push(
          ...consistency(body).map((problem) => `client ${client}, generation ${body.generation}: ${problem}`),
        );

        const file = await fetch(`${s.base}/skill/stable`);
        const content = await file.text();
        if (file.status !== 200 || content !== STABLE) problems.push(`client ${client}: /skill/stable ${file.status}`);
      }
    };
    await Promise.all([writer, ...Array.from({ length: POLLERS }, (_, client) => poll(client))]);
    t.diagnostic(`${edits} edits, ${answers} /skills answers, ${bodyByGeneration.size} generations seen`);
    assert.deepEqual(problems.slice(0, 10), []);
    // Once the writer stops, the index settles on what is on disk.
    const onDisk = ['stable'];
    for (let i = 0; i < 30; i++) if (!removed.has(i)) onDisk.push(renamed.has(i) ? `r${i}` : `w${i}`);
    onDisk.sort();
    const deadline = Date.now() + WAIT_MS;
    let final: string[] = [];
    do {
      const body = (await (await fetch(`${s.base}/skills`)).json()) as Listing;
      final = body.skills.map((skill) => skill.name).sort();
      if (final.join() === onDisk.join()) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (Date.now() < deadline);
    assert.deepEqual(final, onDisk);
    assert.ok(
      bodyByGeneration.size >= MIN_GENERATIONS,
      `only ${bodyByGeneration.size} generations seen in ${Date.now() - started} ms: the writer did not race`,
    );
  });
});

/** What must hold of any whole snapshot. */
function consistency(body: Listing): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  body.skills.forEach((skill, index) => {
    if (names.has(skill.name)) problems.push(`${skill.name} twice`);
    names.add(skill.name);
    if (skill.baseDir !== dirname(skill.filePath)) problems.push(`${skill.name}: baseDir ${skill.baseDir}`);
    const previous = body.skills[index - 1];
    if (previous !== undefined && compareSkills(previous, skill) >= 0) problems.push(`${skill.name} out of order`);
  });
  if (!names.has('stable')) problems.push('stable missing');
  return problems;
}
