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

describe('createLogger, pretty', () => {
  it('writes lines for people, not JSON, with the same fields and request URLs redacted', () => {
    const chunks: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('info', sink, 'pretty');
    logger.debug('not written');
    logger.info({ req: { method: 'GET', url: '/events?token=s3cret', host: 'localhost' }, skills: 3 }, 'seen');
    // Colours follow the terminal: none is asserted on.
    const text = chunks.join('').replace(/\u001b\[[0-9;]*m/g, '');
    const [first = '', ...rest] = text.split('\n').filter((line) => line !== '');
    assert.match(first, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: seen$/);
    assert.throws(() => JSON.parse(first));
    assert.deepEqual(rest, [
      '    req: {',
      '      "method": "GET",',
      '      "url": "/events?token=[redacted]",',
      '      "host": "localhost"',
      '    }',
      '    skills: 3',
    ]);
  });
});
