import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { SkillsdError, type SkillsdErrorCode } from '../../../src/discovery/errors.js';
import {
  openSkillFile,
  type ResolveOptions,
  resolveSkillResource,
  type SkillResource,
} from '../../../src/discovery/files/resolve-skill-url.js';
import type { Skill } from '../../../src/discovery/types.js';
import { skillAt } from '../../helpers/skill-records.js';
import { makeTempDir, SK, writeTree } from '../../helpers/temp-tree.js';

const CONTAIN: ResolveOptions = { profile: 'musepi', symlinks: 'contain' };
const FOLLOW: ResolveOptions = { profile: 'musepi', symlinks: 'follow' };
const XCSH: ResolveOptions = { profile: 'xcsh', symlinks: 'contain' };

function rejectsWith(code: SkillsdErrorCode, message?: string | RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof SkillsdError, `expected a SkillsdError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (typeof message === 'string') assert.equal(error.message, message);
    else if (message !== undefined) assert.match(error.message, message);
    return true;
  };
}

function asFile(resource: SkillResource) {
  assert.equal(resource.kind, 'file');
  return resource as Extract<SkillResource, { kind: 'file' }>;
}

function asDirectory(resource: SkillResource) {
  assert.equal(resource.kind, 'directory');
  return resource as Extract<SkillResource, { kind: 'directory' }>;
}

describe('resolveSkillResource (docs/discovery.md §6)', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let P: string;
  let pdfDir: string;
  let skills: Skill[];
  let socketServer: Server | undefined;
  const PDF_SKILL = SK({ name: 'pdf', description: 'PDF tools' });

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    P = join(root, 'P');
    pdfDir = join(P, '.musepi/skills/pdf');
    await writeTree(root, {
      'P/.git': { dir: true },
      'P/.musepi/skills/pdf/SKILL.md': PDF_SKILL,
      'P/.musepi/skills/pdf/references/tables.md': '# Tables\n',
      'P/.musepi/skills/pdf/references/notes.txt': 'notes',
      'P/.musepi/skills/pdf/scripts/run.sh': '#!/bin/sh\n',
      'P/.musepi/skills/pdf/empty': { dir: true },
      'P/.musepi/skills/pdf/%2e%2e': 'a file literally named %2e%2e',
      'P/.musepi/skills/pdf/a b.md': 'space',
      'P/.musepi/skills/pdf/link-out': { symlink: join(root, 'outside/secret.txt') },
      'P/.musepi/skills/pdf/dir-out': { symlink: join(root, 'outside/dir') },
      'P/.musepi/skills/pdf/link-to-link': { symlink: 'link-out' },
      'P/.musepi/skills/pdf/link-in': { symlink: 'references/tables.md' },
      'P/.musepi/skills/pdf/dir-in': { symlink: 'references' },
      'P/.musepi/skills/pdf/rel-escape': { symlink: '../../../../outside/secret.txt' },
      'P/.musepi/skills/pdf/dangling': { symlink: 'no-such-file' },
      'P/.musepi/skills/pdf/loop': { symlink: 'loop' },
      'P/.musepi/skills/types/SKILL.md': SK({ name: 'types', description: 'd' }),
      'P/.musepi/skills/types/a.md': '',
      'P/.musepi/skills/types/b.MARKDOWN': '',
      'P/.musepi/skills/types/c.mdx': '',
      'P/.musepi/skills/types/d.mdc': '',
      'P/.musepi/skills/types/e.mkd': '',
      'P/.musepi/skills/types/f.mdown': '',
      'P/.musepi/skills/types/g.MD': '',
      'P/.musepi/skills/types/h.txt': '',
      'P/.musepi/skills/types/i.json': '',
      'P/.musepi/skills/types/md': '',
      'P/.musepi/skills/types/j.md.txt': '',
      'P/.musepi/skills/types/k.txt.md': '',
      'P/.musepi/skills/listing/SKILL.md': SK({ name: 'listing', description: 'd' }),
      'P/.musepi/skills/listing/b': { dir: true },
      'P/.musepi/skills/listing/A': { dir: true },
      'P/.musepi/skills/listing/c': { dir: true },
      'P/.musepi/skills/listing/z.txt': 'zz',
      'P/.musepi/skills/listing/a.md': 'a',
      'P/.musepi/skills/listing/B.txt': 'bbb',
      'P/.musepi/skills/listing/c-link': { symlink: 'c' },
      'P/.musepi/skills/listing/out-dir': { symlink: join(root, 'outside/dir') },
      'P/.musepi/skills/listing/out-file': { symlink: join(root, 'outside/secret.txt') },
      'P/.musepi/skills/listing/dangling': { symlink: 'nowhere' },
      'P/.musepi/skills/linked': { symlink: join(root, 'store/real-skill') },
      'P/.musepi/skills/hidden/SKILL.md': SK({ name: 'hidden', description: 'd', hide: true }),
      'store/real-skill/SKILL.md': SK({ name: 'linked', description: 'd' }),
      'store/real-skill/ref.md': 'inside the real skill',
      'store/real-skill/back': { symlink: join(root, 'store/real-skill/ref.md') },
      'store/real-skill/escape': { symlink: join(root, 'outside/secret.txt') },
      'outside/secret.txt': 'secret',
      'outside/dir/inner.txt': 'inner',
    });
    const mkfifo = spawnSync('mkfifo', [join(pdfDir, 'pipe')]);
    assert.equal(mkfifo.status, 0, `mkfifo failed: ${mkfifo.stderr}`);
    socketServer = createServer();
    await new Promise<void>((done) => socketServer?.listen(join(pdfDir, 'sock'), done));
    skills = [
      skillAt('pdf', pdfDir),
      skillAt('types', join(P, '.musepi/skills/types')),
      skillAt('listing', join(P, '.musepi/skills/listing')),
      skillAt('linked', join(P, '.musepi/skills/linked')),
      skillAt('hidden', join(P, '.musepi/skills/hidden'), true),
    ];
  });

  after(async () => {
    await new Promise<void>((done) => (socketServer ? socketServer.close(() => done()) : done()));
    await cleanup();
  });

  describe('worked example 10 (§11)', () => {
    it('refuses an encoded traversal', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', '..%2F..%2Fsecret.txt', CONTAIN),
        rejectsWith('InvalidPath', 'Path traversal (..) is not allowed in skill:// URLs'),
      );
    });
    it('refuses an encoded absolute path', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', '%2Fetc%2Fpasswd', CONTAIN),
        rejectsWith('InvalidPath', 'Absolute paths are not allowed in skill:// URLs'),
      );
    });
    it('names the missing target', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', 'missing.md', CONTAIN),
        rejectsWith('FileNotFound', `File not found: ${P}/.musepi/skills/pdf/missing.md`),
      );
    });
  });

  describe('the skill name', () => {
    it('requires one', async () => {
      await assert.rejects(
        resolveSkillResource(skills, '', 'x.md', CONTAIN),
        rejectsWith('InvalidPath', 'skill:// URL requires a skill name: skill://<name>'),
      );
    });
    it('lists the available names in list order when unknown', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'PDF', undefined, CONTAIN),
        rejectsWith('SkillNotFound', 'Unknown skill: PDF\nDid you mean pdf? (5 skills loaded)'),
      );
    });
    it('says none when no skill is loaded', async () => {
      await assert.rejects(
        resolveSkillResource([], 'pdf', undefined, CONTAIN),
        rejectsWith('SkillNotFound', 'Unknown skill: pdf\nNo skills loaded'),
      );
    });
    it('resolves hidden skills like any other', async () => {
      const file = asFile(await resolveSkillResource(skills, 'hidden', undefined, CONTAIN));
      assert.equal(file.path, join(P, '.musepi/skills/hidden/SKILL.md'));
    });
  });

  describe('no relative part answers SKILL.md', () => {
    for (const raw of [undefined, '', '/']) {
      it(`for ${JSON.stringify(raw)}`, async () => {
        const file = asFile(await resolveSkillResource(skills, 'pdf', raw, CONTAIN));
        assert.equal(file.path, join(pdfDir, 'SKILL.md'));
        assert.equal(file.realPath, join(pdfDir, 'SKILL.md'));
        assert.equal(file.contentType, 'text/markdown');
        assert.equal(file.size, Buffer.byteLength(PDF_SKILL));
        assert.equal(file.url, 'skill://pdf');
        assert.equal(file.skill.name, 'pdf');
      });
    }
  });

  describe('lexical guards (§6.4)', () => {
    const TRAVERSAL = 'Path traversal (..) is not allowed in skill:// URLs';
    const ABSOLUTE = 'Absolute paths are not allowed in skill:// URLs';
    const cases: Array<[string, string]> = [
      ['..', TRAVERSAL],
      ['../secret.txt', TRAVERSAL],
      ['references/../../secret.txt', TRAVERSAL],
      ['references/..', TRAVERSAL],
      ['references/../SKILL.md', TRAVERSAL],
      ['%2e%2e', TRAVERSAL],
      ['%2e%2e/secret.txt', TRAVERSAL],
      ['%2E%2E%2Fsecret.txt', TRAVERSAL],
      ['.%2e/x', TRAVERSAL],
      ['..%5Csecret.txt', TRAVERSAL],
      ['..\\secret.txt', TRAVERSAL],
      ['references\\..\\..\\x', TRAVERSAL],
      ['references%5C..%5Cx', TRAVERSAL],
      ['..foo', TRAVERSAL],
      ['a/..b', TRAVERSAL],
      ['../..', TRAVERSAL],
      ['%2Fetc%2Fpasswd', ABSOLUTE],
      ['/etc/passwd', ABSOLUTE],
      ['//etc/passwd', ABSOLUTE],
      ['%5Cetc%5Cpasswd', ABSOLUTE],
      ['\\etc\\passwd', ABSOLUTE],
      ['%5C%5Cserver%5Cshare%5Cx', ABSOLUTE],
      ['\\\\server\\share\\x', ABSOLUTE],
      ['C:%5CWindows%5Cwin.ini', ABSOLUTE],
      ['c:/x', ABSOLUTE],
      ['C:', ABSOLUTE],
      ['%2F..%2Fx', ABSOLUTE],
    ];
    for (const [raw, message] of cases) {
      it(`refuses ${JSON.stringify(raw)}`, async () => {
        await assert.rejects(resolveSkillResource(skills, 'pdf', raw, CONTAIN), rejectsWith('InvalidPath', message));
        await assert.rejects(resolveSkillResource(skills, 'pdf', raw, FOLLOW), rejectsWith('InvalidPath', message));
      });
    }

    const malformed: Array<[string, RegExp]> = [
      ['%00', /NUL/],
      ['a%00.md', /NUL/],
      ['a\0.md', /NUL/],
      ['%', /Malformed percent-encoding/],
      ['%zz.md', /Malformed percent-encoding/],
      ['100%.md', /Malformed percent-encoding/],
      ['%E0%A4%A', /Malformed percent-encoding/],
      ['%FF.md', /Malformed percent-encoding/],
    ];
    for (const [raw, message] of malformed) {
      it(`refuses ${JSON.stringify(raw)} as InvalidPath`, async () => {
        await assert.rejects(resolveSkillResource(skills, 'pdf', raw, CONTAIN), rejectsWith('InvalidPath', message));
      });
    }

    it('decodes exactly once: %252e%252e names a file called %2e%2e, not a traversal', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', '%252e%252e%252fsecret.txt', CONTAIN),
        rejectsWith('FileNotFound', `File not found: ${pdfDir}/%2e%2e%2fsecret.txt`),
      );
      const file = asFile(await resolveSkillResource(skills, 'pdf', '%252e%252e', CONTAIN));
      assert.equal(file.path, join(pdfDir, '%2e%2e'));
    });

    it('keeps a backslash that is not part of a traversal as a character of the name (POSIX)', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', 'references%5Ctables.md', CONTAIN),
        rejectsWith('FileNotFound', `File not found: ${pdfDir}/references\\tables.md`),
      );
    });

    it('decodes encoded names and separators', async () => {
      assert.equal(
        asFile(await resolveSkillResource(skills, 'pdf', 'references%2Ftables.md', CONTAIN)).path,
        join(pdfDir, 'references/tables.md'),
      );
      assert.equal(asFile(await resolveSkillResource(skills, 'pdf', 'a%20b.md', CONTAIN)).path, join(pdfDir, 'a b.md'));
    });

    it('keeps single dots and empty segments inside the skill', async () => {
      assert.equal(
        asFile(await resolveSkillResource(skills, 'pdf', './references//./tables.md', CONTAIN)).path,
        join(pdfDir, 'references/tables.md'),
      );
      assert.equal(asDirectory(await resolveSkillResource(skills, 'pdf', '.', CONTAIN)).path, pdfDir);
    });
  });

  describe('files and errors on disk (§6.5–6.8)', () => {
    it('answers a file with its metadata', async () => {
      const file = asFile(await resolveSkillResource(skills, 'pdf', 'references/tables.md', CONTAIN));
      assert.equal(file.path, join(pdfDir, 'references/tables.md'));
      assert.equal(file.realPath, join(pdfDir, 'references/tables.md'));
      assert.equal(file.contentType, 'text/markdown');
      assert.equal(file.size, '# Tables\n'.length);
      assert.equal(typeof file.mtimeMs, 'number');
      assert.ok(file.ino > 0);
      assert.equal(file.url, 'skill://pdf/references/tables.md');
    });

    it('reports a path through a file as NotADirectory', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', 'SKILL.md/x', CONTAIN),
        rejectsWith('NotADirectory', `Not a directory: a part of the path is a file: ${pdfDir}/SKILL.md/x`),
      );
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', 'references/notes.txt/y', FOLLOW),
        rejectsWith('NotADirectory'),
      );
    });

    it('refuses a FIFO', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', 'pipe', CONTAIN),
        rejectsWith('NotAFile', 'skill:// URL must resolve to a file or directory: skill://pdf/pipe'),
      );
    });

    it('refuses a socket', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', 'sock', FOLLOW),
        rejectsWith('NotAFile', 'skill:// URL must resolve to a file or directory: skill://pdf/sock'),
      );
    });

    it('refuses a device reached through a link in follow mode', async () => {
      await writeTree(root, { 'P/.musepi/skills/pdf/null-dev': { symlink: '/dev/null' } });
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', 'null-dev', FOLLOW),
        rejectsWith('NotAFile', 'skill:// URL must resolve to a file or directory: skill://pdf/null-dev'),
      );
      await assert.rejects(resolveSkillResource(skills, 'pdf', 'null-dev', CONTAIN), rejectsWith('PathEscapesSkill'));
    });
  });

  describe('symlinks (§6.5)', () => {
    // [relative, contain result, follow result]: a real path (relative to the temp root) or an error code.
    const table: Array<[string, string, string]> = [
      ['link-out', 'PathEscapesSkill', 'outside/secret.txt'],
      ['rel-escape', 'PathEscapesSkill', 'outside/secret.txt'],
      ['link-to-link', 'PathEscapesSkill', 'outside/secret.txt'],
      ['dir-out/inner.txt', 'PathEscapesSkill', 'outside/dir/inner.txt'],
      ['dir-out/missing.txt', 'PathEscapesSkill', 'FileNotFound'],
      ['dir-out/inner.txt/x', 'PathEscapesSkill', 'NotADirectory'],
      ['link-out/x', 'PathEscapesSkill', 'NotADirectory'],
      ['link-in', 'P/.musepi/skills/pdf/references/tables.md', 'P/.musepi/skills/pdf/references/tables.md'],
      ['dir-in/notes.txt', 'P/.musepi/skills/pdf/references/notes.txt', 'P/.musepi/skills/pdf/references/notes.txt'],
      ['dangling', 'FileNotFound', 'FileNotFound'],
      ['loop', 'NotAFile', 'NotAFile'],
    ];
    for (const [relative, containExpected, followExpected] of table) {
      for (const [mode, expected] of [
        [CONTAIN, containExpected],
        [FOLLOW, followExpected],
      ] as const) {
        it(`${relative} in ${mode.symlinks} mode → ${expected}`, async () => {
          const pending = resolveSkillResource(skills, 'pdf', relative, mode);
          if (/^[A-Z]/.test(expected) && !expected.startsWith('P/')) {
            await assert.rejects(pending, rejectsWith(expected as SkillsdErrorCode));
          } else {
            const file = asFile(await pending);
            assert.equal(file.path, join(pdfDir, relative));
            assert.equal(file.realPath, join(root, expected));
          }
        });
      }
    }

    it('names the escaping path in contain mode', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', 'link-out', CONTAIN),
        rejectsWith('PathEscapesSkill', `Path resolves outside the skill directory: ${pdfDir}/link-out`),
      );
    });

    it('refuses an escaping directory link in contain mode and lists it in follow mode', async () => {
      await assert.rejects(resolveSkillResource(skills, 'pdf', 'dir-out', CONTAIN), rejectsWith('PathEscapesSkill'));
      assert.equal(asDirectory(await resolveSkillResource(skills, 'pdf', 'dir-out', FOLLOW)).listing, 'inner.txt');
    });

    it('allows a skill directory that is itself a symlink', async () => {
      const file = asFile(await resolveSkillResource(skills, 'linked', 'ref.md', CONTAIN));
      assert.equal(file.path, join(P, '.musepi/skills/linked/ref.md'));
      assert.equal(file.realPath, join(root, 'store/real-skill/ref.md'));
      const back = asFile(await resolveSkillResource(skills, 'linked', 'back', CONTAIN));
      assert.equal(back.realPath, join(root, 'store/real-skill/ref.md'));
      assert.equal(
        asFile(await resolveSkillResource(skills, 'linked', undefined, CONTAIN)).contentType,
        'text/markdown',
      );
      await assert.rejects(resolveSkillResource(skills, 'linked', 'escape', CONTAIN), rejectsWith('PathEscapesSkill'));
    });

    it("serves the skill's own SKILL.md even when it links outside", async () => {
      const { dir, cleanup: done } = await makeTempDir();
      try {
        await writeTree(dir, {
          'shared/pdf.md': SK({ name: 'own', description: 'shared file' }),
          'skills/own/SKILL.md': { symlink: join(dir, 'shared/pdf.md') },
          'skills/own/other': { symlink: join(dir, 'shared/pdf.md') },
        });
        const own = [skillAt('own', join(dir, 'skills/own'))];
        for (const raw of [undefined, 'SKILL.md']) {
          const file = asFile(await resolveSkillResource(own, 'own', raw, CONTAIN));
          assert.equal(file.realPath, join(dir, 'shared/pdf.md'));
        }
        await assert.rejects(resolveSkillResource(own, 'own', 'other', CONTAIN), rejectsWith('PathEscapesSkill'));
      } finally {
        await done();
      }
    });

    it('reports a skill directory removed since discovery as not found', async () => {
      const gone = [skillAt('gone', join(root, 'no-such-skill'))];
      await assert.rejects(
        resolveSkillResource(gone, 'gone', 'x.md', CONTAIN),
        rejectsWith('FileNotFound', `File not found: ${root}/no-such-skill/x.md`),
      );
      await assert.rejects(
        resolveSkillResource(gone, 'gone', undefined, CONTAIN),
        rejectsWith('FileNotFound', `File not found: ${root}/no-such-skill/SKILL.md`),
      );
    });
  });

  describe('directories (§6.7)', () => {
    it('lists sub-directories first, then files, each in locale order', async () => {
      const listing = asDirectory(await resolveSkillResource(skills, 'listing', '.', CONTAIN));
      // Contain mode: links leaving the skill, and the dangling one, are refused by the route, so not listed.
      assert.equal(listing.listing, ['A/', 'b/', 'c/', 'c-link/', 'a.md', 'B.txt', 'SKILL.md', 'z.txt'].join('\n'));
      const byName = Object.fromEntries(listing.entries.map((entry) => [entry.name, entry]));
      assert.deepEqual(byName['B.txt'], { name: 'B.txt', type: 'file', size: 3 });
      assert.deepEqual(byName.A, { name: 'A', type: 'directory', size: 0 });
      assert.deepEqual(byName['c-link'], { name: 'c-link', type: 'directory', size: 0 });
      for (const name of ['out-dir', 'out-file', 'dangling']) assert.equal(byName[name], undefined, name);
    });

    it('classifies escaping links by their targets in follow mode', async () => {
      const byDir = asDirectory(await resolveSkillResource(skills, 'listing', '.', FOLLOW));
      const byName = Object.fromEntries(byDir.entries.map((entry) => [entry.name, entry]));
      assert.deepEqual(byName['out-dir'], { name: 'out-dir', type: 'directory', size: 0 });
      assert.deepEqual(byName['out-file'], { name: 'out-file', type: 'file', size: 6 });
      assert.match(byDir.listing, /^A\/\nb\/\nc\/\nc-link\/\nout-dir\/\na\.md\n/);
    });

    it('says (empty directory) for an empty one', async () => {
      const empty = asDirectory(await resolveSkillResource(skills, 'pdf', 'empty', CONTAIN));
      assert.equal(empty.listing, '(empty directory)');
      assert.deepEqual(empty.entries, []);
      assert.equal(empty.path, join(pdfDir, 'empty'));
      assert.equal(empty.url, 'skill://pdf/empty');
    });

    it('lists through a trailing slash', async () => {
      assert.equal(
        asDirectory(await resolveSkillResource(skills, 'pdf', 'references/', CONTAIN)).listing,
        'notes.txt\ntables.md',
      );
    });

    it('answers a directory as not found in the xcsh profile', async () => {
      await assert.rejects(
        resolveSkillResource(skills, 'pdf', 'references', XCSH),
        rejectsWith('FileNotFound', `File not found: ${pdfDir}/references`),
      );
    });
  });

  describe('content types (§6.9)', () => {
    const table: Array<[string, string, string]> = [
      ['a.md', 'text/markdown', 'text/markdown'],
      ['b.MARKDOWN', 'text/markdown', 'text/plain'],
      ['c.mdx', 'text/markdown', 'text/plain'],
      ['d.mdc', 'text/markdown', 'text/plain'],
      ['e.mkd', 'text/markdown', 'text/plain'],
      ['f.mdown', 'text/markdown', 'text/plain'],
      ['g.MD', 'text/markdown', 'text/markdown'],
      ['h.txt', 'text/plain', 'text/plain'],
      ['i.json', 'text/plain', 'text/plain'],
      ['md', 'text/plain', 'text/plain'],
      ['j.md.txt', 'text/plain', 'text/plain'],
      ['k.txt.md', 'text/markdown', 'text/markdown'],
    ];
    for (const [name, musepi, xcsh] of table) {
      it(`${name}: ${musepi} (xcsh ${xcsh})`, async () => {
        assert.equal(asFile(await resolveSkillResource(skills, 'types', name, CONTAIN)).contentType, musepi);
        assert.equal(asFile(await resolveSkillResource(skills, 'types', name, XCSH)).contentType, xcsh);
      });
    }
  });

  it('looks the name up with `skillNamed` when given, not by scanning the list', async () => {
    const pdf = skills.find((skill) => skill.name === 'pdf')!;
    const asked: string[] = [];
    const skillNamed = (name: string): Skill | undefined => {
      asked.push(name);
      return name === 'pdf' ? pdf : undefined;
    };
    // The list is not searched: the lookup's answer (and its miss) decide.
    const file = asFile(await resolveSkillResource([], 'pdf', 'references/tables.md', { ...CONTAIN, skillNamed }));
    assert.equal(file.realPath, await realpath(join(pdfDir, 'references/tables.md')));
    await assert.rejects(
      resolveSkillResource(skills, 'types', undefined, { ...CONTAIN, skillNamed }),
      rejectsWith('SkillNotFound', /^Unknown skill: types\n/),
    );
    assert.deepEqual(asked, ['pdf', 'types']);
  });

  it('contain mode: every resolved file stays inside the real skill directory, in every profile (property)', async () => {
    const realBase = await realpath(pdfDir);
    const segment = fc.constantFrom(
      '..',
      '.',
      '',
      '%2e',
      '%2e%2e',
      '.%2E',
      '%2f',
      '%5c',
      '\\',
      '%00',
      'references',
      'tables.md',
      'notes.txt',
      'SKILL.md',
      'link-out',
      'rel-escape',
      'dir-out',
      'link-to-link',
      'link-in',
      'dir-in',
      'inner.txt',
      'secret.txt',
      'outside',
      'dangling',
      'loop',
      'pipe',
      'empty',
    );
    const separator = fc.constantFrom('/', '%2F', '%2f', '\\', '%5C', '//');
    const relative = fc
      .array(fc.tuple(segment, separator), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.map(([name, sep], index) => (index === 0 ? name : sep + name)).join(''));
    await fc.assert(
      fc.asyncProperty(relative, fc.constantFrom(CONTAIN, XCSH), async (raw, options) => {
        let resource: SkillResource;
        try {
          resource = await resolveSkillResource(skills, 'pdf', raw, options);
        } catch (error) {
          assert.ok(error instanceof SkillsdError, `${raw}: ${String(error)}`);
          return;
        }
        assert.ok(resource.path === pdfDir || resource.path.startsWith(`${pdfDir}/`), raw);
        if (resource.kind === 'file') {
          assert.ok(resource.realPath.startsWith(`${realBase}/`), `${raw} → ${resource.realPath}`);
        }
      }),
      { numRuns: 400, seed: 20261202 },
    );
  });
});

describe('resolveSkillResource: xcsh reads files only (docs/discovery.md §6, xcsh)', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let kit: string;
  let skills: Skill[];
  const TRAVERSAL = 'Path traversal (..) is not allowed in skill:// URLs';
  const ABSOLUTE = 'Absolute paths are not allowed in skill:// URLs';

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    kit = join(root, 'skills/kit');
    await writeTree(kit, {
      'SKILL.md': SK({ name: 'kit', description: 'd' }),
      'ref.md': '# ref\n',
      'sub/x.md': 'x',
      'sub/deeper/y.md': 'y',
      empty: { dir: true },
    });
    skills = [skillAt('kit', kit)];
  });
  after(() => cleanup());

  const notFound: Array<[string, string]> = [
    ['sub', 'sub'],
    ['sub/', 'sub/'],
    ['empty', 'empty'],
    ['SKILL.md/x', 'SKILL.md/x'],
    ['ref.md/a/b.md', 'ref.md/a/b.md'],
    ['sub/x.md%2F', 'sub/x.md/'],
    ['sub%5C..%5Cref.md', 'sub\\..\\ref.md'],
  ];
  for (const [raw, shown] of notFound) {
    it(`answers ${JSON.stringify(raw)} as 404 File not found: …/kit/${shown}`, async () => {
      for (const symlinks of ['contain', 'follow'] as const) {
        await assert.rejects(
          resolveSkillResource(skills, 'kit', raw, { profile: 'xcsh', symlinks }),
          rejectsWith('FileNotFound', `File not found: ${kit}/${shown}`),
        );
      }
    });
  }

  for (const raw of ['sub/..%2Fref.md', 'sub/deeper/..%2F..%2Fref.md', 'sub%2F%2E%2E%2Fref.md']) {
    it(`serves ref.md for ${JSON.stringify(raw)}: the normalised path stays inside`, async () => {
      const file = asFile(await resolveSkillResource(skills, 'kit', raw, XCSH));
      assert.equal(file.path, join(kit, 'ref.md'));
      assert.equal(file.realPath, join(kit, 'ref.md'));
    });
  }

  const refused: Array<[string, string]> = [
    ['sub%2F..%2F..%2Fref.md', TRAVERSAL],
    ['..', TRAVERSAL],
    ['..%2Fref.md', TRAVERSAL],
    ['..notes.md', TRAVERSAL],
    ['sub/..x.md', TRAVERSAL],
    ['%2Fetc%2Fpasswd', ABSOLUTE],
  ];
  for (const [raw, message] of refused) {
    it(`refuses ${JSON.stringify(raw)}`, async () => {
      await assert.rejects(resolveSkillResource(skills, 'kit', raw, XCSH), rejectsWith('InvalidPath', message));
    });
  }

  it('leaves MusePi as it was: any .. segment refused, directories listed, NotADirectory through a file', async () => {
    await assert.rejects(
      resolveSkillResource(skills, 'kit', 'sub/..%2Fref.md', CONTAIN),
      rejectsWith('InvalidPath', TRAVERSAL),
    );
    await assert.rejects(
      resolveSkillResource(skills, 'kit', 'sub%5C..%5Cref.md', CONTAIN),
      rejectsWith('InvalidPath', TRAVERSAL),
    );
    assert.equal(asDirectory(await resolveSkillResource(skills, 'kit', 'sub', CONTAIN)).listing, 'deeper/\nx.md');
    await assert.rejects(resolveSkillResource(skills, 'kit', 'SKILL.md/x', CONTAIN), rejectsWith('NotADirectory'));
  });
});

describe('openSkillFile', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let skills: Skill[];

  before(async () => {
    ({ dir, cleanup } = await makeTempDir());
    skills = [skillAt('s', join(dir, 's'))];
  });
  after(() => cleanup());

  async function fresh(name: string, content: string) {
    await writeTree(dir, { [`s/${name}`]: content });
    return asFile(await resolveSkillResource(skills, 's', name, CONTAIN));
  }

  it('opens the checked file and reports its stat', async () => {
    const resource = await fresh('ok.md', 'hello');
    const { handle, stat } = await openSkillFile(resource);
    try {
      assert.equal(stat.ino, resource.ino);
      assert.equal(stat.size, 5);
      assert.equal(await handle.readFile('utf8'), 'hello');
    } finally {
      await handle.close();
    }
  });

  it('refuses a file replaced by another one after the check', async () => {
    const resource = await fresh('swap.md', 'checked');
    await writeFile(join(dir, 'other.md'), 'swapped in');
    await rename(join(dir, 'other.md'), join(dir, 's/swap.md'));
    await assert.rejects(
      openSkillFile(resource),
      rejectsWith('PathEscapesSkill', `File changed between check and open, refusing it: ${dir}/s/swap.md`),
    );
  });

  it('refuses a file replaced by a symlink after the check', async () => {
    const resource = await fresh('link.md', 'checked');
    await writeTree(dir, { 'secret.txt': 'secret' });
    await rm(join(dir, 's/link.md'));
    await symlink(join(dir, 'secret.txt'), join(dir, 's/link.md'));
    await assert.rejects(openSkillFile(resource), rejectsWith('PathEscapesSkill'));
  });

  it('refuses a file reached through a directory swapped for an escaping link after the check', async () => {
    await writeTree(dir, { 's/d/f.txt': 'inside', 'outside/f.txt': 'outside secret' });
    const resource = asFile(await resolveSkillResource(skills, 's', 'd/f.txt', CONTAIN));
    await rename(join(dir, 's/d'), join(dir, 's/d-parked'));
    await symlink(join(dir, 'outside'), join(dir, 's/d'));
    // The check's stat can run just after such a swap (between its realpath and its stat): it then saw the outside
    // file, so the device and inode of the opened file agree with it, and only where the descriptor is can tell.
    const outside = await stat(join(dir, 'outside/f.txt'));
    await assert.rejects(
      openSkillFile({ ...resource, ino: outside.ino, dev: outside.dev }),
      rejectsWith('PathEscapesSkill', `File changed between check and open, refusing it: ${dir}/s/d/f.txt`),
    );
  });

  it('refuses a file replaced by a FIFO without blocking', async () => {
    const resource = await fresh('fifo.md', 'checked');
    await rm(join(dir, 's/fifo.md'));
    assert.equal(spawnSync('mkfifo', [join(dir, 's/fifo.md')]).status, 0);
    await assert.rejects(
      openSkillFile(resource),
      rejectsWith('NotAFile', 'skill:// URL must resolve to a file or directory: skill://s/fifo.md'),
    );
  });

  it('reports a file removed after the check as not found', async () => {
    const resource = await fresh('gone.md', 'checked');
    await rm(join(dir, 's/gone.md'));
    await assert.rejects(openSkillFile(resource), rejectsWith('FileNotFound', `File not found: ${dir}/s/gone.md`));
  });

  it('accepts a file edited in place (same inode) and reads the new content', async () => {
    const resource = await fresh('edit.md', 'v1');
    await writeFile(join(dir, 's/edit.md'), 'version 2');
    const { handle } = await openSkillFile(resource);
    try {
      assert.equal(await handle.readFile('utf8'), 'version 2');
    } finally {
      await handle.close();
    }
  });
});
