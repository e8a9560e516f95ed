// The daemon never runs a "full" discovery after the first one: reloads reuse the parse cache, and a watcher change
// re-scans only the skills directories it touched (the other directories' scans are kept). Both shortcuts must leave
// the index equal to a fresh discovery of what is on disk. fast-check generates random edit sequences over several
// providers' directories, symlinked entries, symlinked SKILL.md files and link targets outside every skills
// directory; after each step the cached discovery is compared with an uncached one, and the live index (real
// watcher, incremental rebuilds) must settle on the fresh result after each step.

import assert from 'node:assert/strict';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { discoverSkills } from '../../src/discovery/discover-skills.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { createSkillFileCache } from '../../src/discovery/skill-file-cache.js';
import type { DiscoveryContext, DiscoveryResult } from '../../src/discovery/types.js';
import { createEventIdSource } from '../../src/index/event-log.js';
import { WorkspaceIndex } from '../../src/index/workspace-index.js';
import { makeTempDir } from '../helpers/temp-tree.js';

// Skills directories of several providers and levels, relative to the temp root (HOME = root/home, CWD = root/work).
const ROOTS = ['work/.musepi/skills', 'work/.claude/skills', 'home/.claude/skills', 'home/.agents/skills'];
const NAMES = ['alpha', 'beta', 'gamma'];
const DESCRIPTIONS = ['first', 'second', 'a longer description: with a colon', ''];

type Op =
  | { kind: 'write'; root: number; dir: string; name: string; description: string; hide: boolean }
  | { kind: 'remove'; root: number; dir: string }
  | { kind: 'rename'; root: number; dir: string; to: string }
  | { kind: 'link'; root: number; dir: string; target: number; targetDir: string }
  | { kind: 'garbage'; root: number; dir: string }
  | { kind: 'root-file'; root: number }
  | { kind: 'root-remove'; root: number }
  | { kind: 'link-file'; root: number; dir: string; target: number; targetDir: string }
  | { kind: 'link-lib'; root: number; dir: string; lib: string }
  | { kind: 'lib-write'; lib: string; name: string; description: string };

const rootIndex = fc.integer({ min: 0, max: ROOTS.length - 1 });
const dirName = fc.constantFrom('d1', 'd2', 'd3');
/** Skill directories outside every skills directory, reached only through symlinked entries. */
const libName = fc.constantFrom('lib1', 'lib2');
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      root: rootIndex,
      dir: dirName,
      name: fc.constantFrom(...NAMES),
      description: fc.constantFrom(...DESCRIPTIONS),
      hide: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), root: rootIndex, dir: dirName }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('rename' as const), root: rootIndex, dir: dirName, to: dirName }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('link' as const),
      root: rootIndex,
      dir: fc.constantFrom('l1', 'l2'),
      target: rootIndex,
      targetDir: dirName,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('garbage' as const), root: rootIndex, dir: dirName }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('root-file' as const), root: rootIndex }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('root-remove' as const), root: rootIndex }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('link-file' as const),
      root: rootIndex,
      dir: fc.constantFrom('f1', 'f2'),
      target: rootIndex,
      targetDir: dirName,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('link-lib' as const),
      root: rootIndex,
      dir: fc.constantFrom('l1', 'l2'),
      lib: libName,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('lib-write' as const),
      lib: libName,
      name: fc.constantFrom(...NAMES),
      description: fc.constantFrom(...DESCRIPTIONS),
    }),
  },
);

