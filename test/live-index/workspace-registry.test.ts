import assert from 'node:assert/strict';
import { chown, lchown } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { defaultSettings, parseSettings } from '../../src/discovery/settings.js';
import { WorkspaceRegistry, type WorkspaceRegistryOptions } from '../../src/live-index/workspace-registry.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function openRegistry(t: TestContext, options: Partial<WorkspaceRegistryOptions> = {}) {
  const { dir: root, cleanup } = await makeTempDir();
  await writeTree(root, {
    'home/.keep': '',
    'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
    'a/.keep': '',
    'b/.keep': '',
    'c/.keep': '',
    'allowed/one/.keep': '',
    'file.txt': 'x',
  });
  const registry = new WorkspaceRegistry({
    home: `${root}/home`,
    env: {},
    defaultCwd: `${root}/work`,
    settings: defaultSettings(),
    watch: false,
    ...options,
  });
  t.after(async () => {
    await registry.close();
    await cleanup();
  });
  return { registry, root };
}

function badRequest(message: string) {
  return { name: 'SkillsdError', code: 'BadRequest', message };
}

function forbiddenWorkspace(message: string) {
  return { name: 'SkillsdError', code: 'ForbiddenWorkspace', message };
}

const THEIRS = 65534;
const isRoot = process.geteuid?.() === 0;

