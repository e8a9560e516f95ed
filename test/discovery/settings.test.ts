import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SkillsdError } from '../../src/discovery/errors.js';
import { defaultSettings, parseSettings } from '../../src/discovery/settings.js';

describe('parseSettings (docs/discovery.md §10)', () => {
  it('gives the documented defaults for an empty input', () => {
    const settings = parseSettings({});
    assert.deepEqual(settings, defaultSettings());
    assert.equal(settings.profile, 'musepi');
    assert.equal(settings.symlinks, 'contain');
    assert.equal(settings.skills.enabled, true);
    assert.deepEqual(settings.skills.customDirectories, []);
  });

  it('merges given values over the defaults', () => {
    const settings = parseSettings({
      profile: 'xcsh',
      symlinks: 'follow',
      disabledProviders: ['codex'],
      skills: { enablePiProject: false, ignoredSkills: ['tmp-*'] },
      server: {
        port: 0,
        allowedHosts: ['box.local'],
        generation: 'content',
        metrics: 'public',
        watchMode: 'poll',
        pollIntervalMs: 2000,
        mcp: { maxSessions: 8, idleTimeoutS: 120 },
        walkLimits: { maxEntries: 50_000, maxDepth: 8 },
      },
    });
    assert.equal(settings.profile, 'xcsh');
    assert.equal(settings.symlinks, 'follow');
    assert.deepEqual(settings.disabledProviders, ['codex']);
    assert.equal(settings.skills.enablePiProject, false);
    assert.equal(settings.skills.enablePiUser, true);
    assert.deepEqual(settings.skills.ignoredSkills, ['tmp-*']);
    assert.equal(settings.server.port, 0);
    assert.deepEqual(settings.server.allowedHosts, ['box.local']);
    assert.deepEqual(
      [settings.server.generation, settings.server.metrics, settings.server.watchMode, settings.server.pollIntervalMs],
      ['content', 'public', 'poll', 2000],
    );
    assert.deepEqual(settings.server.mcp, { maxSessions: 8, idleTimeoutS: 120 });
    assert.deepEqual(settings.server.walkLimits, { maxEntries: 50_000, maxDepth: 8 });
  });

  const rejected: Array<[string, unknown, string]> = [
    ['unknown top-level key', { profil: 'omp' }, 'unknown setting "profil"'],
    ['typo in a toggle', { skills: { enablePiProjet: false } }, 'unknown setting "skills.enablePiProjet"'],
    ['unknown server key', { server: { hots: 'x' } }, 'unknown setting "server.hots"'],
    ['non-boolean toggle', { skills: { enabled: 'no' } }, '"skills.enabled" must be a boolean, got "no"'],
    [
      'non-list globs',
      { skills: { includeSkills: 'a*' } },
      '"skills.includeSkills" must be a list of strings, got "a*"',
    ],
    ['bad profile', { profile: 'claude' }, '"profile" must be one of musepi, omp, xcsh, got "claude"'],
    ['bad symlinks', { symlinks: 'allow' }, '"symlinks" must be one of contain, follow, got "allow"'],
    ['bad port', { server: { port: 70000 } }, '"server.port" must be an integer from 0 to 65535, got 70000'],
    ['root is a list', [1], '"(root)" must be an object, got a list'],
    [
      'bad generation',
      { server: { generation: 'clock' } },
      '"server.generation" must be one of counter, content, got "clock"',
    ],
    ['bad metrics', { server: { metrics: 'open' } }, '"server.metrics" must be one of public, token, got "open"'],
    [
      'bad watch mode',
      { server: { watchMode: 'inotify' } },
      '"server.watchMode" must be one of events, poll, got "inotify"',
    ],
    [
      'poll interval too short',
      { server: { pollIntervalMs: 10 } },
      '"server.pollIntervalMs" must be an integer from 50 to 3600000, got 10',
    ],
    ['unknown MCP key', { server: { mcp: { maxSesions: 8 } } }, 'unknown setting "server.mcp.maxSesions"'],
    [
      'no MCP session at all',
      { server: { mcp: { maxSessions: 0 } } },
      '"server.mcp.maxSessions" must be an integer from 1 to 100000, got 0',
    ],
    [
      'a fractional MCP idle timeout',
      { server: { mcp: { idleTimeoutS: 1.5 } } },
      '"server.mcp.idleTimeoutS" must be an integer from 1 to 86400, got 1.5',
    ],
    [
      'walk limit of zero',
      { server: { walkLimits: { maxEntries: 0 } } },
      '"server.walkLimits.maxEntries" must be an integer from 1 to 10000000, got 0',
    ],
    [
      'unknown walk limit',
      { server: { walkLimits: { maxFiles: 9 } } },
      'unknown setting "server.walkLimits.maxFiles" (one of maxEntries, maxDirectories, maxDepth)',
    ],
    ['walk limits not an object', { server: { walkLimits: 5 } }, '"server.walkLimits" must be an object, got 5'],
  ];
  for (const [label, input, message] of rejected) {
    it(`rejects ${label}`, () => {
      assert.throws(
        () => parseSettings(input),
        (error: unknown) =>
          error instanceof SkillsdError && error.code === 'InvalidSettings' && error.message === message,
      );
    });
  }
});