async function apply(base: string, step: Op): Promise<void> {
  const root = 'root' in step ? join(base, ROOTS[step.root]!) : base;
  switch (step.kind) {
    case 'write': {
      await rm(root, { force: true }).catch(() => undefined); // a root turned into a file becomes a directory again
      await mkdir(join(root, step.dir), { recursive: true }).catch(() => undefined);
      const text = `---\nname: ${step.name}\ndescription: ${step.description}\nhide: ${step.hide}\n---\n\n# ${step.name}\n`;
      await writeFile(join(root, step.dir, 'SKILL.md'), text).catch(() => undefined);
      return;
    }
    case 'remove':
      await rm(join(root, step.dir), { recursive: true, force: true }).catch(() => undefined);
      return;
    case 'rename':
      await rename(join(root, step.dir), join(root, `${step.to}-moved`)).catch(() => undefined);
      return;
    case 'link': {
      await mkdir(root, { recursive: true }).catch(() => undefined);
      await rm(join(root, step.dir), { recursive: true, force: true }).catch(() => undefined);
      await symlink(join(base, ROOTS[step.target]!, step.targetDir), join(root, step.dir)).catch(() => undefined);
      return;
    }
    case 'garbage':
      await mkdir(join(root, step.dir), { recursive: true }).catch(() => undefined);
      await writeFile(join(root, step.dir, 'SKILL.md'), '---\nname: [unclosed\ndescription: x: y\n---\n').catch(
        () => undefined,
      );
      return;
    case 'root-file':
      await rm(root, { recursive: true, force: true });
      await mkdir(join(root, '..'), { recursive: true });
      await writeFile(root, 'not a directory');
      return;
    case 'root-remove':
      await rm(root, { recursive: true, force: true });
      return;
    case 'link-file': {
      // An entry whose SKILL.md is a symlink to another skill's SKILL.md.
      await rm(join(root, step.dir), { recursive: true, force: true }).catch(() => undefined);
      await mkdir(join(root, step.dir), { recursive: true }).catch(() => undefined);
      const target = join(base, ROOTS[step.target]!, step.targetDir, 'SKILL.md');
      await symlink(target, join(root, step.dir, 'SKILL.md')).catch(() => undefined);
      return;
    }
    case 'link-lib':
      await mkdir(root, { recursive: true }).catch(() => undefined);
      await rm(join(root, step.dir), { recursive: true, force: true }).catch(() => undefined);
      await symlink(join(base, 'lib', step.lib), join(root, step.dir)).catch(() => undefined);
      return;
    case 'lib-write': {
      // Edits a link target outside every skills directory: only the symlinked entries see it.
      await mkdir(join(base, 'lib', step.lib), { recursive: true });
      const text = `---\nname: ${step.name}\ndescription: ${step.description}\n---\n\n# ${step.name}\n`;
      await writeFile(join(base, 'lib', step.lib, 'SKILL.md'), text);
      return;
    }
  }
}

/** An empty git workspace and HOME under `dir`, and the discovery context over them. */
async function freshWorkspace(dir: string): Promise<{ dir: string; ctx: DiscoveryContext }> {
  await mkdir(join(dir, 'work', '.git'), { recursive: true });
  await mkdir(join(dir, 'home'), { recursive: true });
  return { dir, ctx: { home: join(dir, 'home'), cwd: join(dir, 'work'), env: {}, settings: defaultSettings() } };
}

/** What must be equal: the whole `/skills` content. */
function comparable(result: DiscoveryResult) {
  return {
    skills: result.skills,
    warnings: result.warnings,
    collisions: result.collisions,
    diagnostics: result.diagnostics,
  };
}

describe('reloads equal a fresh discovery after random edit sequences', () => {
  let base: string;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ dir: base, cleanup } = await makeTempDir('skillsd-equivalence-'));
  });
  after(() => cleanup());

  it('a discovery through the shared parse cache equals an uncached one after every step', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const { dir, ctx } = await freshWorkspace(join(base, `cache-${run++}`));
        const cache = createSkillFileCache();
        for (const step of ops) {
          await apply(dir, step);
          const cached = await discoverSkills(ctx, { cache });
          const fresh = await discoverSkills(ctx);
          assert.deepEqual(comparable(cached), comparable(fresh), `after ${JSON.stringify(step)}`);
        }
      }),
      { numRuns: 40, seed: 20261130 },
    );
  });

  it('the live index (real watcher, incremental rebuilds) settles on the fresh discovery after every step', async () => {
    let run = 0;
    // Builds that reused scans of the previous one: the incremental path, which this test is about.
    let incremental = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 15 }), async (ops) => {
        const { dir, ctx } = await freshWorkspace(join(base, `live-${run++}`));
        const index = new WorkspaceIndex({
          home: ctx.home,
          cwd: ctx.cwd,
          env: ctx.env,
          settings: ctx.settings,
          ids: createEventIdSource(1),
          cache: createSkillFileCache(),
          watcher: { reconcileIntervalMs: 60_000 },
          discover: (context, options) => {
            if ((options?.scans?.size ?? 0) > 0) incremental++;
            return discoverSkills(context, options);
          },
        });
        try {
          await index.ready;
          for (const [i, step] of ops.entries()) {
            await apply(dir, step);
            const fresh = comparable(await discoverSkills(ctx));
            // The watcher reacts within milliseconds; the deadline only bounds a failure.
            const deadline = Date.now() + 10_000;
            let seen: unknown;
            for (;;) {
              const snapshot = index.snapshot!;
              seen = {
                skills: snapshot.skills,
                warnings: snapshot.warnings,
                collisions: snapshot.collisions,
                diagnostics: snapshot.diagnostics,
              };
              if (JSON.stringify(seen) === JSON.stringify(fresh) || Date.now() > deadline) break;
              await new Promise((resolve) => setTimeout(resolve, 10));
            }
            assert.deepEqual(seen, fresh, `after step ${i} of ${JSON.stringify(ops)}`);
          }
        } finally {
          await index.close();
        }
      }),
      { numRuns: 12, seed: 20261130 },
    );
    assert.ok(incremental > 0, 'no build reused the scans of the previous one');
  });
});
