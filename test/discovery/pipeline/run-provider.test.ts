// runProvider / scanCustomDir with a scan function standing in for the file system where the real one cannot be made
// to fail that way: the real scan reports every read error as a warning and never throws.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { ProviderPlan } from '../../../src/discovery/pipeline/providers.js';
import { runProvider, type ScanFunction, scanCustomDir } from '../../../src/discovery/pipeline/run-provider.js';
import type { ScanOptions } from '../../../src/discovery/scan/scan-options.js';
import type { Skill } from '../../../src/discovery/types.js';

const plan: ProviderPlan = {
  id: 'claude',
  priority: 80,
  displayName: 'Claude Code',
  requireDescription: false,
  managed: false,
  dirs: [
    { path: '/h/.claude/skills', level: 'user' },
    { path: '/p/a/.claude/skills', level: 'project' },
    { path: '/p/.claude/skills', level: 'project' },
  ],
};

function fakeSkill(dir: string, options: ScanOptions): Skill {
  const filePath = `${dir}/s/SKILL.md`;
  return {
    name: 's',
    description: '',
    filePath,
    baseDir: `${dir}/s`,
    hide: false,
    source: {
      id: `${options.provider}:${options.level}`,
      provider: options.provider,
      providerName: options.providerName,
      level: options.level,
      path: filePath,
    },
    frontmatter: {},
  };
}

describe('runProvider', () => {
  it('scans every directory with the provider options and keeps the documented order whatever finishes first', async () => {
    const calls: Array<[string, ScanOptions]> = [];
    // The first directory finishes last.
    const scan: ScanFunction = async (dir, options) => {
      calls.push([dir, options]);
      await delay(dir.startsWith('/h') ? 30 : 0);
      return { skills: [fakeSkill(dir, options)], warnings: [`warn ${dir}`] };
    };
    const run = await runProvider(plan, 'musepi', undefined, scan);
    assert.deepEqual(
      calls.map(([dir, o]) => [dir, o.provider, o.providerName, o.level, o.requireDescription, o.profile]),
      [
        ['/h/.claude/skills', 'claude', 'Claude Code', 'user', false, 'musepi'],
        ['/p/a/.claude/skills', 'claude', 'Claude Code', 'project', false, 'musepi'],
        ['/p/.claude/skills', 'claude', 'Claude Code', 'project', false, 'musepi'],
      ],
    );
    assert.equal(
      calls.every(([, o]) => !('cache' in o)),
      true,
    );
    assert.deepEqual(
      run.skills.map((s) => [s.filePath, s.source.id]),
      [
        ['/h/.claude/skills/s/SKILL.md', 'claude:user'],
        ['/p/a/.claude/skills/s/SKILL.md', 'claude:project'],
        ['/p/.claude/skills/s/SKILL.md', 'claude:project'],
      ],
    );
    assert.deepEqual(run.warnings, ['warn /h/.claude/skills', 'warn /p/a/.claude/skills', 'warn /p/.claude/skills']);
  });

  it('a provider that throws loses its skills and reports Failed to load: <message>', async () => {
    const scan: ScanFunction = async (dir, options) => {
      if (dir === '/p/.claude/skills') throw new Error('boom');
      return { skills: [fakeSkill(dir, options)], warnings: [] };
    };
    const run = await runProvider(plan, 'musepi', undefined, scan);
    assert.deepEqual(run.skills, []);
    assert.deepEqual(run.warnings, ['Failed to load: boom']);
  });

  it('a thrown non-Error is reported as a string', async () => {
    const scan: ScanFunction = async () => {
      throw 'plain failure';
    };
    assert.deepEqual((await runProvider(plan, 'xcsh', undefined, scan)).warnings, ['Failed to load: plain failure']);
  });

  it('a reserved provider scans nothing', async () => {
    let called = false;
    const scan: ScanFunction = async () => {
      called = true;
      return { skills: [], warnings: [] };
    };
    const run = await runProvider({ ...plan, id: 'claude-plugins', dirs: [] }, 'musepi', undefined, scan);
    assert.deepEqual([run.skills, run.warnings, called], [[], [], false]);
  });
});

describe('scanCustomDir', () => {
  it('scans as custom:user with a description required', async () => {
    let seen: ScanOptions | undefined;
    const scan: ScanFunction = async (_dir, options) => {
      seen = options;
      return { skills: [], warnings: ['w'] };
    };
    const run = await scanCustomDir({ shown: '/c', path: '/c' }, 'omp', undefined, scan);
    assert.deepEqual(seen, {
      requireDescription: true,
      profile: 'omp',
      provider: 'custom',
      providerName: 'Custom',
      level: 'user',
    });
    assert.deepEqual(run, { dir: '/c', skills: [], warnings: ['w'] });
  });

  it('a relative directory is read at its CWD path and shown as written', async () => {
    let seen: [string, ScanOptions] | undefined;
    const scan: ScanFunction = async (dir, options) => {
      seen = [dir, options];
      return { skills: [], warnings: [] };
    };
    const run = await scanCustomDir({ shown: 'rel', path: '/w/rel' }, 'musepi', undefined, scan);
    assert.equal(seen?.[0], '/w/rel');
    assert.equal(seen?.[1].shownDir, 'rel');
    assert.deepEqual(run, { dir: 'rel', skills: [], warnings: [] });
  });

  it('a throwing scan becomes a warning for that directory', async () => {
    const scan: ScanFunction = async () => {
      throw new Error('bad');
    };
    assert.deepEqual(await scanCustomDir({ shown: '/c', path: '/c' }, 'musepi', undefined, scan), {
      dir: '/c',
      skills: [],
      warnings: ['Failed to load: bad'],
    });
  });
});
