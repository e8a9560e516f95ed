import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bindHostAllowList, hostnameOf, isLoopbackBind, normaliseHostEntry } from '../../src/server/host-allow-list.js';

describe('hostnameOf', () => {
  const cases: Array<[string, string]> = [
    ['localhost', 'localhost'],
    ['LOCALHOST:7420', 'localhost'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['[::1]', '[::1]'],
    ['[::1]:7420', '[::1]'],
    ['::1', '[::1]'],
    ['box.local:', 'box.local'],
    ['', ''],
    [':7420', ''],
    ['[::1', ''],
    ['[::1]x', ''],
    ['[evil.com]:80', ''],
    ['host:port', ''],
    ['host:123456', ''],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => assert.equal(hostnameOf(input), expected));
  }
});

describe('isLoopbackBind', () => {
  const cases: Array<[string, boolean]> = [
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['127.0.0.1.nip.io', false],
    ['example.com', false],
  ];
  for (const [input, expected] of cases) {
    it(`${input} → ${expected}`, () => assert.equal(isLoopbackBind(input), expected));
  }
});

describe('normaliseHostEntry and bindHostAllowList', () => {
  it('normalises configured entries like Host headers', () => {
    assert.equal(normaliseHostEntry('::1'), '[::1]');
    assert.equal(normaliseHostEntry('Box.Local:7420'), 'box.local');
    assert.equal(normaliseHostEntry(' box.local '), 'box.local');
  });

  it('is the loopback names on a loopback bind', () => {
    assert.deepEqual([...bindHostAllowList('127.0.0.1')].sort(), ['127.0.0.1', '[::1]', 'localhost']);
    assert.deepEqual([...bindHostAllowList('localhost')].sort(), ['127.0.0.1', '[::1]', 'localhost']);
    assert.deepEqual([...bindHostAllowList('::1')].sort(), ['127.0.0.1', '[::1]', 'localhost']);
  });

  it('adds a specific bind address', () => {
    assert.deepEqual([...bindHostAllowList('192.168.1.10')].sort(), [
      '127.0.0.1',
      '192.168.1.10',
      '[::1]',
      'localhost',
    ]);
  });

  it('adds the interface addresses on a wildcard bind, and no DNS name', () => {
    const list = bindHostAllowList('0.0.0.0');
    assert.ok(list.has('localhost'));
    assert.ok(list.has('127.0.0.1'));
    assert.ok([...list].every((entry) => entry === 'localhost' || /^[\d.]+$|^\[[\da-f:.]+\]$/.test(entry)));
  });
});
