// The link rules of discovery and the AGENTS.md walk (SECURITY.md, "Links and workspaces"): in contain mode a SKILL.md
// or AGENTS.md that is a link must lead inside its skill, the workspace or its repository, or to a file of its own
// name; in every mode a link another user owns is followed only to a file of theirs. Each test builds HOME `H` and a
// repository `P` (P/.git) beside it; CWD = P unless said otherwise.

import assert from 'node:assert/strict';
import { chown, lchown } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findContextFiles } from '../../src/discovery/context-files.js';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import type { DiscoveryResult, SymlinkMode } from '../../src/discovery/types.js';
import { workspaceFactory } from '../helpers/discovery-workspace.js';
import { SK } from '../helpers/temp-tree.js';

const workspace = workspaceFactory('skillsd-link-trust-');
const SECRET = `---\ndescription: private notes\n---\nSECRET-MARK\n`;
const isRoot = process.geteuid?.() === 0;
const OTHER_UID = 65534;

async function discover(tree: Parameters<typeof workspace>[0], symlinks: SymlinkMode) {
  const { base, ctx } = await workspace(tree);
  ctx.settings.symlinks = symlinks;
  return { base, result: await discoverSkills(ctx) };
}

function names(result: DiscoveryResult): string[] {
  return result.skills.map((skill) => skill.name);
}

const LAYOUTS = {
  'H/notes/private.md': SECRET,
  'lib/pdf/SKILL.md': SK({ name: 'pdf', description: 'A skill directory linked to a library' }),
  'lib/other/SKILL.md': SK({ name: 'alias', description: "Another skill's SKILL.md" }),
  'lib/plain.md': SK({ name: 'plain', description: 'A file of another name outside' }),
  'P/docs/skill-doc.md': SK({ name: 'doc', description: 'A file of another name inside the repository' }),
  // A hostile repository: its SKILL.md leads to a file of the user's outside it.
  'P/.claude/skills/k/SKILL.md': { symlink: '../../../../H/notes/private.md' },
  'P/.claude/skills/pdf': { symlink: '../../../lib/pdf' },
  'P/.claude/skills/alias/SKILL.md': { symlink: '../../../../lib/other/SKILL.md' },
  'P/.claude/skills/doc/SKILL.md': { symlink: '../../../docs/skill-doc.md' },
  'P/.claude/skills/inner/README.md': SK({ name: 'inner', description: 'Inside the skill' }),
  'P/.claude/skills/inner/SKILL.md': { symlink: 'README.md' },
  // A user-level skill whose SKILL.md is a file of another name outside everything.
  'H/.claude/skills/plain/SKILL.md': { symlink: '../../../../lib/plain.md' },
};

describe('linked SKILL.md files (docs/discovery.md §3 with the contain rule)', () => {
  it('contain mode skips a SKILL.md leading elsewhere, with a diagnostic; legitimate layouts load', async () => {
    const { base, result } = await discover(LAYOUTS, 'contain');
    assert.deepEqual(names(result), ['alias', 'doc', 'inner', 'pdf']);
    const outside = (path: string, real: string) => ({
      skillPath: join(base, path),
      message:
        `SKILL.md is a symbolic link to ${join(base, real)}, which is outside the skill's directory, the workspace ` +
        `and its repository, and not a file named SKILL.md ("symlinks": "contain"); the skill is skipped`,
    });
    // In provider order: Claude Code's user directory before its project directory.
    assert.deepEqual(result.diagnostics, [
      outside('H/.claude/skills/plain/SKILL.md', 'lib/plain.md'),
      outside('P/.claude/skills/k/SKILL.md', 'H/notes/private.md'),
    ]);
    // The realpath dedup still sees where each linked file really is.
    assert.equal(
      result.skillRealPaths?.get(join(base, 'P/.claude/skills/alias/SKILL.md')),
      join(base, 'lib/other/SKILL.md'),
    );
  });

  it('follow mode reads every link, as the reference does', async () => {
    const { result } = await discover(LAYOUTS, 'follow');
    assert.deepEqual(names(result), ['alias', 'doc', 'inner', 'k', 'pdf', 'plain']);
    assert.deepEqual(result.diagnostics, []);
  });
});

describe('a HOME kept under git (dotfiles), a workspace in it without a repository of its own', () => {
  it('the repository (HOME) is no containment root: links to the user’s files are skipped', async () => {
    const { base, ctx } = await workspace({
      'H/.git/HEAD': '',
      'H/notes/private.md': SECRET,
      'H/proj/.claude/skills/k/SKILL.md': { symlink: '../../../../notes/private.md' },
      'H/proj/.claude/skills/inside/SKILL.md': { symlink: '../../../docs/skill.md' },
      'H/proj/docs/skill.md': SK({ name: 'inside', description: 'Inside the workspace' }),
      'H/proj/AGENTS.md': { symlink: '../notes/private.md' },
    });
    const cwd = join(base, 'H/proj');
    const result = await discoverSkills({ ...ctx, cwd });
    assert.deepEqual(names(result), ['inside']);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => diagnostic.skillPath),
      [join(cwd, '.claude/skills/k/SKILL.md')],
    );
    const diagnostics: Array<{ path: string; message: string }> = [];
    const files = await findContextFiles({ home: ctx.home, cwd, profile: 'musepi', diagnostics });
    assert.deepEqual(files, []);
    assert.deepEqual(
      diagnostics.map((diagnostic) => diagnostic.path),
      [join(cwd, 'AGENTS.md')],
    );
  });
});

