// The first index reads plain SKILL.md files with synchronous calls (`ScanOptions.blocking`, `DiscoverOptions.blocking`)
// and hands everything else to the asynchronous path: both must give the very same records, notes, realpaths and
// entries. These trees hold what the synchronous path must not get wrong: broken files of every kind, links (trusted,
// dangling, to a file, refused by the link rules), collisions across providers, plugins, names that need a note, and
// frontmatter whose reading depends on bytes past the closing fence. The random edit sequences of
// test/live-index/incremental-equivalence.test.ts compare the two paths as well.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, lchown, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { linkPolicyOf } from '../../../src/discovery/link-trust.js';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { createScanMemo } from '../../../src/discovery/scan/scan-memo.js';
import type { ScanOptions } from '../../../src/discovery/scan/scan-options.js';
import { scanSkillsDir } from '../../../src/discovery/scan/scan-skills-dir.js';
import type { ScannedEntry } from '../../../src/discovery/scan/scanned-entry.js';
import { createSkillFileCache } from '../../../src/discovery/scan/skill-file-cache.js';
import type { DiscoveryResult, SkillDiagnostic } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';
import { entry, registry } from '../../helpers/plugin-trees.js';
import { NATIVE_PROJECT_SCAN } from '../../helpers/scan-options.js';
import { makeTempDir, SK, type TreeEntry, writeTree } from '../../helpers/temp-tree.js';

const workspace = workspaceFactory('skillsd-blocking-scan-');

const OPTIONS: ScanOptions = NATIVE_PROJECT_SCAN;

const canChown = process.getuid?.() === 0;
const OTHER_UID = 65534;

/** Every kind of entry a skills directory can hold, good and broken. */
function brokenTree(): Record<string, TreeEntry> {
  const big = `---\nname: big\ndescription: large file\n---\n${'x'.repeat(1024 * 1024 + 10)}`;
  return {
    'plain/SKILL.md': SK({ name: 'plain', description: 'A plain skill' }),
    'use-when/SKILL.md': '---\nname: use-when\ndescription: Tools. Use when: the user asks `x: y`\n---\nbody\n',
    'no-name/SKILL.md': SK({ description: 'named by its directory' }),
    'Bad_Name/SKILL.md': SK({ name: 'Bad_Name', description: 'a name that gets a note' }),
    'no-description/SKILL.md': SK({ name: 'no-description' }),
    'disabled/SKILL.md': SK({ name: 'disabled', description: 'off', enabled: false }),
    'empty/SKILL.md': '',
    'no-frontmatter/SKILL.md': '# Just a body\n',
    'unclosed/SKILL.md': '---\nname: unclosed\ndescription: never closed\n',
    'broken-yaml/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\nbody\n',
    'crlf/SKILL.md': '---\r\nname: crlf\r\ndescription: CR LF lines\r\n---\r\nbody\r\n',
    'lone-cr/SKILL.md': '---\nname: lone-cr\ndescription: a lone CR\r---\nbody\n---\n',
    'bom/SKILL.md': '\uFEFF---\nname: bom\ndescription: with a byte order mark\n---\n',
    'comment-across/SKILL.md': '---\nname: across\n<!--\n---\ndescription: inside -->\ndescription: after\n---\n',
    'comment-after/SKILL.md': '---\nname: comment-after\ndescription: fine\n---\n<!-- never closed\n',
    'invalid-utf8/SKILL.md': Buffer.concat([
      Buffer.from('---\nname: invalid-utf8\ndescription: bad '),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('\n---\nbody '),
      Buffer.from([0xe2, 0x82]),
    ]),
    'invalid-in-body/SKILL.md': Buffer.concat([
      Buffer.from('---\nname: invalid-in-body\ndescription: fine\n---\nbody '),
      Buffer.from([0xff, 0xfe]),
    ]),
    'multibyte/SKILL.md': '---\nname: multibyte\ndescription: café 🌍 naïve\n---\n€\n',
    'engine/SKILL.md': '---js\nname: engine\ndescription: a fence naming an engine\n---\n',
    'big/SKILL.md': big,
    'dir-named-skill/SKILL.md/inner': 'not a file',
    'no-skill-file/README.md': 'nothing here',
    'link-to-plain': { symlink: 'plain' },
    'link-outside': { symlink: '../library/outside' },
    dangling: { symlink: '../library/gone' },
    'link-to-file': { symlink: 'plain/SKILL.md' },
    'file-link/SKILL.md': { symlink: '../../library/outside/notes.md' },
    'file-link-named/SKILL.md': { symlink: '../../library/outside/SKILL.md' },
    'file-link-inside/SKILL.md': { symlink: 'real.md' },
    'file-link-inside/real.md': SK({ name: 'file-link-inside', description: 'a linked SKILL.md inside' }),
    'file-link-dangling/SKILL.md': { symlink: 'missing.md' },
    '.hidden/SKILL.md': SK({ name: 'hidden', description: 'never read' }),
    'loose-file.md': 'not a directory',
  };
}