describe('WorkspaceRegistry', () => {
  it('answers the default workspace without a cwd, and the same index for the same directory', async (t) => {
    const { registry, root } = await openRegistry(t);
    const main = await registry.get();
    assert.equal(main, registry.defaultWorkspace);
    assert.equal(main.cwd, `${root}/work`);
    assert.equal(await registry.get(''), main);
    assert.equal(await registry.get(`${root}/work/`), main);
    assert.equal(await registry.get(`${root}/work/../work`), main);
    const a = await registry.get(`${root}/a`);
    assert.equal(await registry.get(`${root}/a`), a);
    assert.deepEqual(registry.list(), [`${root}/work`, `${root}/a`]);
  });

  it('refuses relative, missing and non-directory paths with BadRequest', async (t) => {
    const { registry, root } = await openRegistry(t);
    await assert.rejects(registry.get('work'), badRequest('cwd must be an absolute path: work'));
    await assert.rejects(registry.get(`${root}/nope`), badRequest(`cwd does not exist: ${root}/nope`));
    await assert.rejects(registry.get(`${root}/file.txt`), badRequest(`cwd is not a directory: ${root}/file.txt`));
    await assert.rejects(registry.get(`${root}/a\0b`), badRequest('cwd must not contain a NUL byte'));
    assert.equal(registry.size, 1);
  });

  it('honours server.allowedWorkspaces globs, the default workspace always allowed', async (t) => {
    const { root, cleanup } = await makeTempDir().then(async (temp) => ({ root: temp.dir, cleanup: temp.cleanup }));
    t.after(cleanup);
    await writeTree(root, { 'work/.keep': '', 'allowed/one/.keep': '', 'a/.keep': '' });
    const settings = parseSettings({ server: { allowedWorkspaces: [`${root}/allowed/*`] } });
    const registry = new WorkspaceRegistry({ home: root, env: {}, defaultCwd: `${root}/work`, settings, watch: false });
    t.after(() => registry.close());
    assert.equal((await registry.get(`${root}/allowed/one`)).cwd, `${root}/allowed/one`);
    assert.equal((await registry.get(`${root}/work`)).cwd, `${root}/work`);
    await assert.rejects(
      registry.get(`${root}/a`),
      badRequest(`cwd is not an allowed workspace (server.allowedWorkspaces): ${root}/a`),
    );
    // A new allow-list closes the workspaces it no longer allows.
    const one = await registry.get(`${root}/allowed/one`);
    await registry.applySettings(parseSettings({ server: { allowedWorkspaces: [`${root}/a`] } }), 'cfg');
    assert.equal(one.closed, true);
    assert.deepEqual(registry.list(), [`${root}/work`]);
    assert.equal((await registry.get(`${root}/a`)).cwd, `${root}/a`);
  });

  it('closes the least recently used idle workspace at the cap, never the default nor one with a stream', async (t) => {
    const { registry, root } = await openRegistry(t, { maxWorkspaces: 3 });
    const a = await registry.get(`${root}/a`);
    const b = await registry.get(`${root}/b`);
    a.lastUsed = 1;
    b.lastUsed = 2;
    registry.defaultWorkspace.lastUsed = 0;
    const c = await registry.get(`${root}/c`);
    assert.equal(a.closed, true);
    assert.equal(b.closed, false);
    assert.deepEqual(registry.list(), [`${root}/work`, `${root}/b`, `${root}/c`]);
    // b has a subscriber (an open event stream): c goes instead, though b is older.
    const unsubscribe = b.events.subscribe(() => {});
    b.lastUsed = 1;
    c.lastUsed = 2;
    await registry.get(`${root}/a`);
    assert.equal(c.closed, true);
    assert.equal(b.closed, false);
    // Every other workspace busy: opening one more is refused.
    const a2 = await registry.get(`${root}/a`);
    const unsubscribeA = a2.events.subscribe(() => {});
    await assert.rejects(
      registry.get(`${root}/c`),
      badRequest('Too many open workspaces (3), each with an open event stream; close one and retry'),
    );
    unsubscribe();
    unsubscribeA();
    assert.equal(registry.defaultWorkspace.closed, false);
  });

  it('closes workspaces idle for idleTimeoutMs, keeping the default one and those with streams', async (t) => {
    const { registry, root } = await openRegistry(t, { idleTimeoutMs: 30 });
    const a = await registry.get(`${root}/a`);
    const b = await registry.get(`${root}/b`);
    b.events.subscribe(() => {});
    const deadline = Date.now() + WAIT_MS;
    while (!a.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(a.closed, true);
    assert.equal(b.closed, false);
    assert.equal(registry.defaultWorkspace.closed, false);
    assert.deepEqual(registry.list(), [`${root}/work`, `${root}/b`]);
  });

  it('reports health of the default workspace', async (t) => {
    const { registry } = await openRegistry(t);
    await registry.defaultWorkspace.ready;
    const health = registry.health();
    assert.deepEqual(
      { ...health, uptimeS: 0 },
      {
        status: 'ok',
        generation: 1,
        skills: 1,
        diagnostics: 0,
        uptimeS: 0,
        workspaces: 1,
        watchers: 0,
        watchMode: 'off',
      },
    );
  });

  it('applies settings to every workspace and reports refused edits to all', async (t) => {
    const { registry, root } = await openRegistry(t);
    const a = await registry.get(`${root}/a`);
    await Promise.all([registry.defaultWorkspace.ready, a.ready]);
    const seen: string[] = [];
    registry.defaultWorkspace.events.subscribe((event) => seen.push(`work:${event.type}`));
    a.events.subscribe((event) => seen.push(`a:${event.type}`));
    const next = parseSettings({ skills: { enablePiProject: false } });
    await registry.applySettings(next, '/cfg.json');
    assert.equal(registry.settings, next);
    assert.deepEqual(seen.sort(), ['a:settings', 'work:index', 'work:settings']);
    registry.reportSettingsError('/cfg.json', 'oops');
    assert.deepEqual(seen.slice(3).sort(), ['a:settings-error', 'work:settings-error']);
    assert.equal(registry.defaultWorkspace.snapshot!.skills.length, 0);
  });

  it('refuses requests once closed, and closes every workspace', async (t) => {
    const { registry, root } = await openRegistry(t);
    const a = await registry.get(`${root}/a`);
    await registry.close();
    assert.equal(a.closed, true);
    await assert.rejects(registry.get(), { code: 'NotReady', message: 'The daemon is shutting down' });
  });

  describe('whose directories ?cwd= may open', { skip: isRoot ? false : 'chown needs root' }, () => {
    const notOwned = (dir: string) =>
      forbiddenWorkspace(
        `cwd is not an allowed workspace: ${dir} is owned by uid ${THEIRS}, not by the daemon's user (uid 0), and ` +
          'server.allowedWorkspaces does not name it',
      );

    it("refuses another user's directory unless server.allowedWorkspaces names it", async (t) => {
      const { registry, root } = await openRegistry(t);
      await writeTree(root, { 'theirs/.keep': '' });
      await chown(`${root}/theirs`, THEIRS, THEIRS);
      await assert.rejects(registry.get(`${root}/theirs`), notOwned(`${root}/theirs`));
      assert.equal(registry.size, 1);
      await registry.applySettings(parseSettings({ server: { allowedWorkspaces: [`${root}/theirs`] } }), 'cfg');
      assert.equal((await registry.get(`${root}/theirs`)).cwd, `${root}/theirs`);
      // Named no more: closed, and refused again.
      await registry.applySettings(defaultSettings(), 'cfg');
      assert.deepEqual(registry.list(), [`${root}/work`]);
      await assert.rejects(registry.get(`${root}/theirs`), notOwned(`${root}/theirs`));
    });

    it('matches server.allowedWorkspaces on real paths', async (t) => {
      const { registry, root } = await openRegistry(t);
      await writeTree(root, {
        'theirs/.keep': '',
        'mine/.keep': '',
        'allowed/to-theirs': { symlink: '../theirs' },
        'allowed/to-mine': { symlink: '../mine' },
        'real/one/.keep': '',
        alias: { symlink: 'real' },
      });
      await chown(`${root}/theirs`, THEIRS, THEIRS);
      const globs = [`${root}/allowed/*`, `${root}/alias/*`];
      await registry.applySettings(parseSettings({ server: { allowedWorkspaces: globs } }), 'cfg');
      // `allowed/to-theirs` matches the glob as written; its real directory is not named and not ours.
      await assert.rejects(registry.get(`${root}/allowed/to-theirs`), notOwned(`${root}/theirs`));
      await assert.rejects(
        registry.get(`${root}/allowed/to-mine`),
        badRequest(`cwd is not an allowed workspace (server.allowedWorkspaces): ${root}/allowed/to-mine`),
      );
      assert.equal((await registry.get(`${root}/allowed/one`)).cwd, `${root}/allowed/one`);
      // A glob written through the user's own link names the real directories behind it.
      assert.equal((await registry.get(`${root}/real/one`)).cwd, `${root}/real/one`);
    });

    it("refuses a cwd whose path goes through another user's link", async (t) => {
      const { registry, root } = await openRegistry(t);
      await writeTree(root, { 'their-link': { symlink: 'a' } });
      await lchown(`${root}/their-link`, THEIRS, THEIRS);
      await assert.rejects(
        registry.get(`${root}/their-link`),
        forbiddenWorkspace(
          `cwd is not an allowed workspace: the symbolic link ${root}/their-link is owned by uid ${THEIRS} and ` +
            "leads to uid 0: links are followed only when owned by the daemon's user (uid 0) or by the owner of " +
            'their target',
        ),
      );
      // The directory itself, named directly, is ours.
      assert.equal((await registry.get(`${root}/a`)).cwd, `${root}/a`);
    });
  });
});