describe('linked AGENTS.md files (docs/discovery.md §9 with the contain rule)', () => {
  const TREE = {
    'H/notes/private.md': SECRET,
    'P/CLAUDE.md': 'Repository rules\n',
    'P/AGENTS.md': { symlink: 'CLAUDE.md' },
    'P/pkg/AGENTS.md': { symlink: '../../H/notes/private.md' },
    'P/pkg/app/AGENTS.md': { symlink: '../../../lib/AGENTS.md' },
    'lib/AGENTS.md': 'Shared rules\n',
  };

  for (const symlinks of ['contain', 'follow'] as const) {
    it(`${symlinks} mode`, async () => {
      const { base, ctx } = await workspace(TREE);
      const cwd = join(base, 'P/pkg/app');
      const diagnostics: Array<{ path: string; message: string }> = [];
      const files = await findContextFiles({ home: ctx.home, cwd, profile: 'musepi', symlinks, diagnostics });
      const read = files.map((file) => [file.path.slice(base.length + 1), file.content]);
      if (symlinks === 'contain') {
        // Same name (lib/AGENTS.md) and inside the repository (CLAUDE.md) are read; the link out of it is not.
        assert.deepEqual(read, [
          ['P/pkg/app/AGENTS.md', 'Shared rules\n'],
          ['P/AGENTS.md', 'Repository rules\n'],
        ]);
        assert.deepEqual(diagnostics, [
          {
            path: join(base, 'P/pkg/AGENTS.md'),
            message:
              `AGENTS.md is a symbolic link to ${join(base, 'H/notes/private.md')}, which is outside the workspace ` +
              'and its repository, and not a file named AGENTS.md ("symlinks": "contain"); it is not read',
          },
        ]);
      } else {
        assert.deepEqual(read, [
          ['P/pkg/app/AGENTS.md', 'Shared rules\n'],
          ['P/pkg/AGENTS.md', SECRET],
          ['P/AGENTS.md', 'Repository rules\n'],
        ]);
        assert.deepEqual(diagnostics, []);
      }
    });
  }
});

describe("another user's links (ownership rule, every mode)", { skip: isRoot ? false : 'chown needs root' }, () => {
  for (const symlinks of ['contain', 'follow'] as const) {
    it(`${symlinks} mode: followed only to a file the link's owner owns`, async () => {
      const { base, ctx } = await workspace({
        'P/mine.md': SK({ name: 'theirs', description: 'Their own file' }),
        'P/.claude/skills/theirs/SKILL.md': { symlink: '../../../mine.md' },
        'P/.claude/skills/k/SKILL.md': { symlink: '../../../secret/SKILL.md' },
        'P/secret/SKILL.md': SK({ name: 'k', description: 'Not theirs' }),
        'P/.claude/skills/dir': { symlink: '../../secret' },
        'P/AGENTS.md': { symlink: 'secret/SKILL.md' },
      });
      ctx.settings.symlinks = symlinks;
      const P = join(base, 'P');
      // Another user's links; `mine.md` is theirs too, `secret/` stays the daemon's user's.
      for (const link of [
        '.claude/skills/theirs/SKILL.md',
        '.claude/skills/k/SKILL.md',
        '.claude/skills/dir',
        'AGENTS.md',
      ]) {
        await lchown(join(P, link), OTHER_UID, OTHER_UID);
      }
      await chown(join(P, 'mine.md'), OTHER_UID, OTHER_UID);
      const result = await discoverSkills(ctx);
      assert.deepEqual(names(result), ['theirs']);
      const rule = (link: string) =>
        `the symbolic link ${join(P, link)} is owned by uid ${OTHER_UID} and leads to uid 0: links are followed only ` +
        "when owned by the daemon's user (uid 0) or by the owner of their target";
      assert.deepEqual(result.diagnostics, [
        {
          skillPath: join(P, '.claude/skills/dir/SKILL.md'),
          message: `skill directory not read: ${rule('.claude/skills/dir')}; the skill is skipped`,
        },
        {
          skillPath: join(P, '.claude/skills/k/SKILL.md'),
          message: `SKILL.md not read: ${rule('.claude/skills/k/SKILL.md')}; the skill is skipped`,
        },
      ]);
      const diagnostics: Array<{ path: string; message: string }> = [];
      const files = await findContextFiles({ home: ctx.home, cwd: P, profile: 'musepi', symlinks, diagnostics });
      assert.deepEqual(files, []);
      assert.deepEqual(diagnostics, [
        { path: join(P, 'AGENTS.md'), message: `AGENTS.md not read: ${rule('AGENTS.md')}` },
      ]);
    });
  }

  it('a skills directory reached through their link is not read', async () => {
    const { base, ctx } = await workspace({
      'shared/skills/x/SKILL.md': SK({ name: 'x', description: 'Behind their link' }),
      'P/.claude': { symlink: '../shared' },
    });
    const P = join(base, 'P');
    await lchown(join(P, '.claude'), OTHER_UID, OTHER_UID);
    const result = await discoverSkills(ctx);
    assert.deepEqual(names(result), []);
    assert.deepEqual(result.diagnostics, [
      {
        skillPath: join(P, '.claude/skills'),
        message:
          `skills directory not read: the symbolic link ${join(P, '.claude')} is owned by uid ${OTHER_UID} and leads ` +
          "to uid 0: links are followed only when owned by the daemon's user (uid 0) or by the owner of their target",
      },
    ]);
  });
});