async function libraryAndSpecials(root: string, skills: string): Promise<void> {
  await writeTree(join(root, 'library'), {
    'outside/SKILL.md': SK({ name: 'outside', description: 'outside every skills directory' }),
    'outside/notes.md': SK({ name: 'notes', description: 'not named SKILL.md' }),
  });
  await mkdir(join(skills, 'fifo'), { recursive: true });
  execFileSync('mkfifo', [join(skills, 'fifo', 'SKILL.md')]);
  await writeTree(skills, { 'unreadable/SKILL.md': SK({ name: 'unreadable', description: 'mode 000' }) });
  await chmod(join(skills, 'unreadable', 'SKILL.md'), 0o000);
}

interface Scanned {
  result: Awaited<ReturnType<typeof scanSkillsDir>>;
  diagnostics: SkillDiagnostic[];
  realpaths: Map<string, string>;
  entries: Map<string, ScannedEntry>;
}

/**
 * The asynchronous scan and the synchronous one; the synchronous reads made a slice at a time (`ScanOptions.sliced`,
 * for the views' discoveries while the daemon serves) must equal the latter.
 */
async function scanBoth(dir: string, options: ScanOptions): Promise<[Scanned, Scanned]> {
  const run = async (mode: 'async' | 'blocking' | 'sliced'): Promise<Scanned> => {
    const diagnostics: SkillDiagnostic[] = [];
    const realpaths = new Map<string, string>();
    const entries = new Map<string, ScannedEntry>();
    const result = await scanSkillsDir(dir, {
      ...options,
      cache: createSkillFileCache(),
      diagnostics,
      realpaths,
      entries,
      ...(mode === 'blocking' ? { blocking: true } : mode === 'sliced' ? { sliced: true } : {}),
    });
    return { result, diagnostics, realpaths, entries };
  };
  const now = await run('blocking');
  assert.deepEqual(await run('sliced'), now);
  return [await run('async'), now];
}

function comparable(result: DiscoveryResult) {
  const { skills, warnings, collisions, diagnostics, scannedDirs, repoRoot, skillRealPaths, pluginInputs } = result;
  return { skills, warnings, collisions, diagnostics, scannedDirs, repoRoot, skillRealPaths, pluginInputs };
}

describe('scanSkillsDir with synchronous reads equals the asynchronous scan', () => {
  for (const withLinkRules of [false, true]) {
    it(`on broken files, links and notes (${withLinkRules ? 'contain' : 'no'} link rules)`, async (t) => {
      const { dir: root, cleanup } = await makeTempDir('skillsd-blocking-');
      t.after(cleanup);
      const skills = join(root, 'skills');
      await writeTree(skills, brokenTree());
      await libraryAndSpecials(root, skills);
      const options: ScanOptions = withLinkRules
        ? { ...OPTIONS, links: await linkPolicyOf('contain', root, null, root) }
        : OPTIONS;
      const [slow, now] = await scanBoth(skills, options);
      assert.deepEqual(now, slow);
      // The tree reaches what it was written for: records, notes of every kind, refused and followed links.
      const loaded = now.result.skills.map((skill) => skill.baseDir.slice(skills.length + 1)).sort();
      for (const entry of ['plain', 'link-to-plain', 'big', 'invalid-utf8', 'crlf', 'bom', 'file-link-named']) {
        assert.ok(loaded.includes(entry), `${entry} in ${loaded}`);
      }
      assert.equal(loaded.includes('file-link'), !withLinkRules);
      const noted = new Set(now.diagnostics.map((note) => note.skillPath.slice(skills.length + 1).split('/')[0]));
      for (const entry of [
        'fifo',
        'dir-named-skill',
        'dangling',
        'big',
        'invalid-utf8',
        'invalid-in-body',
        'broken-yaml',
      ]) {
        assert.ok(noted.has(entry), `a note for ${entry}: ${JSON.stringify(now.diagnostics)}`);
      }
    });
  }

  it('with a relative shown directory and a name prefix', async (t) => {
    const { dir: root, cleanup } = await makeTempDir('skillsd-blocking-');
    t.after(cleanup);
    const skills = join(root, 'skills');
    await writeTree(skills, brokenTree());
    await libraryAndSpecials(root, skills);
    const [slow, now] = await scanBoth(skills, { ...OPTIONS, shownDir: 'custom/../skills', namePrefix: 'plug:' });
    assert.deepEqual(now, slow);
    assert.ok(now.result.skills.length > 10);
    for (const skill of now.result.skills) {
      assert.ok(skill.filePath.startsWith('skills/') && skill.name.startsWith('plug:'), skill.filePath);
    }
  });

  it('skill directories that are another user’s links to what is not theirs', { skip: !canChown }, async (t) => {
    const { dir: root, cleanup } = await makeTempDir('skillsd-blocking-');
    t.after(cleanup);
    const skills = join(root, 'skills');
    await writeTree(root, {
      'library/theirs/SKILL.md': SK({ name: 'theirs', description: 'behind a link' }),
      'skills/own/SKILL.md': SK({ name: 'own', description: 'plain' }),
    });
    await symlink('../library/theirs', join(skills, 'their-link'));
    await lchown(join(skills, 'their-link'), OTHER_UID, OTHER_UID);
    const [slow, now] = await scanBoth(skills, { ...OPTIONS, links: await linkPolicyOf('follow', root, null, root) });
    assert.deepEqual(now, slow);
    assert.deepEqual(
      now.result.skills.map((skill) => skill.name),
      ['own'],
    );
    assert.match(now.diagnostics[0]?.message ?? '', /^skill directory not read: /);
  });
});

