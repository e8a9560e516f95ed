// Hostile skill trees against the real daemon (real port, real HTTP, the MCP SDK's client): every walk of a skill's
// files is bounded by the entries it examines (refused ones included), the directories it lists and their depth;
// concurrent requests share one walk, at most 4 walks run at once, a walk whose clients all went away stops, and
// `resources/directory/read` pages from the one listing (docs/api.md "Limits on walks").

import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { skillListingStats } from '../../src/live-index/skill-listings.js';
import { startServer as startAppServer, type TestServer, type TestServerOptions } from '../helpers/app-server.js';
import { waitUntil } from '../helpers/deadlines.js';
import { connectHttp, DirectoryReadResult, SkillsGetResult, SkillsListResult } from '../helpers/mcp-client.js';
import { largeTreeBase, makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

/** The real app, with load shedding out of the way: a loaded test machine must not turn these answers into 503s. */
function startServer(t: Parameters<typeof startAppServer>[0], options: TestServerOptions = {}) {
  return startAppServer(t, { ...options, app: { pressure: { maxEventLoopDelayMs: 60_000 }, ...options.app } });
}

const skillsDir = (s: TestServer) => `${s.cwd}/.musepi/skills`;

function skillTree(...names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => [`work/.musepi/skills/${name}/SKILL.md`, SK({ name, description: `The ${name} skill` })]),
  );
}

/** `count` directories under `dir`, each empty or holding one dangling link. */
function makeDirectories(dir: string, count: number, danglingLink = false): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    mkdirSync(`${dir}/${i}`);
    if (danglingLink) symlinkSync('missing', `${dir}/${i}/x`);
  }
}

async function mcpClient(t: { after: (fn: () => Promise<void>) => void }, s: TestServer) {
  const mcp = await connectHttp(`${s.base}/mcp`);
  t.after(() => mcp.close());
  return mcp.client;
}

// Bounds far past the tree, and links followed: w1–w6 walk huge's 100,000 directories.
const ROOMY = { symlinks: 'follow', server: { walkLimits: { maxEntries: 10_000_000, maxDirectories: 1_000_000 } } };

