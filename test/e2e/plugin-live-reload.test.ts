// Live plugin changes through the built daemon (docs/discovery.md §4a): installing, enabling, disabling, re-configuring and
// removing plugins of the three providers by writing their registries, settings, manifests, lock and overrides files
// as the agents do, each seen as exactly the expected `index` event on one event stream, and in `GET /skills`.
//
// The tests run in order and each starts from the state the previous one left.

import assert from 'node:assert/strict';
import { rename, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { agentManifest, enabledPlugins, entry, registry } from '../helpers/plugin-trees.js';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { SseClient, type SseEvent } from '../helpers/sse-client.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

/** The machine may be shared and loaded: only a failure waits this long. */
const EVENT_TIMEOUT_MS = 30_000;

interface SkillsAnswer {
  generation: number;
  skills: Array<{ name: string; source: { id: string; plugin?: string } }>;
  warnings: Array<{ skillPath: string; message: string }>;
}

const is =
  (type: string) =>
  (event: SseEvent): boolean =>
    event.event === type;

describe('live plugin changes (built daemon, real file system)', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;
  let events: SseClient;
  let generation = 1;
  const claudeRegistry = () => `${root}/home/.claude/plugins/installed_plugins.json`;

  const skillsAnswer = async (): Promise<SkillsAnswer> =>
    (await (await fetch(`${daemon.url}/skills`)).json()) as SkillsAnswer;

  /** `name source-id plugin` of every loaded skill. */
  const loaded = async (): Promise<string[]> =>
    (await skillsAnswer()).skills.map((skill) => `${skill.name} ${skill.source.id} ${skill.source.plugin ?? '-'}`);

  /** The next `index` event: the next generation, carrying exactly these names. */
  async function expectIndex(change: { added?: string[]; removed?: string[]; changed?: string[] }): Promise<void> {
    const event = await events.next(is('index'), EVENT_TIMEOUT_MS);
    generation += 1;
    assert.deepEqual(JSON.parse(event.data), { generation, added: [], removed: [], changed: [], ...change });
  }

  /** Replaces a file in one rename, as the agents save their registries. */
  async function saveAtomically(path: string, text: string): Promise<void> {
    const temp = `${root}/.save-${Date.now()}`;
    await writeFile(temp, text);
    await rename(temp, path);
  }

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('skillsd-e2e-plugins-'));
    await writeTree(root, {
      // Neither `~/.claude` nor `~/.musepi` exists yet: their registries are watched from HOME.
      'home/.keep': '',
      'project/.git': { dir: true },
      'project/.musepi/skills/base/SKILL.md': SK({ description: 'Base' }),
    });
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', `${root}/project`], { home: `${root}/home` });
    events = await SseClient.connect(`${daemon.url}/events`);
    assert.deepEqual(JSON.parse((await events.next(is('hello'), EVENT_TIMEOUT_MS)).data), { generation: 1, skills: 1 });
  });
  after(async () => {
    events?.close();
    await daemon?.process.kill();
    await cleanup?.();
  });

  it('install: the plugin files, then its registry entry (written in place)', async () => {
    await writeTree(root, { 'plugins/tools/skills/lint/SKILL.md': SK({ description: 'Lint' }) });
    await writeTree(root, {
      'home/.claude/plugins/installed_plugins.json': registry({ 'tools@m': [entry(`${root}/plugins/tools`)] }),
    });
    await expectIndex({ added: ['lint'] });
    assert.deepEqual(await loaded(), ['base native:project -', 'lint claude-plugins:user tools@m']);
  });

  it('install: the registry entry first, then the files appear', async () => {
    await saveAtomically(
      claudeRegistry(),
      registry({ 'tools@m': [entry(`${root}/plugins/tools`)], 'kit@m': [entry(`${root}/plugins/kit`)] }),
    );
    await writeTree(root, { 'plugins/kit/skills/fmt/SKILL.md': SK({ description: 'Format' }) });
    await expectIndex({ added: ['fmt'] });
  });

  it('disable and enable through enabledPlugins in the Claude settings', async () => {
    await writeTree(root, { 'home/.claude/settings.json': enabledPlugins({ 'tools@m': false }) });
    await expectIndex({ removed: ['lint'] });
    await writeFile(`${root}/home/.claude/settings.json`, enabledPlugins({ 'tools@m': true }));
    await expectIndex({ added: ['lint'] });
  });

  it("disable through the project's settings.local.json, then enable by removing it", async () => {
    await writeTree(root, { 'project/.claude/settings.local.json': enabledPlugins({ 'kit@m': false }) });
    await expectIndex({ removed: ['fmt'] });
    await rm(`${root}/project/.claude/settings.local.json`);
    await expectIndex({ added: ['fmt'] });
  });

  it("a manifest's skills entries, and an edit of a plugin skill", async () => {
    await writeTree(root, { 'plugins/tools/more/extra/SKILL.md': SK({ description: 'Extra' }) });
    await writeTree(root, { 'plugins/tools/.claude-plugin/plugin.json': JSON.stringify({ skills: ['./more'] }) });
    await expectIndex({ added: ['extra'] });
    await saveAtomically(`${root}/plugins/tools/skills/lint/SKILL.md`, SK({ description: 'Lint, edited' }));
    await expectIndex({ changed: ['lint'] });
  });

  it('remove: the registry entry goes, with every skill of the plugin', async () => {
    await saveAtomically(claudeRegistry(), registry({ 'kit@m': [entry(`${root}/plugins/kit`)] }));
    await expectIndex({ removed: ['extra', 'lint'] });
    assert.deepEqual(await loaded(), ['base native:project -', 'fmt claude-plugins:user kit@m']);
  });

  it('the project registry: an install shadowing a user one, and its removal', async () => {
    await writeTree(root, { 'plugins/kit-project/skills/fmt-project/SKILL.md': SK({ description: 'Project copy' }) });
    await writeTree(root, {
      'project/.musepi/plugins/installed_plugins.json': registry({
        'kit@m': [entry(`${root}/plugins/kit-project`, { scope: 'project' })],
      }),
    });
    await expectIndex({ added: ['fmt-project'], removed: ['fmt'] });
    assert.deepEqual(await loaded(), ['base native:project -', 'fmt-project claude-plugins:project kit@m']);
    await rm(`${root}/project/.musepi/plugins/installed_plugins.json`);
    await expectIndex({ added: ['fmt'], removed: ['fmt-project'] });
  });

  it('an Agent Plugin: installed, then rejected by its manifest (with the warning), then valid again', async () => {
    await writeTree(root, {
      'plugins/ap/plugin.json': agentManifest('ap'),
      'plugins/ap/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'Alpha' }),
    });
    await saveAtomically(
      claudeRegistry(),
      registry({ 'kit@m': [entry(`${root}/plugins/kit`)], 'ap@m': [entry(`${root}/plugins/ap`)] }),
    );
    await expectIndex({ added: ['alpha'] });
    assert.ok((await loaded()).includes('alpha agent-plugins:user ap'));
    await saveAtomically(`${root}/plugins/ap/plugin.json`, agentManifest('Bad Name'));
    await expectIndex({ removed: ['alpha'] });
    const warning = await events.next(is('warning'), EVENT_TIMEOUT_MS);
    assert.deepEqual(JSON.parse(warning.data), {
      skillPath: '',
      message: `[Agent Plugins] [agent-plugins] Rejected plugin at ${root}/plugins/ap: invalid plugin name "Bad Name"`,
    });
    await saveAtomically(`${root}/plugins/ap/plugin.json`, agentManifest('ap'));
    await expectIndex({ added: ['alpha'] });
  });

  it('omp-plugins: a package installed, disabled by the lock file, by the overrides, enabled again, removed', async () => {
    const plugins = `${root}/home/.musepi/plugins`;
    await writeTree(root, {
      'home/.musepi/plugins/node_modules/pkg/package.json': JSON.stringify({ name: 'pkg', omp: {} }),
      'home/.musepi/plugins/node_modules/pkg/skills/pkg-skill/SKILL.md': SK({ description: 'From a package' }),
    });
    await writeTree(root, { 'home/.musepi/plugins/package.json': JSON.stringify({ dependencies: { pkg: '1.0.0' } }) });
    await expectIndex({ added: ['pkg-skill'] });
    assert.ok((await loaded()).includes('pkg-skill omp-plugins:user pkg'));
    await writeFile(`${plugins}/omp-plugins.lock.json`, JSON.stringify({ plugins: { pkg: { enabled: false } } }));
    await expectIndex({ removed: ['pkg-skill'] });
    await writeFile(`${plugins}/omp-plugins.lock.json`, JSON.stringify({ plugins: { pkg: { enabled: true } } }));
    await expectIndex({ added: ['pkg-skill'] });
    await writeTree(root, { 'project/.musepi/plugin-overrides.json': JSON.stringify({ disabled: ['pkg'] }) });
    await expectIndex({ removed: ['pkg-skill'] });
    await rm(`${root}/project/.musepi/plugin-overrides.json`);
    await expectIndex({ added: ['pkg-skill'] });
    await saveAtomically(`${plugins}/package.json`, JSON.stringify({ dependencies: {} }));
    await rm(`${plugins}/omp-plugins.lock.json`);
    await expectIndex({ removed: ['pkg-skill'] });
  });

  it("omp-plugins: an extension package named in the workspace's settings", async () => {
    await writeTree(root, { 'ext/skills/ext-skill/SKILL.md': SK({ description: 'Extension' }) });
    await writeTree(root, { 'project/.musepi/settings.json': JSON.stringify({ extensions: ['../ext'] }) });
    await expectIndex({ added: ['ext-skill'] });
    assert.ok((await loaded()).includes('ext-skill omp-plugins:project ext'));
    assert.equal((await skillsAnswer()).generation, generation);
  });
});
