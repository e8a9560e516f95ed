import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger, redactUrl } from '../../src/cli/logger.js';

describe('redactUrl', () => {
  const cases: Array<[string, string]> = [
    ['/events?token=abc', '/events?token=[redacted]'],
    ['/events?types=index&token=abc&cwd=/x', '/events?types=index&token=[redacted]&cwd=/x'],
    ['/events?TOKEN=abc#frag', '/events?TOKEN=[redacted]#frag'],
    ['/skills?q=token=abc', '/skills?q=token=abc'],
    ['/skills', '/skills'],
  ];
  for (const [input, expected] of cases) {
    it(`${input} → ${expected}`, () => assert.equal(redactUrl(input), expected));
  }
});

describe('createLogger', () => {
  it('writes JSON lines at the given level, with request URLs redacted', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('warn', sink);
    logger.info('not written');
    logger.warn({ req: { method: 'GET', url: '/events?token=s3cret', host: 'localhost', ip: '127.0.0.1' } }, 'seen');
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    assert.equal(line.level, 40);
    assert.equal(line.msg, 'seen');
    assert.deepEqual(line.req, {
      method: 'GET',
      url: '/events?token=[redacted]',
      host: 'localhost',
      remoteAddress: '127.0.0.1',
    });
  });
});