describe('Limits on walks: a skill of 100,000 empty directories', () => {
  // Built once, in memory where the system can (largeTreeBase: 100,000 directories take seconds to make and more to
  // remove on a loaded disk), and served by several daemons over the same root.
  let root = '';
  let cleanup: () => Promise<void> = async () => undefined;
  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('skillsd-test-', largeTreeBase()));
    await writeTree(root, {
      'home/.keep': '',
      'work/.git/HEAD': 'ref: refs/heads/main\n',
      ...skillTree('huge', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6'),
    });
    makeDirectories(`${root}/work/.musepi/skills/huge/d`, 100_000);
    // Six more skills whose `d` is huge's: followed only under `symlinks: follow`, for the walks that must run long.
    for (const name of ['w1', 'w2', 'w3', 'w4', 'w5', 'w6']) {
      symlinkSync('../huge/d', `${root}/work/.musepi/skills/${name}/d`);
    }
  });
  after(() => cleanup());

  it('answers with the entries bound, fast, on every face', async (t) => {
    const s = await startServer(t, { sharedRoot: root });
    const before = skillListingStats();

    const started = performance.now();
    const archive = await fetch(`${s.base}/skill/huge?archive=tar.gz`);
    const archiveMs = performance.now() - started;
    assert.equal(archive.status, 413);
    assert.deepEqual(await archive.json(), {
      statusCode: 413,
      code: 'TooLarge',
      error: 'Payload Too Large',
      message: 'Skill huge is too large to archive: more than 20000 entries (server.walkLimits.maxEntries)',
    });
    const walked = skillListingStats();
    // One walk, stopped at the first entry past the bound: SKILL.md, d/, then 19,999 of d's entries and one more.
    assert.equal(walked.walks - before.walks, 1);
    assert.equal(walked.examined - before.examined, 20_001);

    const listing = await fetch(`${s.base}/skill/huge/d`, { headers: { accept: 'application/json' } });
    assert.equal(listing.status, 413);
    assert.deepEqual(await listing.json(), {
      statusCode: 413,
      code: 'TooLarge',
      error: 'Payload Too Large',
      message: 'Directory skill://huge/d is too large to list: more than 20000 entries (server.walkLimits.maxEntries)',
    });

    const client = await mcpClient(t, s);
    const listStarted = performance.now();
    const { skills } = await client.request({ method: 'skills/list' }, SkillsListResult);
    const listMs = performance.now() - listStarted;
    assert.deepEqual(
      skills.find((skill) => skill.uri === 'skill://huge/SKILL.md'),
      {
        uri: 'skill://huge/SKILL.md',
        frontmatter: { name: 'huge', description: 'The huge skill' },
        diagnostics: [
          'resources omitted: the skill has more than 20000 entries (server.walkLimits.maxEntries) (docs/mcp.md, Bounds)',
        ],
      },
    );
    t.diagnostic(`413 for the archive in ${archiveMs.toFixed(0)} ms; skills/list in ${listMs.toFixed(0)} ms`);
  });

  it('stops the walk when all ten clients waiting for it go away', async (t) => {
    const s = await startServer(t, { sharedRoot: root, settings: ROOMY });
    const before = skillListingStats();
    const clients = Array.from({ length: 10 }, () => new AbortController());
    const answers = clients.map((client) =>
      fetch(`${s.base}/skill/w1?archive=tar.gz`, { signal: client.signal }).then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      ),
    );
    // The walk is in the directories below d/, past d's own listing.
    await waitUntil(
      'the walk lists directories below d/',
      () => skillListingStats().directories - before.directories > 100,
    );
    for (const client of clients) client.abort();
    assert.deepEqual(await Promise.all(answers), Array(10).fill('AbortError'));
    await waitUntil('no walk runs', () => skillListingStats().running === 0);
    const stopped = skillListingStats();
    // Ten requests, one walk; it stopped (aborted, not finished) before it listed every directory.
    assert.equal(stopped.walks - before.walks, 1);
    assert.equal(stopped.aborted - before.aborted, 1);
    assert.equal(stopped.finished - before.finished, 0);
    const listed = stopped.directories - before.directories;
    assert.ok(listed < 100_002, `listed ${listed} of 100,002 directories`);
    // Nothing runs on for nobody: the counters no longer move while the daemon answers other requests.
    for (let i = 0; i < 5; i++) assert.equal((await fetch(`${s.base}/health`)).status, 200);
    assert.equal(skillListingStats().directories - before.directories, listed);
    assert.equal(skillListingStats().examined, stopped.examined);
    t.diagnostic(`the aborted walk listed ${listed} of 100,002 directories`);
  });

  it('stops the walk of skills/get when the MCP client cancels the request', async (t) => {
    const s = await startServer(t, { sharedRoot: root, settings: ROOMY });
    const client = await mcpClient(t, s);
    const before = skillListingStats();
    const cancel = new AbortController();
    const answer = client
      .request({ method: 'skills/get', params: { uri: 'skill://w2/SKILL.md' } }, SkillsGetResult, {
        signal: cancel.signal,
        timeout: 600_000,
      })
      .then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      );
    await waitUntil(
      'the walk lists directories below d/',
      () => skillListingStats().directories - before.directories > 100,
    );
    cancel.abort();
    // The SDK's client rejects a cancelled request with its own error, and tells the server (notifications/cancelled).
    assert.equal(await answer, 'McpError');
    await waitUntil('no walk runs', () => skillListingStats().running === 0);
    const stopped = skillListingStats();
    assert.equal(stopped.walks - before.walks, 1);
    assert.equal(stopped.aborted - before.aborted, 1);
    assert.equal(stopped.finished - before.finished, 0);
    // The session still answers (a method that walks nothing), and no walk has moved since.
    assert.equal((await client.listResources()).resources.length, 7);
    assert.equal(skillListingStats().directories, stopped.directories);
  });

  it('runs at most 4 walks at once; the others wait, and leave the queue when their client goes', async (t) => {
    const names = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
    const s = await startServer(t, { sharedRoot: root, settings: ROOMY });
    const before = skillListingStats();
    const clients = names.map(() => new AbortController());
    const answers = names.map((name, i) =>
      fetch(`${s.base}/skill/${name}?archive=tar.gz`, { signal: clients[i]?.signal }).then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      ),
    );
    await waitUntil('4 walks run and 2 wait', () => {
      const now = skillListingStats();
      return now.running === 4 && now.waiting === 2;
    });
    for (const client of clients) client.abort();
    assert.deepEqual(await Promise.all(answers), Array(6).fill('AbortError'));
    await waitUntil('no walk runs or waits', () => {
      const now = skillListingStats();
      return now.running === 0 && now.waiting === 0;
    });
    const after = skillListingStats();
    assert.equal(after.peak, 4);
    // The two that waited never started.
    assert.equal(after.walks - before.walks, 4);
    assert.equal(after.aborted - before.aborted, 6);
  });
});

