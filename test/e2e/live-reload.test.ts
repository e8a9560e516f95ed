// Live reload through the built daemon: real edits of the skill tree on disk, each seen both in `GET /skills` and as
// the right SSE event (docs/api.md §GET /events), with the file-system cases chokidar alone gets wrong (docs/platform-notes.md §2
// "chokidar on Node 20": a root two levels deep created after start, a root deleted and recreated, two quick writes).
//
// One daemon and one event stream serve the file; the tests run in order and each starts from the state the previous
// one left. Every change must produce exactly the expected `index` events, in order: no spurious ones in between.

import assert from 'node:assert/strict';
import { rename, rm, symlink, writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { SseClient, type SseEvent } from '../helpers/sse-client.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

interface IndexData {
  generation: number;
  added: string[];
  removed: string[];
  changed: string[];
}

interface SkillsAnswer {
  generation: number;
  skills: Array<{ name: string; description: string; filePath: string; source: { id: string } }>;
  warnings: Array<{ skillPath: string; message: string }>;
}

const is =
  (type: string) =>
  (event: SseEvent): boolean =>
    event.event === type;

describe('live reload (built daemon, real file system)', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;
  let home: string;
  let skillsDir: string;
  let events: SseClient;
  let generation = 1;

  const skillsAnswer = async (): Promise<SkillsAnswer> =>
    (await (await fetch(`${daemon.url}/skills`)).json()) as SkillsAnswer;

  /** The loaded skills as `name=description`, compact enough to compare whole. */
  const loaded = async (): Promise<string[]> =>
    (await skillsAnswer()).skills.map((skill) => `${skill.name}=${skill.description}`);

  /** The next `index` event: it must be the next generation and carry exactly these names. */
  async function expectIndex(change: Partial<Omit<IndexData, 'generation'>>): Promise<SseEvent> {
    const event = await events.next(is('index'));
    generation += 1;
    assert.deepEqual(JSON.parse(event.data), { generation, added: [], removed: [], changed: [], ...change });
    return event;
  }

  /** The next `index` event: the next generation, with names only in the `fields` given. */
  async function expectIndexOf(fields: Array<keyof Omit<IndexData, 'generation'>>): Promise<SseEvent> {
    const event = await events.next(is('index'));
    generation += 1;
    const body = JSON.parse(event.data) as IndexData;
    assert.equal(body.generation, generation);
    for (const field of ['added', 'removed', 'changed'] as const) {
      if (!fields.includes(field)) assert.deepEqual(body[field], [], `${field} in ${event.data}`);
    }
    return event;
  }

  /** Replaces a file in one rename, as editors save (a rewrite in place is briefly an empty file). */
  async function saveAtomically(path: string, text: string): Promise<void> {
    const temp = `${root}/.save-${Date.now()}`;
    await writeFile(temp, text);
    await rename(temp, path);
  }

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('skillsd-e2e-reload-'));
    home = `${root}/home`;
    skillsDir = `${root}/project/.musepi/skills`;
    await writeTree(root, {
      // HOME exists but `~/.claude` does not: its skills root is two levels away from existing.
      'home/.keep': '',
      'project/.git': { dir: true },
      'project/.musepi/skills/alpha/SKILL.md': SK({ description: 'Alpha' }),
      'project/.musepi/skills/beta/SKILL.md': SK({ description: 'Beta' }),
      'elsewhere/linked/SKILL.md': SK({ description: 'Linked' }),
      // The custom directory does not exist at start: no warning yet.
      'skillsd.json': JSON.stringify({ skills: { customDirectories: [`${root}/custom`] } }),
    });
    daemon = await startDaemon(
      ['serve', '--port', '0', '--cwd', `${root}/project`, '--config', `${root}/skillsd.json`],
      { home },
    );
    events = await SseClient.connect(`${daemon.url}/events`);
    assert.deepEqual(JSON.parse((await events.next(is('hello'))).data), { generation: 1, skills: 2 });
  });
  after(async () => {
    events?.close();
    await daemon?.process.kill();
    await cleanup?.();
  });

  it('starts with the skills on disk', async () => {
    const answer = await skillsAnswer();
    assert.equal(answer.generation, 1);
    assert.deepEqual(await loaded(), ['alpha=Alpha', 'beta=Beta']);
    assert.deepEqual(answer.warnings, []);
  });

  it('an edited SKILL.md: changed', async () => {
    await saveAtomically(`${skillsDir}/alpha/SKILL.md`, SK({ description: 'Alpha, edited' }));
    await expectIndex({ changed: ['alpha'] });
    assert.deepEqual(await loaded(), ['alpha=Alpha, edited', 'beta=Beta']);
    assert.equal((await skillsAnswer()).generation, generation);
    assert.equal(await (await fetch(`${daemon.url}/skill/alpha`)).text(), SK({ description: 'Alpha, edited' }));
  });

  it('a new skill directory: added', async () => {
    await writeTree(skillsDir, { 'gamma/SKILL.md': SK({ description: 'Gamma' }) });
    await expectIndex({ added: ['gamma'] });
    assert.deepEqual(await loaded(), ['alpha=Alpha, edited', 'beta=Beta', 'gamma=Gamma']);
  });

  it('a skill directory removed: removed', async () => {
    await rm(`${skillsDir}/gamma`, { recursive: true });
    await expectIndex({ removed: ['gamma'] });
    assert.deepEqual(await loaded(), ['alpha=Alpha, edited', 'beta=Beta']);
  });

  it('a skill directory renamed: removed and added', async () => {
    await rename(`${skillsDir}/beta`, `${skillsDir}/beta-two`);
    await expectIndex({ added: ['beta-two'], removed: ['beta'] });
    assert.deepEqual(await loaded(), ['alpha=Alpha, edited', 'beta-two=Beta']);
  });

  it('a symlinked skill directory: added, served from the link', async () => {
    await symlink(`${root}/elsewhere/linked`, `${skillsDir}/linked`);
    await expectIndex({ added: ['linked'] });
    const linked = (await skillsAnswer()).skills.find((skill) => skill.name === 'linked');
    assert.equal(linked?.filePath, `${skillsDir}/linked/SKILL.md`);
    // Its target is watched too: an edit there is a change of the linked skill.
    await saveAtomically(`${root}/elsewhere/linked/SKILL.md`, SK({ description: 'Linked, edited' }));
    await expectIndex({ changed: ['linked'] });
    assert.deepEqual(await loaded(), ['alpha=Alpha, edited', 'beta-two=Beta', 'linked=Linked, edited']);
  });

  it('a provider root created after start, two levels deep ($HOME/.claude/skills): added', async () => {
    await writeTree(home, { '.claude/skills/xray/SKILL.md': SK({ description: 'X-ray' }) });
    await expectIndex({ added: ['xray'] });
    const xray = (await skillsAnswer()).skills.find((skill) => skill.name === 'xray');
    assert.equal(xray?.source.id, 'claude:user');
    assert.equal(xray?.filePath, `${home}/.claude/skills/xray/SKILL.md`);
  });

  it('a skills root deleted, then recreated with a skill: removed, then added', async () => {
    // A recursive delete is several steps on disk: a reload may land between two of them, so the removals may come
    // in more than one event; together they must name exactly the three skills, and nothing else.
    await rm(skillsDir, { recursive: true });
    const removed: string[] = [];
    while (removed.length < 3) {
      const event = JSON.parse((await expectIndexOf(['removed'])).data) as IndexData;
      removed.push(...event.removed);
    }
    assert.deepEqual(removed.sort(), ['alpha', 'beta-two', 'linked']);
    assert.deepEqual(await loaded(), ['xray=X-ray']);
    await writeTree(skillsDir, { 'alpha/SKILL.md': SK({ description: 'Alpha again' }) });
    await expectIndex({ added: ['alpha'] });
    assert.deepEqual(await loaded(), ['alpha=Alpha again', 'xray=X-ray']);
    // The recreated root is watched again.
    await saveAtomically(`${skillsDir}/alpha/SKILL.md`, SK({ description: 'Alpha, third' }));
    await expectIndex({ changed: ['alpha'] });
  });

  it('a higher-priority duplicate: collision new, changed by a third candidate, resolved when it goes', async () => {
    const claudeX = `${home}/.claude/skills/xray/SKILL.md`;
    const nativeX = `${skillsDir}/xray/SKILL.md`;
    const claude = {
      filePath: claudeX,
      source: { id: 'claude:user', provider: 'claude', providerName: 'Claude Code', level: 'user', path: claudeX },
    };
    const native = {
      filePath: nativeX,
      source: { id: 'native:project', provider: 'native', providerName: 'MusePi', level: 'project', path: nativeX },
    };
    const record = { name: 'xray', winner: native, shadowed: [{ ...claude, reason: 'precedence' }] };

    await writeTree(skillsDir, { 'xray/SKILL.md': SK({ description: 'Native X-ray' }) });
    const index = await expectIndex({ changed: ['xray'] });
    const appeared = await events.next(is('collision'));
    // Ids are derived from content: the change's last event names the state it leads to, the index event before it
    // has its own (docs/index-and-events.md §Event ids).
    assert.match(appeared.id ?? '', /^[0-9]{1,16}$/);
    assert.notEqual(appeared.id, index.id);
    assert.deepEqual(JSON.parse(appeared.data), { name: 'xray', state: 'new', collision: record });
    const answer = await skillsAnswer();
    assert.deepEqual(
      answer.skills.map((skill) => `${skill.name}=${skill.source.id}`),
      ['alpha=native:project', 'xray=native:project'],
    );
    const collisions = (await (await fetch(`${daemon.url}/collisions`)).json()) as unknown;
    assert.deepEqual(collisions, { generation, collisions: [record] });

    // A third candidate: the same winner, one more loser.
    const agentsX = `${root}/project/.agents/skills/xray/SKILL.md`;
    const agents = {
      filePath: agentsX,
      source: {
        id: 'agents:project',
        provider: 'agents',
        providerName: 'Agent Dirs (.agent/.agents)',
        level: 'project',
        path: agentsX,
      },
      reason: 'precedence',
    };
    await writeTree(root, { 'project/.agents/skills/xray/SKILL.md': SK({ description: 'Agents X-ray' }) });
    await expectIndex({});
    const grown = { ...record, shadowed: [...record.shadowed, agents] };
    assert.deepEqual(JSON.parse((await events.next(is('collision'))).data), {
      name: 'xray',
      state: 'changed',
      collision: grown,
    });
    await rm(`${root}/project/.agents`, { recursive: true });
    await expectIndex({});
    assert.deepEqual(JSON.parse((await events.next(is('collision'))).data), {
      name: 'xray',
      state: 'changed',
      collision: record,
    });

    await rm(`${skillsDir}/xray`, { recursive: true });
    await expectIndex({ changed: ['xray'] });
    const resolved = await events.next(is('collision'));
    assert.deepEqual(JSON.parse(resolved.data), { name: 'xray', state: 'resolved', collision: record });
    assert.deepEqual(await (await fetch(`${daemon.url}/collisions`)).json(), { generation, collisions: [] });
  });

  /**
   * After a move of `name` between two roots, until the index shows it from `sourceId` with no collision: one rename(2)
   * reaches the daemon as two watcher events, one per root, and on a loaded machine a reload can run between them.
   * So the index reports one `changed`, or `changed` (both roots seen holding it: a collision) then an event that
   * only resolves that collision, or `removed` then `added` — each the truth about its moment, never anything else.
   */
  async function expectMoved(name: string, sourceId: string): Promise<void> {
    const seen: IndexData[] = [];
    const settled = (data: IndexData) => data.changed.includes(name) || data.added.includes(name);
    while (!seen.some(settled)) seen.push(JSON.parse((await events.next(is('index'))).data) as IndexData);
    // A collision seen on the way is resolved by one more event that names no skill.
    const collisions = async () =>
      ((await (await fetch(`${daemon.url}/collisions`)).json()) as { collisions: unknown[] }).collisions;
    if ((await collisions()).length > 0 || (await skillsAnswer()).generation > seen.at(-1)!.generation) {
      seen.push(JSON.parse((await events.next(is('index'))).data) as IndexData);
    }
    const mentions = seen.map((data) =>
      [
        ...data.added.map((n) => `added ${n}`),
        ...data.removed.map((n) => `removed ${n}`),
        ...data.changed.map((n) => `changed ${n}`),
      ].join(),
    );
    const shapes = [[`changed ${name}`], [`changed ${name}`, ''], [`removed ${name}`, `added ${name}`]];
    assert.ok(
      shapes.some((shape) => JSON.stringify(shape) === JSON.stringify(mentions)),
      `index events ${JSON.stringify(seen)}`,
    );
    for (const data of seen) assert.equal(data.generation, ++generation);
    const answer = await skillsAnswer();
    assert.equal(answer.generation, generation);
    assert.equal(answer.skills.find((skill) => skill.name === name)?.source.id, sourceId);
    assert.deepEqual(await collisions(), []);
  }

  it('a skill moved from one root to another: changed (or removed, then added), with its new source', async () => {
    await rename(`${home}/.claude/skills/xray`, `${skillsDir}/xray`);
    await expectMoved('xray', 'native:project');
    await rename(`${skillsDir}/xray`, `${home}/.claude/skills/xray`);
    await expectMoved('xray', 'claude:user');
  });

  it('a skills root that becomes a symlink to a shared directory, then points elsewhere', async () => {
    await writeTree(root, {
      'dotfiles/skills/dot-one/SKILL.md': SK({ description: 'Dot one' }),
      'dotfiles/other/dot-two/SKILL.md': SK({ description: 'Dot two' }),
    });
    const userSkills = `${home}/.claude/skills`;
    await rename(userSkills, `${root}/old-claude-skills`);
    await symlink(`${root}/dotfiles/skills`, userSkills);
    // One step on disk (a rename, then a link): reloads may land between the two.
    const seen: IndexData[] = [];
    while (!seen.some((event) => event.added.includes('dot-one'))) {
      seen.push(JSON.parse((await events.next(is('index'))).data) as IndexData);
    }
    generation = seen.at(-1)!.generation;
    assert.deepEqual(await loaded(), ['alpha=Alpha, third', 'dot-one=Dot one']);
    // Edits inside the link's target are seen.
    await saveAtomically(`${root}/dotfiles/skills/dot-one/SKILL.md`, SK({ description: 'Dot one, edited' }));
    await expectIndex({ changed: ['dot-one'] });
    // The link re-pointed in one rename.
    await symlink(`${root}/dotfiles/other`, `${root}/next-link`);
    await rename(`${root}/next-link`, userSkills);
    await expectIndex({ added: ['dot-two'], removed: ['dot-one'] });
    await saveAtomically(`${root}/dotfiles/other/dot-two/SKILL.md`, SK({ description: 'Dot two, edited' }));
    await expectIndex({ changed: ['dot-two'] });
    // Back to the real directory, for the tests below.
    await rm(userSkills);
    await rename(`${root}/old-claude-skills`, userSkills);
    const back: IndexData[] = [];
    while (!back.some((event) => event.added.includes('xray'))) {
      back.push(JSON.parse((await events.next(is('index'))).data) as IndexData);
    }
    generation = back.at(-1)!.generation;
    assert.deepEqual(await loaded(), ['alpha=Alpha, third', 'xray=X-ray']);
  });

  it('a custom directory that turns out to be a file: a warning event', async () => {
    const custom = `${root}/custom`;
    const warning = {
      skillPath: custom,
      message: `Failed to read skills directory: ${custom} (Error: ENOTDIR: not a directory, scandir '${custom}')`,
    };
    await writeFile(custom, 'not a directory');
    await expectIndex({});
    assert.deepEqual(JSON.parse((await events.next(is('warning'))).data), warning);
    assert.deepEqual((await skillsAnswer()).warnings, [warning]);
    // Gone again: the warning leaves the answer with a new generation.
    await rm(custom);
    await expectIndex({});
    assert.deepEqual((await skillsAnswer()).warnings, []);
  });

  it('a file where a provider expects a directory (.codex): a warning event naming the provider', async () => {
    const codex = `${root}/project/.codex/skills`;
    const warning = {
      skillPath: '',
      message: `[OpenAI Codex] Failed to read skills directory: ${codex} (Error: ENOTDIR: not a directory, scandir '${codex}')`,
    };
    await writeFile(`${root}/project/.codex`, 'not a directory');
    await expectIndex({});
    assert.deepEqual(JSON.parse((await events.next(is('warning'))).data), warning);
    assert.deepEqual((await skillsAnswer()).warnings, [warning]);
    await rm(`${root}/project/.codex`);
    await expectIndex({});
    assert.deepEqual((await skillsAnswer()).warnings, []);
    // One warning event per warning that appeared; none for those that went.
    assert.equal(events.events.filter(is('warning')).length, 2);
  });

  it('a burst of 30 new skills: every one added, none lost, in few events', async () => {
    const names = Array.from({ length: 30 }, (_, index) => `burst-${String(index).padStart(2, '0')}`);
    await writeTree(
      skillsDir,
      Object.fromEntries(names.map((name) => [`${name}/SKILL.md`, SK({ description: `Burst ${name}` })])),
    );
    const added: string[] = [];
    let count = 0;
    while (added.length < names.length) {
      added.push(...(JSON.parse((await expectIndexOf(['added'])).data) as IndexData).added);
      count += 1;
    }
    assert.deepEqual(added.sort(), names);
    // Coalesced: a reload covers whatever arrived since the last one.
    assert.ok(count < names.length, `${count} events`);
    await Promise.all(names.map((name) => rm(`${skillsDir}/${name}`, { recursive: true })));
    const removed: string[] = [];
    while (removed.length < names.length) {
      removed.push(...(JSON.parse((await expectIndexOf(['removed'])).data) as IndexData).removed);
    }
    assert.deepEqual(removed.sort(), names);
    assert.deepEqual(await loaded(), ['alpha=Alpha, third', 'xray=X-ray']);
  });

  it('two writes 10 ms apart: the final description is the one served', async () => {
    const path = `${skillsDir}/alpha/SKILL.md`;
    await writeFile(path, SK({ description: 'First of two' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await writeFile(path, SK({ description: 'Second of two' }));
    // Whatever intermediate states were indexed, the last index event leaves the final text in place.
    const deadline = Date.now() + 5000;
    let last = '';
    while (Date.now() < deadline) {
      last = (await loaded())[0] ?? '';
      if (last === 'alpha=Second of two') break;
      await events.next(is('index'), Math.max(1, deadline - Date.now())).catch(() => undefined);
    }
    assert.equal(last, 'alpha=Second of two');
    // And it stays: no later event takes it back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await loaded(), ['alpha=Second of two', 'xray=X-ray']);
  });
});
