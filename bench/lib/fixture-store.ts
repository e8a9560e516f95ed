// Fixtures shared by the benchmarks of one run: generated once per N under bench/.fixtures/, removed at the end.

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Fixture, type FixtureShape, generateFixture } from '../fixtures.js';

export const FIXTURE_SEED = 20261130;
const FIXTURES_ROOT = fileURLToPath(new URL('../.fixtures/', import.meta.url));

export class FixtureStore {
  private readonly root = join(FIXTURES_ROOT, `run-${process.pid}`);
  private readonly fixtures = new Map<string, Promise<Fixture>>();
  /** Seconds spent generating each fixture, for the report, by `[N, shape]`. */
  readonly generationSeconds: Array<[number, FixtureShape, number]> = [];

  /** The fixture with `skills` skill directories of `shape` (generated on first use). */
  get(skills: number, shape: FixtureShape = 'spread'): Promise<Fixture> {
    const key = `${shape}-${skills}`;
    let fixture = this.fixtures.get(key);
    if (fixture === undefined) {
      fixture = this.generate(skills, shape);
      this.fixtures.set(key, fixture);
    }
    return fixture;
  }

  /** An empty HOME and workspace (the zero point of the memory benchmark). */
  empty(): Promise<Fixture> {
    return this.get(0);
  }

  async cleanup(): Promise<void> {
    this.fixtures.clear();
    await rm(this.root, { recursive: true, force: true });
  }

  private async generate(skills: number, shape: FixtureShape): Promise<Fixture> {
    const started = performance.now();
    const root = join(this.root, shape === 'spread' ? `n${skills}` : `${shape}-n${skills}`);
    await mkdir(root, { recursive: true });
    const fixture = await generateFixture({ root, skills, seed: FIXTURE_SEED, shape });
    this.generationSeconds.push([skills, shape, (performance.now() - started) / 1000]);
    return fixture;
  }
}

/** Rewrites a SKILL.md's `description:` line with `description`, keeping every other byte. */
export async function setDescription(file: string, description: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const next = text.replace(/^description: .*$/m, `description: ${description}`);
  if (next === text) throw new Error(`no description line in ${file}`);
  await writeFile(file, next);
}
