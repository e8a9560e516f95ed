// The daemon and the MCP server give back the memory of their start once the first index is built and the watcher
// armed (src/cli/give-back-memory.ts, docs/memory.md "After the start"): the young generation, grown to its maximum
// by the start, is back at its starting size, without waiting for V8's memory reducer. A later burst's collection is
// tested on its own (test/cli/give-back-memory.test.ts), where the burst is known to grow the young generation.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '../helpers/deadlines.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, type TreeEntry, writeTree } from '../helpers/temp-tree.js';

const RECORDER = fileURLToPath(new URL('../helpers/record-new-space.mjs', import.meta.url));
const GAVE_BACK = 'gave back the memory of the start';
const SKILLS = 600;
/** V8 before 12 (Node 20) has no last-resort flavour for `gc`: its full collection keeps the young generation grown. */
const SHRINKS = Number(process.versions.v8.split('.')[0]) >= 12;

interface NewSpace {
  first: number;
}

/**
 * The log line of the collection, in a process started with the recorder: the young generation went from its grown
 * size back to the one it started with, where V8 can shrink it.
 */
async function assertGaveBack(
  t: { diagnostic(message: string): void },
  line: Record<string, unknown>,
  pid: number,
  log: string,
) {
  assert.deepEqual(
    Object.keys(line).filter((key) => /^(ms$|rss|young)/.test(key)),
    ['ms', 'rssBefore', 'rssAfter', 'youngBefore', 'youngAfter'],
  );
  if (!SHRINKS) {
    t.diagnostic(`V8 ${process.versions.v8} (Node ${process.version}) keeps its young generation grown`);
    return;
  }
  const { first } = await newSpaceOf(pid, log);
  assert.ok((line.youngBefore as number) > first, JSON.stringify(line));
  assert.equal(line.youngAfter, first, JSON.stringify(line));
}

/** Asks a process started with the recorder for its new space's size when it started. */
async function newSpaceOf(pid: number, log: string): Promise<NewSpace> {
  process.kill(pid, 'SIGUSR2');
  let text = '';
  await waitUntil('the new space record', async () => {
    text = await readFile(log, 'utf8').catch(() => '');
    return text !== '';
  });
  return JSON.parse(text) as NewSpace;
}

/** Enough skills with bodies for the start to grow the young generation to its maximum (32 MiB or more). */
async function skillTree(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-start-memory-');
  t.after(cleanup);
  const entries: Record<string, TreeEntry> = { 'home/.keep': '', 'work/.git/HEAD': 'ref: refs/heads/main\n' };
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    entries[`work/.claude/skills/${name}/SKILL.md`] =
      `${SK({ name, description: `Use when: the task needs ${name}` })}\n${'Steps to follow. '.repeat(40)}\n`;
  }
  await writeTree(dir, entries);
  return { log: `${dir}/new-space.json`, home: `${dir}/home`, cwd: `${dir}/work` };
}

describe('the memory of the start is given back once the watcher is armed', () => {
  it('by the daemon, after its first answer', async (t) => {
    const { log, home, cwd } = await skillTree(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', cwd, '--log-level', 'debug'], {
      home,
      env: { NODE_OPTIONS: `--import ${RECORDER}`, SKILLSD_TEST_NEW_SPACE_LOG: log },
    });
    t.after(() => daemon.process.kill());
    const listed = (await (await fetch(`${daemon.url}/skills`)).json()) as { skills: unknown[] };
    assert.equal(listed.skills.length, SKILLS);
    const line = await daemon.process.waitForLog((entry) => entry.msg === GAVE_BACK);
    await assertGaveBack(t, line, daemon.process.child.pid ?? 0, log);
  });

  it('by the MCP server on stdio, before its first request', async (t) => {
    const { log, home, cwd } = await skillTree(t);
    const mcp = await connectStdio(['--cwd', cwd, '--log-level', 'debug'], {
      HOME: home,
      PATH: process.env.PATH ?? '',
      NODE_OPTIONS: `--import ${RECORDER}`,
      SKILLSD_TEST_NEW_SPACE_LOG: log,
    });
    t.after(() => mcp.close());
    let line: Record<string, unknown> | undefined;
    await waitUntil('the MCP server gave back the memory of its start', () => {
      line = mcp
        .stderr()
        .split('\n')
        .filter((text) => text.includes(GAVE_BACK))
        .map((text) => JSON.parse(text) as Record<string, unknown>)[0];
      return line !== undefined;
    });
    await assertGaveBack(t, line ?? {}, mcp.pid() ?? 0, log);
  });
});
