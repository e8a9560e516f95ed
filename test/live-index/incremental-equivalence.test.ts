// The daemon never runs a "full" discovery after the first one: reloads reuse the parse cache, a watcher change
// re-scans only the skills directories it touched (the other directories' scans are kept), and when those give the
// same candidates as before the previous answer is updated instead of running the §5 pipeline (pipeline-memo.ts).
// Every shortcut must leave the index equal to a fresh discovery of what is on disk. fast-check generates random edit
// sequences over several providers' directories, the managed directory and two custom directories (one of them
// relative, so shown relative), with name filters, symlinked entries, symlinked SKILL.md files and link targets
// outside every skills directory, plugins (registry entries installed and removed, enabledPlugins, a manifest's
// skills entries, an Agent Plugin's manifest), under the musepi and xcsh profiles; after each step the cached
// discovery, the discovery through a ScanMemo (and the content hash of its
// kept serialisation) are compared with an uncached one, and the live index (real watcher, incremental rebuilds) must
// settle on the fresh result after each step.

import assert from 'node:assert/strict';
import { lchown, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { discoverSkillChange, discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { createScanMemo } from '../../src/discovery/scan/scan-memo.js';
import { createSkillFileCache } from '../../src/discovery/scan/skill-file-cache.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { DiscoveryContext, DiscoveryResult, Profile, Settings, Skill } from '../../src/discovery/types.js';
import { snapshotContent } from '../../src/live-index/snapshot.js';
import { SnapshotSerializer } from '../../src/live-index/snapshot-json.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { makeTempDir } from '../helpers/temp-tree.js';

// Skills directories of several providers and levels, relative to the temp root (HOME = root/home, CWD = root/work):
// musepi's native project directory, xcsh's, claude and agents, the musepi managed directory and a custom directory.
const ROOTS = [
  'work/.musepi/skills',
  'work/.claude/skills',
  'home/.claude/skills',
  'home/.agents/skills',
  'home/.musepi/agent/managed-skills',
  'home/custom',
  'work/.xcsh/skills',
  // Plugins installed through the Claude registry (docs/discovery.md §4a): two Claude Code plugins (the second with a
  // manifest entry `./extra`) and an Agent Plugin, whose skills are read strictly.
  'plugins/p1/skills',
  'plugins/p2/skills',
  'plugins/p2/extra',
  'plugins/ap/skills',
  // A relative custom directory: its records show `custom-rel/…`, the files are read under CWD.
  'work/custom-rel',
];
const PLUGINS = ['p1@m', 'p2@m', 'ap@m'];
const CLAUDE_REGISTRY = 'home/.claude/plugins/installed_plugins.json';
const CLAUDE_SETTINGS = 'home/.claude/settings.json';
const P2_MANIFEST = 'plugins/p2/.claude-plugin/plugin.json';
const AP_MANIFEST = 'plugins/ap/plugin.json';
// `gamma` is ignored and `skill:delta` disabled (musepi), `gamma` not included (xcsh): a name edit crosses filters.
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
// The last but one is changed by the managed description sanitiser (docs/discovery.md §5 step 5).
const DESCRIPTIONS = ['first', 'second', 'a longer description: with a colon', 'uses <tags> and `code`', ''];

/** The settings of a run: filters and a custom directory, under either profile. */
function settingsFor(profile: Profile): Settings {
  const settings = defaultSettings();
  settings.profile = profile;
  settings.skills.customDirectories = ['~/custom', 'custom-rel'];
  if (profile === 'xcsh') settings.skills.includeSkills = ['alpha', 'b*', 'delta', 'e*', 'zeta'];
  else {
    settings.skills.ignoredSkills = ['gamma'];
    settings.disabledExtensions = ['skill:delta'];
  }
  return settings;
}

type Op =
  | { kind: 'write'; root: number; dir: string; name: string; description: string; hide: boolean }
  | { kind: 'describe'; root: number; dir: string; description: string; hide: boolean }
  | { kind: 'describe-winner'; pick: number; description: string; hide: boolean }
  | { kind: 'remove'; root: number; dir: string }
  | { kind: 'rename'; root: number; dir: string; to: string }
  | { kind: 'link'; root: number; dir: string; target: number; targetDir: string }
  | { kind: 'garbage'; root: number; dir: string }
  | { kind: 'root-file'; root: number }
  | { kind: 'root-remove'; root: number }
  | { kind: 'link-file'; root: number; dir: string; target: number; targetDir: string }
  | { kind: 'link-lib'; root: number; dir: string; lib: string }
  | { kind: 'lib-write'; lib: string; name: string; description: string }
  | { kind: 'registry'; installed: boolean[] }
  | { kind: 'enable'; plugin: number; value: boolean | null }
  | { kind: 'manifest'; extra: boolean }
  | { kind: 'agent-manifest'; valid: boolean }
  | { kind: 'link-out'; root: number; dir: string; lib: string; name: string; theirs: boolean };

const rootIndex = fc.integer({ min: 0, max: ROOTS.length - 1 });
const dirName = fc.constantFrom('d1', 'd2', 'd3');
/** Skill directories outside every skills directory, reached only through symlinked entries. */
const libName = fc.constantFrom('lib1', 'lib2');
/** Root can give a link to another user: the ownership rule of link-trust.ts then skips what it leads to. */
const canChown = process.geteuid?.() === 0;
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
  {
    // The common edit: the description (or `hide`) of an existing skill, its name kept.
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('describe' as const),
      root: rootIndex,
      dir: fc.constantFrom('d1', 'd2', 'd3', 'l1', 'f1'),
      description: fc.constantFrom(...DESCRIPTIONS),
      hide: fc.boolean(),
    }),
  },
  {
    // The same, aimed at a skill that is loaded now (a managed one, a custom one, one through a link…).
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('describe-winner' as const),
      pick: fc.nat(),
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
    // A SKILL.md linked to a file of another name outside the workspace (skipped in contain mode), the link
    // sometimes another user's (skipped in every mode).
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('link-out' as const),
      root: rootIndex,
      dir: fc.constantFrom('o1', 'o2'),
      lib: libName,
      name: fc.constantFrom(...NAMES),
      theirs: fc.boolean(),
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
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('registry' as const),
      installed: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('enable' as const),
      plugin: fc.integer({ min: 0, max: PLUGINS.length - 1 }),
      value: fc.constantFrom(true, false, null),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('manifest' as const), extra: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('agent-manifest' as const), valid: fc.boolean() }) },
);

