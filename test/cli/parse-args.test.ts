import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CliError } from '../../src/cli/cli-error.js';
import { listenAddress, withCliOverrides } from '../../src/cli/effective-settings.js';
import { parseArgs, readVersion } from '../../src/cli/parse-args.js';
import { defaultSettings, parseSettings } from '../../src/discovery/settings.js';

const NO_ENV = {};

describe('parseArgs', () => {
  const accepted: Array<[string, string[], Record<string, string>, unknown]> = [
    ['serve with no option', ['serve'], NO_ENV, { kind: 'serve', options: {} }],
    [
      'mcp with its flags',
      ['mcp', '--cwd', '/w', '--profile', 'omp'],
      NO_ENV,
      { kind: 'mcp', options: { cwd: '/w', profile: 'omp' } },
    ],
    [
      'repeated --allow-host',
      ['serve', '--allow-host', 'box.lan', '--allow-host=skills.example'],
      { SKILLSD_ALLOW_HOST: 'ignored' },
      { kind: 'serve', options: { allowHosts: ['box.lan', 'skills.example'] } },
    ],
    [
      'SKILLSD_ALLOW_HOST, comma-separated',
      ['serve'],
      { SKILLSD_ALLOW_HOST: 'box.lan, skills.example' },
      { kind: 'serve', options: { allowHosts: ['box.lan', 'skills.example'] } },
    ],
    [
      'every flag as --flag value',
      [
        'serve',
        '--host',
        '0.0.0.0',
        '--port',
        '8080',
        '--cwd',
        '/w',
        '--config',
        'c.yaml',
        '--profile',
        'omp',
        '--token-file',
        '/t',
        '--log-level',
        'debug',
      ],
      NO_ENV,
      {
        kind: 'serve',
        options: {
          host: '0.0.0.0',
          port: 8080,
          cwd: '/w',
          config: 'c.yaml',
          profile: 'omp',
          tokenFile: '/t',
          logLevel: 'debug',
        },
      },
    ],
    [
      '--flag=value',
      ['serve', '--port=0', '--profile=xcsh', '--cwd=/a=b'],
      NO_ENV,
      { kind: 'serve', options: { port: 0, profile: 'xcsh', cwd: '/a=b' } },
    ],
    ['flags before the command', ['--port', '9', 'serve'], NO_ENV, { kind: 'serve', options: { port: 9 } }],
    [
      'the last of a repeated flag',
      ['serve', '--port', '1', '--port', '2'],
      NO_ENV,
      { kind: 'serve', options: { port: 2 } },
    ],
    [
      'every environment variable',
      ['serve'],
      {
        SKILLSD_HOST: '::1',
        SKILLSD_PORT: '7000',
        SKILLSD_CWD: '/env-cwd',
        SKILLSD_CONFIG: '/c.json',
        SKILLSD_PROFILE: 'xcsh',
        SKILLSD_TOKEN_FILE: '/tok',
        SKILLSD_LOG_LEVEL: 'warn',
      },
      {
        kind: 'serve',
        options: {
          host: '::1',
          port: 7000,
          cwd: '/env-cwd',
          config: '/c.json',
          profile: 'xcsh',
          tokenFile: '/tok',
          logLevel: 'warn',
        },
      },
    ],
    [
      '--log-format, from the flag or from SKILLSD_LOG_FORMAT (the flag wins)',
      ['serve', '--log-format', 'pretty'],
      { SKILLSD_LOG_FORMAT: 'json' },
      { kind: 'serve', options: { logFormat: 'pretty' } },
    ],
    [
      'SKILLSD_LOG_FORMAT alone',
      ['serve'],
      { SKILLSD_LOG_FORMAT: 'pretty' },
      { kind: 'serve', options: { logFormat: 'pretty' } },
    ],
    [
      '--log-format for mcp (its lines go to stderr)',
      ['mcp', '--log-format=pretty'],
      NO_ENV,
      { kind: 'mcp', options: { logFormat: 'pretty' } },
    ],
    [
      'flags over environment variables',
      ['serve', '--port', '7421', '--profile', 'omp'],
      { SKILLSD_PORT: '7000', SKILLSD_PROFILE: 'xcsh', SKILLSD_HOST: 'localhost' },
      { kind: 'serve', options: { host: 'localhost', port: 7421, profile: 'omp' } },
    ],
    [
      'the watch mode, its poll interval and the generation kind',
      ['serve', '--watch-mode', 'poll', '--poll-interval=2500'],
      { SKILLSD_GENERATION: 'content', SKILLSD_WATCH_MODE: 'events' },
      { kind: 'serve', options: { watchMode: 'poll', pollInterval: 2500, generation: 'content' } },
    ],
    ['an empty environment variable as unset', ['serve'], { SKILLSD_PORT: '' }, { kind: 'serve', options: {} }],
    ['--help', ['serve', '--help'], NO_ENV, { kind: 'help' }],
    ['-h even with bad flags', ['--bogus', '-h'], NO_ENV, { kind: 'help' }],
    ['help', ['help'], NO_ENV, { kind: 'help' }],
    ['--version', ['--version'], NO_ENV, { kind: 'version' }],
    ['version', ['version'], NO_ENV, { kind: 'version' }],
  ];
  for (const [label, argv, env, expected] of accepted) {
    it(`accepts ${label}`, () => assert.deepEqual(parseArgs(argv, env), expected));
  }

  const rejected: Array<[string, string[], Record<string, string>, string]> = [
    ['no command', [], NO_ENV, 'missing command: use "skillsd serve"'],
    [
      'an unknown command',
      ['start'],
      NO_ENV,
      'unknown command "start" (expected serve, mcp, ls, show, cat, prompt, invoke, search, watch, wait, doctor, status, stop, open, agents, catalog)',
    ],
    [
      'a socket flag for mcp',
      ['mcp', '--host', '0.0.0.0'],
      NO_ENV,
      'option --host does not apply to "skillsd mcp" (stdio)',
    ],
    [
      '--allow-host for mcp',
      ['mcp', '--allow-host', 'box'],
      NO_ENV,
      'option --allow-host does not apply to "skillsd mcp" (stdio)',
    ],
    ['an empty --allow-host', ['serve', '--allow-host='], NO_ENV, 'option --allow-host needs a non-empty value'],
    ['an extra argument', ['serve', 'now'], NO_ENV, 'unexpected argument "now"'],
    ['an unknown flag', ['serve', '--prot', '1'], NO_ENV, 'unknown option --prot'],
    ['an unknown short flag', ['serve', '-p', '1'], NO_ENV, 'unknown option -p'],
    ['a flag without value at the end', ['serve', '--port'], NO_ENV, 'option --port needs a value'],
    ['a flag followed by a flag', ['serve', '--host', '--port', '1'], NO_ENV, 'option --host needs a value'],
    ['an empty value', ['serve', '--host='], NO_ENV, 'option --host needs a non-empty value'],
    [
      'a port that is not a number',
      ['serve', '--port', 'http'],
      NO_ENV,
      'option --port: "http" is not a port (an integer from 0 to 65535)',
    ],
    [
      'a port too large',
      ['serve', '--port=65536'],
      NO_ENV,
      'option --port: "65536" is not a port (an integer from 0 to 65535)',
    ],
    [
      'a negative port',
      ['serve', '--port', '-1'],
      NO_ENV,
      'option --port: "-1" is not a port (an integer from 0 to 65535)',
    ],
    [
      'a fractional port',
      ['serve', '--port', '80.5'],
      NO_ENV,
      'option --port: "80.5" is not a port (an integer from 0 to 65535)',
    ],
    [
      'an unknown profile',
      ['serve', '--profile', 'claude'],
      NO_ENV,
      'option --profile: unknown profile "claude" (expected musepi, omp, xcsh)',
    ],
    [
      'an unknown log level',
      ['serve', '--log-level', 'verbose'],
      NO_ENV,
      'option --log-level: unknown log level "verbose" (expected fatal, error, warn, info, debug, trace, silent)',
    ],
    [
      'an unknown log format',
      ['serve', '--log-format', 'text'],
      NO_ENV,
      'option --log-format: unknown log format "text" (expected json, pretty)',
    ],
    [
      'an unknown log format from the environment',
      ['serve'],
      { SKILLSD_LOG_FORMAT: 'xml' },
      'SKILLSD_LOG_FORMAT: unknown log format "xml" (expected json, pretty)',
    ],
    [
      'an unknown watch mode',
      ['serve', '--watch-mode', 'inotify'],
      NO_ENV,
      'option --watch-mode: unknown watch mode "inotify" (expected events, poll)',
    ],
    [
      'a poll interval below 50 ms',
      ['serve'],
      { SKILLSD_POLL_INTERVAL: '10' },
      'SKILLSD_POLL_INTERVAL: "10" is not a poll interval (milliseconds from 50 to 3600000)',
    ],
    [
      'an unknown generation kind',
      ['serve', '--generation', 'clock'],
      NO_ENV,
      'option --generation: unknown generation "clock" (expected counter, content)',
    ],
    [
      'a bad environment port',
      ['serve'],
      { SKILLSD_PORT: 'abc' },
      'SKILLSD_PORT: "abc" is not a port (an integer from 0 to 65535)',
    ],
    [
      'a bad environment profile',
      ['serve'],
      { SKILLSD_PROFILE: 'x' },
      'SKILLSD_PROFILE: unknown profile "x" (expected musepi, omp, xcsh)',
    ],
  ];
  for (const [label, argv, env, message] of rejected) {
    it(`rejects ${label}`, () => {
      assert.throws(
        () => parseArgs(argv, env),
        (error: unknown) => error instanceof CliError && error.exitCode === 2 && error.message === message,
      );
    });
  }

  it('does not read a bad environment variable that a flag overrides', () => {
    assert.deepEqual(parseArgs(['serve', '--port', '1'], { SKILLSD_PORT: 'abc' }), {
      kind: 'serve',
      options: { port: 1 },
    });
  });

  it('reads the version from package.json', () => {
    assert.match(readVersion(), /^\d+\.\d+\.\d+/);
  });
});