describe('Limits on walks', () => {
  it('counts refused entries: 3,000 directories each holding a dangling link pass the directories bound', async (t) => {
    const s = await startServer(t, { tree: skillTree('links') });
    makeDirectories(`${skillsDir(s)}/links/d`, 3_000, true);
    const archive = await fetch(`${s.base}/skill/links?archive=tar.gz`);
    assert.equal(archive.status, 413);
    assert.equal(
      ((await archive.json()) as { message: string }).message,
      'Skill links is too large to archive: more than 2000 directories (server.walkLimits.maxDirectories)',
    );
    const client = await mcpClient(t, s);
    const { skill } = await client.request(
      { method: 'skills/get', params: { uri: 'skill://links/SKILL.md' } },
      SkillsGetResult,
    );
    assert.deepEqual((skill as { diagnostics?: string[] }).diagnostics, [
      'resources omitted: the skill has more than 2000 directories (server.walkLimits.maxDirectories) (docs/mcp.md, Bounds)',
    ]);
  });

  it('counts refused entries: 20,000 dangling links beside the only file served', async (t) => {
    const s = await startServer(t, { tree: skillTree('dangling') });
    for (let i = 0; i < 20_000; i++) symlinkSync(`missing-${i}`, `${skillsDir(s)}/dangling/link-${i}`);
    // SKILL.md and 20,000 links: 20,001 entries, one past the bound, though only SKILL.md would be archived.
    const archive = await fetch(`${s.base}/skill/dangling?archive=tar.gz`);
    assert.equal(archive.status, 413);
    assert.equal(
      ((await archive.json()) as { message: string }).message,
      'Skill dangling is too large to archive: more than 20000 entries (server.walkLimits.maxEntries)',
    );
  });

  it('bounds the depth, and server.walkLimits moves each bound', async (t) => {
    const s = await startServer(t, {
      tree: { ...skillTree('deep'), 'work/.musepi/skills/deep/a/b/c/d.txt': 'deep\n' },
      settings: { server: { walkLimits: { maxDepth: 2 } } },
    });
    const archive = await fetch(`${s.base}/skill/deep?archive=tar.gz`);
    assert.equal(archive.status, 413);
    assert.equal(
      ((await archive.json()) as { message: string }).message,
      'Skill deep is too large to archive: directories nested deeper than 2 levels (server.walkLimits.maxDepth)',
    );
  });

  it('shares one listing between concurrent requests, and walks again once the files change', async (t) => {
    const s = await startServer(t, {
      tree: { ...skillTree('pdf'), 'work/.musepi/skills/pdf/docs/guide.md': '# Guide\n' },
    });
    const before = skillListingStats();
    const client = await mcpClient(t, s);
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => fetch(`${s.base}/skill/pdf?archive=tar.gz`)),
      client.request({ method: 'skills/get', params: { uri: 'skill://pdf/SKILL.md' } }, SkillsGetResult),
    ]);
    const archives = answers.slice(0, 10) as Response[];
    assert.deepEqual(
      archives.map((answer) => answer.status),
      Array(10).fill(200),
    );
    const tags = new Set(archives.map((answer) => answer.headers.get('etag')));
    assert.equal(tags.size, 1);
    for (const answer of archives) await answer.arrayBuffer();
    assert.equal(skillListingStats().walks - before.walks, 1);
    assert.equal(skillListingStats().shared - before.shared, 10);

    await writeFile(`${skillsDir(s)}/pdf/docs/new.md`, '# New\n');
    const edited = await fetch(`${s.base}/skill/pdf?archive=tar.gz`);
    await edited.arrayBuffer();
    assert.equal(skillListingStats().walks - before.walks, 2);
    assert.ok(!tags.has(edited.headers.get('etag')));
  });

  it('pages resources/directory/read from the one listing', async (t) => {
    const tree: Record<string, string> = { ...skillTree('pages') };
    for (let i = 0; i < 10; i++) tree[`work/.musepi/skills/pages/docs/f${i}.md`] = `# ${i}\n`;
    const s = await startServer(t, { tree, app: { mcp: { pageSize: 3 } } });
    const client = await mcpClient(t, s);
    const before = skillListingStats();
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let afterFirst = 0;
    do {
      const page = await client.request(
        {
          method: 'resources/directory/read',
          params: cursor === undefined ? { uri: 'skill://pages/docs' } : { uri: 'skill://pages/docs', cursor },
        },
        DirectoryReadResult,
      );
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
      pages++;
      if (pages === 1) afterFirst = skillListingStats().examined;
    } while (cursor !== undefined);
    assert.equal(pages, 4);
    assert.deepEqual(
      uris,
      Array.from({ length: 10 }, (_, i) => `skill://pages/docs/f${i}.md`),
    );
    const after = skillListingStats();
    // One walk (SKILL.md and docs/ at the root, docs' ten files); pages 2–4 examined nothing more.
    assert.equal(after.walks - before.walks, 1);
    assert.equal(afterFirst - before.examined, 12);
    assert.equal(after.examined, afterFirst);
  });
});
