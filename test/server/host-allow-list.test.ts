import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  hostnameOf,
  hostPolicyFor,
  isAllowedHostname,
  isLoopbackBind,
  normaliseHostEntry,
} from '../../src/server/host-allow-list.js';

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

describe('normaliseHostEntry', () => {
  it('normalises configured entries like Host headers', () => {
    assert.equal(normaliseHostEntry('::1'), '[::1]');
    assert.equal(normaliseHostEntry('Box.Local:7420'), 'box.local');
    assert.equal(normaliseHostEntry(' box.local '), 'box.local');
  });
});

describe('hostPolicyFor and isAllowedHostname', () => {
  it('is the loopback names only on a loopback bind', () => {
    for (const bind of ['127.0.0.1', 'localhost', '::1', '[::1]']) {
      const policy = hostPolicyFor(bind);
      assert.deepEqual([...policy.names].sort(), ['127.0.0.1', '[::1]', 'localhost']);
      assert.equal(policy.anyIpLiteral, false);
    }
  });

  it('adds a specific bind name, and accepts IP literals, on a non-loopback bind', () => {
    assert.deepEqual(hostPolicyFor('devbox.lan'), {
      names: new Set(['localhost', '127.0.0.1', '[::1]', 'devbox.lan']),
      anyIpLiteral: true,
    });
    assert.deepEqual(hostPolicyFor('0.0.0.0'), {
      names: new Set(['localhost', '127.0.0.1', '[::1]']),
      anyIpLiteral: true,
    });
    assert.deepEqual(hostPolicyFor('::'), { names: new Set(['localhost', '127.0.0.1', '[::1]']), anyIpLiteral: true });
  });

  const loopback = hostPolicyFor('127.0.0.1');
  const wildcard = hostPolicyFor('0.0.0.0');
  const cases: Array<[string, ReturnType<typeof hostPolicyFor>, string[], boolean]> = [
    ['localhost', loopback, [], true],
    ['[::1]', loopback, [], true],
    ['192.168.1.10', loopback, [], false],
    ['192.168.1.10', loopback, ['192.168.1.10'], true],
    ['[2001:db8::1]', loopback, ['2001:db8::1'], true],
    ['box.local', loopback, ['Box.Local:7420'], true],
    ['', loopback, [''], false],
    ['192.168.1.10', wildcard, [], true],
    ['[2001:db8::1]', wildcard, [], true],
    ['devbox.lan', wildcard, [], false],
    ['devbox.lan', wildcard, ['devbox.lan'], true],
    ['127.0.0.1.nip.io', wildcard, [], false],
  ];
  for (const [hostname, policy, extra, expected] of cases) {
    const label = `${JSON.stringify(hostname)} on a ${policy.anyIpLiteral ? 'wildcard' : 'loopback'} bind with [${extra}]`;
    it(`${label} → ${expected}`, () => assert.equal(isAllowedHostname(hostname, policy, extra), expected));
  }
});
