// contrib/: the systemd user unit and the launchd agent start `skillsd serve` with arguments the CLI accepts, stop it
// with the signal it handles gracefully, and are well-formed (systemd-analyze where it runs; the plist parsed here).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseArgs } from '../../src/cli/parse-args.js';

const UNIT = fileURLToPath(new URL('../../contrib/skillsd.service', import.meta.url));
const PLIST = fileURLToPath(new URL('../../contrib/dev.skillsd.plist', import.meta.url));

/** `[Section]` → key → values (a key may repeat), comments and blank lines skipped. */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(trimmed);
    if (section !== null) {
      current = new Map();
      sections.set(section[1]!, current);
      continue;
    }
    const equals = trimmed.indexOf('=');
    assert.ok(current !== undefined && equals > 0, `a key=value line inside a section: ${line}`);
    const key = trimmed.slice(0, equals);
    current.set(key, [...(current.get(key) ?? []), trimmed.slice(equals + 1)]);
  }
  return sections;
}

type PlistValue = string | boolean | PlistValue[] | { [key: string]: PlistValue };

/** The plist subset launchd agents use: dict, array, string, true, false. Throws on anything else. */
function parsePlist(xml: string): PlistValue {
  const body = xml
    .replace(/<\?xml[^>]*\?>/, '')
    .replace(/<!DOCTYPE[^>]*>/, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  const tokens = body.match(/<[^>]+>|[^<]+/g)?.filter((token) => token.trim() !== '') ?? [];
  let at = 0;
  const expect = (tag: string) => assert.equal(tokens[at++], tag);
  const value = (): PlistValue => {
    const tag = tokens[at++];
    if (tag === '<true/>') return true;
    if (tag === '<false/>') return false;
    if (tag === '<string>') {
      const text = tokens[at] === '</string>' ? '' : (tokens[at++] ?? '');
      expect('</string>');
      return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
    }
    if (tag === '<array>') {
      const items: PlistValue[] = [];
      while (tokens[at] !== '</array>') items.push(value());
      at++;
      return items;
    }
    if (tag === '<dict>') {
      const dict: Record<string, PlistValue> = {};
      while (tokens[at] !== '</dict>') {
        expect('<key>');
        const key = tokens[at++] ?? '';
        expect('</key>');
        dict[key] = value();
      }
      at++;
      return dict;
    }
    throw new Error(`unexpected ${tag}`);
  };
  expect('<plist version="1.0">');
  const root = value();
  expect('</plist>');
  assert.equal(at, tokens.length);
  return root;
}

describe('contrib/skillsd.service (systemd user unit)', () => {
  it('runs skillsd serve on loopback, stops with SIGTERM, does not restart into a bad config', async () => {
    const unit = parseUnit(await readFile(UNIT, 'utf8'));
    const service = unit.get('Service');
    assert.ok(service !== undefined);
    assert.deepEqual(service.get('ExecStart'), ['/usr/bin/env skillsd serve --host 127.0.0.1 --port 7420 --cwd %h']);
    const argv = service
      .get('ExecStart')![0]!
      .split(' ')
      .slice(2)
      .map((arg) => (arg === '%h' ? '/home/u' : arg));
    assert.deepEqual(parseArgs(argv, {}), {
      kind: 'serve',
      options: { host: '127.0.0.1', port: 7420, cwd: '/home/u' },
    });
    assert.deepEqual(service.get('KillSignal'), ['SIGTERM']);
    assert.deepEqual(service.get('RestartPreventExitStatus'), ['2']);
    assert.deepEqual(unit.get('Install')?.get('WantedBy'), ['default.target']);
  });

  it('passes systemd-analyze verify', (t) => {
    const probe = spawnSync('systemd-analyze', ['--version']);
    if (probe.error !== undefined) {
      t.skip('systemd-analyze is not installed');
      return;
    }
    const result = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
  });
});

describe('contrib/dev.skillsd.plist (launchd agent)', () => {
  it('is a well-formed plist whose ProgramArguments the CLI accepts', async () => {
    const plist = parsePlist(await readFile(PLIST, 'utf8')) as Record<string, PlistValue>;
    assert.equal(plist.Label, 'dev.skillsd');
    assert.deepEqual(plist.ProgramArguments, [
      '/usr/local/bin/skillsd',
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '7420',
    ]);
    assert.deepEqual(parseArgs((plist.ProgramArguments as string[]).slice(1), {}), {
      kind: 'serve',
      options: { host: '127.0.0.1', port: 7420 },
    });
    assert.equal(plist.RunAtLoad, true);
    // Restarted after a crash, not after `skillsd stop` (a clean exit 0).
    assert.deepEqual(plist.KeepAlive, { SuccessfulExit: false });
  });
});
