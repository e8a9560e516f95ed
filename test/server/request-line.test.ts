import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { completedLineWriter } from '../../src/server/request-line.js';

/** A pino logger writing into an array of lines. */
function capture(options: pino.LoggerOptions = {}): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ level: 'info', ...options }, sink), lines };
}

/** The line Fastify's request logger (a child with `reqId`) writes through the log controller (request-log.ts). */
function fastifyLine(log: pino.Logger, reqId: string, statusCode: number, responseTimeMs: number): void {
  log.child({ reqId }).info({ method: 'GET', path: '/skills', statusCode, responseTimeMs }, 'request completed');
}

const CASES: Array<[string, number, number]> = [
  ['req-1', 304, 0],
  ['req-z', 200, 0.1],
  ['req-10', 503, 12.3],
  ['req-zzzzz', 304, 1500],
];

describe('completedLineWriter', () => {
  it("writes Fastify's request line byte for byte, without going through log.info", () => {
    // The app's logger as Fastify makes it: a child of the given one with the request serialisers.
    for (const base of [
      capture(),
      capture({ timestamp: pino.stdTimeFunctions.isoTime }),
      capture({ base: { pid: 1, hostname: 'box', service: 'skillsd' } }),
    ]) {
      const log = base.log.child({}, { serializers: { req: () => 'hidden' } });
      for (const [reqId, status, ms] of CASES) fastifyLine(log, reqId, status, ms);
      const expected = base.lines.splice(0);
      log.info = () => {
        throw new Error('log.info was called');
      };
      const write = completedLineWriter(log, 'GET', '/skills');
      for (const [reqId, status, ms] of CASES) write(reqId, status, ms);
      assert.deepEqual(base.lines.map(withoutTime), expected.map(withoutTime));
      assert.equal(base.lines.length, CASES.length);
    }
  });

  it('uses the same time function as the logger', () => {
    const { log, lines } = capture({ timestamp: () => ',"time":"fixed"' });
    completedLineWriter(log, 'GET', '/skills')('req-2', 304, 0.4);
    fastifyLine(log, 'req-2', 304, 0.4);
    assert.equal(lines[0], lines[1]);
    assert.match(lines[0] ?? '', /^\{"level":30,"time":"fixed","pid":\d+,"hostname":"[^"]+","reqId":"req-2",/);
  });

  it('leaves loggers that change lines on the way out to pino: the line is still what pino writes', () => {
    const loggers = [
      capture({ mixin: () => ({ extra: 1 }) }),
      capture({ formatters: { log: (object) => ({ ...object, statusCode: 'x' }) } }),
      capture({ msgPrefix: '[http] ' }),
      capture({ hooks: { streamWrite: (line) => line.replace('request', 'REQUEST') } }),
      capture({ nestedKey: 'payload' }),
      capture({ formatters: { level: (label) => ({ severity: label }) } }),
      capture({ messageKey: 'message' }),
    ];
    for (const { log, lines } of loggers) {
      for (const [reqId, status, ms] of CASES) fastifyLine(log, reqId, status, ms);
      const expected = lines.splice(0);
      const write = completedLineWriter(log, 'GET', '/skills');
      for (const [reqId, status, ms] of CASES) write(reqId, status, ms);
      assert.deepEqual(lines.map(withoutTime), expected.map(withoutTime));
    }
  });
});

function withoutTime(line: string): string {
  return line.replace(/"time":(\d+|"[^"]*"),/, '"time":0,');
}