describe('discoverSkills with synchronous reads equals the asynchronous discovery', () => {
  it('over providers, collisions, links, a custom directory and plugins', async () => {
    const { base, ctx } = await workspace({
      ...prefixed('P/.musepi/skills/', brokenTree()),
      'P/.claude/skills/plain/SKILL.md': SK({ name: 'plain', description: 'loses to the native one' }),
      'P/.claude/skills/other/SKILL.md': SK({ name: 'other', description: 'claude' }),
      'H/.claude/skills/other/SKILL.md': SK({ name: 'other', description: 'user level, loses' }),
      'H/.agents/skills/same-file': { symlink: '../../../P/.claude/skills/other' },
      'H/custom/c1/SKILL.md': SK({ name: 'c1', description: 'custom' }),
      'library/outside/SKILL.md': SK({ name: 'outside', description: 'outside every skills directory' }),
      'plugins/p1/skills/ps/SKILL.md': SK({ name: 'ps', description: 'a plugin skill' }),
      'plugins/p1/skills/plain/SKILL.md': SK({ name: 'plain', description: 'a plugin skill named like another' }),
    });
    await writeTree(base, {
      'H/.claude/plugins/installed_plugins.json': registry({ 'p1@m': [entry(join(base, 'plugins/p1'))] }),
    });
    const ctxWithCustom = {
      ...ctx,
      settings: { ...ctx.settings, skills: { ...ctx.settings.skills, customDirectories: ['~/custom'] } },
    };
    await mkdir(join(base, 'P/.musepi/skills/fifo'), { recursive: true });
    execFileSync('mkfifo', [join(base, 'P/.musepi/skills/fifo/SKILL.md')]);
    for (const symlinks of ['follow', 'contain'] as const) {
      const context = { ...ctxWithCustom, settings: { ...ctxWithCustom.settings, symlinks } };
      const slow = await discoverSkills(context);
      const now = await discoverSkills(context, { blocking: true });
      assert.deepEqual(comparable(now), comparable(slow), symlinks);
      assert.deepEqual(comparable(await discoverSkills(context, { sliced: true })), comparable(slow), symlinks);
      // Through a scan memo and a cache, as the daemon's first index runs, then a reload from them without blocking.
      const cache = createSkillFileCache();
      const scans = createScanMemo();
      assert.deepEqual(comparable(await discoverSkills(context, { cache, scans, blocking: true })), comparable(slow));
      scans.clear();
      assert.deepEqual(comparable(await discoverSkills(context, { cache, scans })), comparable(slow));
      const names = now.skills.map((skill) => skill.name);
      assert.ok(names.includes('ps') && names.includes('c1') && now.collisions.length > 0, `${names}`);
    }
  });
});

function prefixed(prefix: string, tree: Record<string, TreeEntry>): Record<string, TreeEntry> {
  return Object.fromEntries(Object.entries(tree).map(([path, entry]) => [`${prefix}${path}`, entry]));
}