/** A SKILL.md as the edits write it; in the Agent Plugin, the strict form (`name` is the directory, no `hide`). */
function skillText(root: string, dir: string, name: string, description: string, hide: boolean): string {
  if (root.endsWith('plugins/ap/skills')) return `---\nname: ${dir}\ndescription: ${description}\n---\n\n# ${dir}\n`;
  return `---\nname: ${name}\ndescription: ${description}\nhide: ${hide}\n---\n\n# ${name}\n`;
}

/** The plugin files an op writes (what the watcher reports for it), relative to the base. */
function pluginFileOf(step: Op): string | undefined {
  switch (step.kind) {
    case 'registry':
      return CLAUDE_REGISTRY;
    case 'enable':
      return CLAUDE_SETTINGS;
    case 'manifest':
      return P2_MANIFEST;
    case 'agent-manifest':
      return AP_MANIFEST;
    default:
      return undefined;
  }
}

/** Applies `step`; `loaded` are the skills loaded before it (what `describe-winner` picks from). */
async function apply(base: string, step: Op, loaded: readonly Skill[] = []): Promise<void> {
  const root = 'root' in step ? join(base, ROOTS[step.root]!) : base;
  switch (step.kind) {
    case 'write': {
      await rm(root, { force: true }).catch(() => undefined); // a root turned into a file becomes a directory again
      await mkdir(join(root, step.dir), { recursive: true }).catch(() => undefined);
      const text = skillText(root, step.dir, step.name, step.description, step.hide);
      await writeFile(join(root, step.dir, 'SKILL.md'), text).catch(() => undefined);
      return;
    }
    case 'describe':
    case 'describe-winner': {
      const file =
        step.kind === 'describe' ? join(root, step.dir, 'SKILL.md') : loaded[step.pick % loaded.length]?.source.path;
      if (file === undefined) return;
      const text = await readFile(file, 'utf8').catch(() => undefined);
      const name = text?.match(/^name: (.*)$/m)?.[1];
      if (name === undefined) return;
      const edited = skillText(join(file, '..', '..'), basename(join(file, '..')), name, step.description, step.hide);
      await writeFile(file, edited).catch(() => undefined);
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
    case 'link-out': {
      const notes = join(base, 'lib', step.lib, 'notes.md');
      await mkdir(join(base, 'lib', step.lib), { recursive: true });
      await writeFile(notes, `---\nname: ${step.name}\ndescription: notes\n---\n`);
      await rm(root, { force: true }).catch(() => undefined); // a root turned into a file becomes a directory again
      await rm(join(root, step.dir), { recursive: true, force: true }).catch(() => undefined);
      await mkdir(join(root, step.dir), { recursive: true });
      // Made aside, given away, then renamed into place: the watcher sees the link only as it ends up.
      const aside = join(root, step.dir, '.SKILL.md.new');
      await symlink(notes, aside);
      if (step.theirs && canChown) await lchown(aside, 65534, 65534);
      await rename(aside, join(root, step.dir, 'SKILL.md'));
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
    case 'registry': {
      const plugins = Object.fromEntries(
        PLUGINS.filter((_, i) => step.installed[i]).map((id) => [
          id,
          [{ scope: 'user', installPath: join(base, 'plugins', id.slice(0, id.indexOf('@'))), version: '1' }],
        ]),
      );
      await writePluginFile(base, CLAUDE_REGISTRY, JSON.stringify({ version: 2, plugins }));
      return;
    }
    case 'enable': {
      const map = step.value === null ? {} : { [PLUGINS[step.plugin]!]: step.value };
      await writePluginFile(base, CLAUDE_SETTINGS, JSON.stringify({ enabledPlugins: map }));
      return;
    }
    case 'manifest':
      await writePluginFile(base, P2_MANIFEST, JSON.stringify({ skills: step.extra ? ['./extra'] : [] }));
      return;
    case 'agent-manifest': {
      const name = step.valid ? 'ap' : 'Bad Name';
      const manifest = { $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name };
      await writePluginFile(base, AP_MANIFEST, JSON.stringify(manifest));
      return;
    }
  }
}

/** Plugin files are replaced in one rename, as the agents save them. */
async function writePluginFile(base: string, relative: string, text: string): Promise<void> {
  const path = join(base, relative);
  await mkdir(join(path, '..'), { recursive: true });
  const temp = `${path}.tmp`;
  await writeFile(temp, text);
  await rename(temp, path);
}

/** Every plugin installed and configured, as each run starts. */
async function installPlugins(base: string): Promise<void> {
  await apply(base, { kind: 'registry', installed: [true, true, true] });
  await apply(base, { kind: 'manifest', extra: true });
  await apply(base, { kind: 'agent-manifest', valid: true });
}

/** An empty git workspace and HOME under `dir`, and the discovery context over them. */
async function freshWorkspace(
  dir: string,
  settings: Settings = defaultSettings(),
): Promise<{ dir: string; ctx: DiscoveryContext }> {
  await mkdir(join(dir, 'work', '.git'), { recursive: true });
  await mkdir(join(dir, 'home'), { recursive: true });
  return { dir, ctx: { home: join(dir, 'home'), cwd: join(dir, 'work'), env: {}, settings } };
}

/**
 * The paths a watcher would report for `step`, limited to the scanned directories (what it watches): the entries and
 * roots the step wrote, and every entry that may be a link into what it wrote.
 */
function reportedPaths(base: string, step: Op, scannedDirs: readonly string[], target = ''): string[] {
  const paths: string[] = [];
  if (step.kind === 'describe-winner') paths.push(target);
  // A plugin file is watched as a file of its own (it lies in no scanned directory).
  const pluginFile = pluginFileOf(step);
  if (pluginFile !== undefined) return [join(base, pluginFile)];
  const root = 'root' in step ? join(base, ROOTS[step.root]!) : undefined;
  if (root !== undefined) {
    paths.push(root);
    if ('dir' in step) paths.push(join(root, step.dir, 'SKILL.md'));
    if (step.kind === 'rename') paths.push(join(root, `${step.to}-moved`));
  }
  for (const dir of ROOTS) for (const link of ['l1', 'l2', 'f1', 'f2']) paths.push(join(base, dir, link, 'SKILL.md'));
  return paths.filter((path) => scannedDirs.some((dir) => path === dir || path.startsWith(`${dir}/`)));
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

  it('a discovery through the shared parse cache, or with synchronous reads, equals an uncached one after every step', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const { dir, ctx } = await freshWorkspace(join(base, `cache-${run++}`));
        await installPlugins(dir);
        const cache = createSkillFileCache();
        for (const step of ops) {
          await apply(dir, step);
          const cached = await discoverSkills(ctx, { cache });
          const fresh = await discoverSkills(ctx);
          assert.deepEqual(comparable(cached), comparable(fresh), `after ${JSON.stringify(step)}`);
          // The first index's synchronous reads (ScanOptions.blocking) give the same answer on every tree.
          const blocking = await discoverSkills(ctx, { blocking: true });
          assert.deepEqual(comparable(blocking), comparable(fresh), `blocking, after ${JSON.stringify(step)}`);
          assert.deepEqual(blocking.skillRealPaths, fresh.skillRealPaths);
        }
      }),
      { numRuns: 40, seed: 20261130 },
    );
  });

  it('a discovery through a ScanMemo (re-scans, updated answers) equals a fresh one after every step', async () => {
    let run = 0;
    // Discoveries that updated the previous answer instead of running the pipeline: it hands on the very lists.
    let updated = 0;
    // Skills added, removed, renamed or relinked: steps 2–5 ran over the candidates sharing their names or realpaths.
    let closedSets = 0;
    let reran = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Profile>('musepi', 'xcsh'),
        fc.array(op, { minLength: 1, maxLength: 25 }),
        async (profile, ops) => {
          const { dir, ctx } = await freshWorkspace(join(base, `memo-${run++}`), settingsFor(profile));
          await installPlugins(dir);
          await apply(dir, { kind: 'link-lib', root: 1, dir: 'l1', lib: 'lib1' });
          await apply(dir, { kind: 'lib-write', lib: 'lib1', name: 'beta', description: 'linked' });
          for (const [root, path] of ROOTS.entries()) {
            // Every root starts with skills, so that most edits keep the candidates (the updated answer's case); the
            // managed directory with a name no authored skill has, so that it loads.
            const names = path.endsWith('managed-skills')
              ? ['omega', 'alpha']
              : [NAMES[(2 * root) % NAMES.length]!, NAMES[(2 * root + 1) % NAMES.length]!];
            for (const [i, name] of names.entries()) {
              await apply(dir, { kind: 'write', root, dir: `d${i + 1}`, name, description: 'first', hide: false });
            }
          }
          const cache = createSkillFileCache();
          const scans = createScanMemo();
          const serializer = new SnapshotSerializer();
          let previous = await discoverSkills(ctx, { cache, scans });
          for (const step of ops) {
            await apply(dir, step, previous.skills);
            const target =
              step.kind === 'describe-winner' ? previous.skills[step.pick % previous.skills.length] : undefined;
            const paths = reportedPaths(dir, step, previous.scannedDirs, target?.source.path);
            if (!scans.invalidate(paths)) scans.clear();
            const next = await discoverSkills(ctx, { cache, scans });
            const reached = scans.pipeline?.reached;
            if (reached === 'replaced') updated++;
            else if (reached === 'closed-set') closedSets++;
            else reran++;
            const fresh = await discoverSkills(ctx);
            assert.deepEqual(comparable(next), comparable(fresh), `after ${JSON.stringify(step)}`);
            // A reload's map may be layered on the previous one (layered-map.ts): compared by its entries.
            assert.deepEqual(new Map(next.skillRealPaths), fresh.skillRealPaths);
            assert.equal(
              serializer.content(ctx.cwd, profile, next).hash,
              snapshotContent(ctx.cwd, profile, fresh).hash,
              `content hash after ${JSON.stringify(step)}`,
            );
            previous = next;
          }
        },
      ),
      { numRuns: 60, seed: 20261130 },
    );
    assert.ok(
      updated > 0 && closedSets > 0 && reran > 0,
      `updated ${updated}, closed sets ${closedSets}, reran ${reran}`,
    );
  });

  it('the live index (real watcher, incremental rebuilds) settles on the fresh discovery after every step', async () => {
    let run = 0;
    // Builds that reused scans of the previous one: the incremental path, which this test is about.
    let incremental = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 15 }), async (ops) => {
        const { dir, ctx } = await freshWorkspace(
          join(base, `live-${run}`),
          settingsFor(run++ % 2 === 0 ? 'musepi' : 'xcsh'),
        );
        await installPlugins(dir);
        const index = new WorkspaceIndex({
          home: ctx.home,
          cwd: ctx.cwd,
          env: ctx.env,
          settings: ctx.settings,
          cache: createSkillFileCache(),
          watcher: { reconcileIntervalMs: 60_000 },
          discover: (context, options) => {
            if ((options?.scans?.size ?? 0) > 0) incremental++;
            return discoverSkillChange(context, options);
          },
        });
        try {
          await index.ready;
          for (const [i, step] of ops.entries()) {
            await apply(dir, step, index.snapshot!.skills);
            const fresh = comparable(await discoverSkills(ctx));
            // The watcher reacts within milliseconds; the deadline only bounds a failure.
            const deadline = Date.now() + WAIT_MS;
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
