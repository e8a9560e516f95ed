// The agent views' walks of recursive roots on the real daemon (the built CLI, a real port): a repository whose
// `.github/skills`, `.opencode/skills` or `.goose/skills` is the user's own link to a large tree. The link is followed
// (the owner rule allows it), and used to be walked and watched whole: linked to `/`, 720 s of CPU, 2.3 GiB and
// 117,690 watches after 9.5 minutes, with `/agents` never answered. Now each root's walk stops at
// `server.viewWalkLimits` with a warning naming the root and the bound, and the directories the views watch below
// their roots stay within one budget of watches (SECURITY.md "The views", docs/api.md "Limits on walks").

import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { waitUntil } from '../helpers/deadlines.js';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

/** Far above the second these answers take; far below the forever a root linked to `/` took. */
const ANSWER_MS = 30_000;
const GROUPS = 60;
const PER_GROUP = 100;

interface Body {
  skills: Array<{ name: string }>;
  warnings: Array<{ skillPath: string; message: string }>;
}

/**
 * A workspace and, beside it, `big/`: `a-skill/SKILL.md`, 60 folders `g00`–`g59` of 100 empty folders each (6,061
 * directories), and `z-skill/SKILL.md`, which a breadth-first walk reaches last.
 */
async function workspace(t: TestContext): Promise<{ root: string; home: string; work: string; big: string }> {
  const { dir: root, cleanup } = await makeTempDir('skillsd-view-walks-');
  t.after(cleanup);
  const big = join(root, 'big');
  await writeTree(root, {
    'home/.keep': '',
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    'big/a-skill/SKILL.md': SK({ name: 'a-skill', description: 'Found first' }),
    'big/z-skill/SKILL.md': SK({ name: 'z-skill', description: 'Found last' }),
  });
  for (let g = 0; g < GROUPS; g++) {
    const group = join(big, `g${String(g).padStart(2, '0')}`);
    for (let h = 0; h < PER_GROUP; h++) mkdirSync(join(group, `h${String(h).padStart(2, '0')}`), { recursive: true });
  }
  return { root, home: join(root, 'home'), work: join(root, 'work'), big };
}

async function serve(t: TestContext, home: string, work: string, settings: unknown): Promise<RunningDaemon> {
  const config = join(home, 'skillsd.json');
  await writeFile(config, JSON.stringify(settings));
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', work, '--config', config], { home });
  t.after(() => daemon.process.kill());
  return daemon;
}

/** The first answer other than 503 (NotReady while the views are computed, Overloaded on a loaded machine). */
async function settled(url: string): Promise<Body> {
  let got: Body | undefined;
  await waitUntil(
    `an answer other than 503 from ${url}`,
    async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(ANSWER_MS) });
      if (response.status === 503) {
        await response.arrayBuffer();
        return false;
      }
      assert.equal(response.status, 200);
      got = (await response.json()) as Body;
      return true;
    },
    ANSWER_MS,
  );
  return got as Body;
}

/** The kernel's encoding of a device number (`sdev` in fdinfo) from the one `stat` gives. */
function kernelDev(dev: number): number {
  const major = Math.floor(dev / 256) & 0xfff;
  const minor = (dev & 0xff) | (Math.floor(dev / 4096) & 0xfff00);
  return major * 2 ** 20 + minor;
}

/** The inotify watches the process `pid` holds on directories of `tree` (each directory counted once). */
function watchesInto(pid: number, tree: Set<string>): number {
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let link: string;
    try {
      link = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (link !== 'anon_inode:inotify') continue;
    for (const line of readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8').split('\n')) {
      const match = /^inotify wd:\S+ ino:([0-9a-f]+) sdev:([0-9a-f]+)/.exec(line);
      if (match !== null && tree.has(`${Number.parseInt(match[2] as string, 16)}:${match[1]}`)) count++;
    }
  }
  return count;
}

/** `<kernel dev>:<hex inode>` of every directory of the tree at `dir`. */
function directoriesOf(dir: string, out = new Set<string>()): Set<string> {
  const info = statSync(dir);
  out.add(`${kernelDev(info.dev)}:${info.ino.toString(16)}`);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) directoriesOf(join(dir, entry.name), out);
  }
  return out;
}

const CASES = [
  { agent: 'copilot-cli', name: 'GitHub Copilot CLI', link: '.github/skills', canonical: false },
  { agent: 'opencode', name: 'OpenCode', link: '.opencode/skills', canonical: false },
  { agent: 'goose', name: 'Goose', link: '.goose/skills', canonical: true },
] as const;

describe('an agent root linked to a large tree (built CLI)', {
  skip: process.platform !== 'linux' && 'Linux /proc',
}, () => {
  for (const { agent, name, link, canonical } of CASES) {
    it(`${agent}: the walk of ${link} stops at server.viewWalkLimits.maxEntries, keeping what it found`, async (t) => {
      const { home, work, big } = await workspace(t);
      await writeTree(work, { [link]: { symlink: big } });
      const daemon = await serve(t, home, work, { server: { viewWalkLimits: { maxEntries: 1000 } } });
      const started = performance.now();
      const body = await settled(`${daemon.url}/skills?agent=${agent}`);
      // The root's 62 entries, a-skill's SKILL.md, 100 entries of each of g00–g08 and 37 of g09: the 1,001st stops
      // the walk, before z-skill is listed.
      assert.deepEqual(
        body.skills.map((skill) => skill.name),
        ['a-skill'],
      );
      const root = canonical ? big : join(work, link);
      assert.deepEqual(body.warnings, [
        {
          skillPath: '',
          message:
            `[skillsd] ${name}: stopped walking ${root} at 1000 entries (server.viewWalkLimits.maxEntries); what lies ` +
            'past them is not in this view',
        },
      ]);
      t.diagnostic(`${agent}: answered in ${(performance.now() - started).toFixed(0)} ms`);
    });
  }

  it('the directories the views watch below their roots stay within maxWatchedDirectories', async (t) => {
    const { home, work, big } = await workspace(t);
    await writeTree(work, { '.github/skills': { symlink: big } });
    const daemon = await serve(t, home, work, {});
    const body = await settled(`${daemon.url}/skills?agent=copilot-cli`);
    assert.deepEqual(
      body.skills.map((skill) => skill.name),
      ['a-skill', 'z-skill'],
    );
    // Each group costs 101 watches (itself and its 100 folders): 40 of them fit in 4,096, the other 20 do not.
    assert.deepEqual(body.warnings, [
      {
        skillPath: '',
        message:
          '[skillsd] GitHub Copilot CLI: 20 directories walked below its roots not watched: the views of a workspace ' +
          'take at most 4096 watches below their roots (server.viewWalkLimits.maxWatchedDirectories); a change there ' +
          'is seen with the next change seen in the same root',
      },
    ]);
    // What the kernel watches in big/: the root and its 62 folders, and the 100 folders of each of 40 groups.
    const tree = directoriesOf(big);
    const pid = daemon.process.child.pid as number;
    await waitUntil('the watcher follows the views', () => watchesInto(pid, tree) >= 1 + 62 + 40 * PER_GROUP);
    assert.equal(watchesInto(pid, tree), 1 + 62 + 40 * PER_GROUP);
  });
});