describe('withCliOverrides (defaults < config file < environment < flags)', () => {
  const fromFile = parseSettings({
    profile: 'xcsh',
    server: { host: '0.0.0.0', port: 9000, token: 'from-config', allowedHosts: ['box'] },
  });

  it('keeps the config file values when nothing overrides them', () => {
    const settings = withCliOverrides(fromFile, {});
    assert.deepEqual(settings, fromFile);
    assert.deepEqual(listenAddress(settings), { host: '0.0.0.0', port: 9000 });
  });

  it('lets flags and environment override profile, host, port and the token', () => {
    const settings = withCliOverrides(fromFile, { profile: 'omp', host: '127.0.0.1', port: 0, tokenFile: '/t' });
    assert.equal(settings.profile, 'omp');
    assert.deepEqual(settings.server, {
      host: '127.0.0.1',
      port: 0,
      tokenFile: '/t',
      allowedHosts: ['box'],
      allowedOrigins: [],
      allowedWorkspaces: [],
      localPeers: 'same-user',
    });
    assert.equal(fromFile.server.token, 'from-config');
  });

  it('falls back to 127.0.0.1:7420', () => {
    assert.deepEqual(listenAddress(withCliOverrides(defaultSettings(), {})), { host: '127.0.0.1', port: 7420 });
  });
});

describe('--allow-host', () => {
  it('adds to server.allowedHosts from the config', () => {
    const fromConfig = parseSettings({ server: { allowedHosts: ['a.lan'] } });
    const settings = withCliOverrides(fromConfig, { allowHosts: ['b.lan', 'a.lan'] });
    assert.deepEqual(settings.server.allowedHosts, ['a.lan', 'b.lan']);
    assert.deepEqual(withCliOverrides(defaultSettings(), {}).server.allowedHosts, []);
  });
});
