// A small Server-Sent Events client (Node 20 has no EventSource). It uses node:http with one socket per stream,
// closed with the stream: fetch's connection pool may open a spare connection that outlives the test.

import { type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import { WAIT_MS } from './deadlines.js';

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  retry: number | undefined;
}

export class SseClient {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Every event received so far, in order. */
  readonly events: SseEvent[] = [];
  /** Comment lines (`: ping`) received so far, without the colon. */
  readonly comments: string[] = [];
  private readonly response: IncomingMessage;
  private buffer = '';
  private cursor = 0;
  private waiters: Array<() => void> = [];
  private ended = false;
  private readonly done: Promise<void>;

  private constructor(response: IncomingMessage) {
    this.status = response.statusCode ?? 0;
    this.headers = response.headers;
    this.response = response;
    this.done = this.read(response);
  }

  /** Connects; resolves once the response head arrived (the status may be an error). */
  static connect(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (response) =>
        resolve(new SseClient(response)),
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** The next event after the last one returned by `next` that satisfies `predicate`, within `timeoutMs`. */
  async next(predicate: (event: SseEvent) => boolean = () => true, timeoutMs = WAIT_MS): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.events.length) {
        const event = this.events[this.cursor++]!;
        if (predicate(event)) return event;
      }
      if (this.ended) throw new Error(`stream ended; events so far: ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no matching event within ${timeoutMs} ms; events: ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until a comment line arrives. */
  async nextComment(timeoutMs = WAIT_MS): Promise<string> {
    const seen = this.comments.length;
    const deadline = Date.now() + timeoutMs;
    while (this.comments.length === seen) {
      if (this.ended) throw new Error('stream ended');
      if (Date.now() > deadline) throw new Error('no comment line in time');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.comments[seen]!;
  }

  /** Resolves when the server ends the stream. */
  async closedByServer(timeoutMs = WAIT_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('stream still open')), timeoutMs);
    });
    await Promise.race([this.done, timeout]).finally(() => clearTimeout(timer));
  }

  close(): void {
    this.response.destroy();
    this.response.socket?.destroy();
  }

  private async read(response: IncomingMessage): Promise<void> {
    response.setEncoding('utf8');
    try {
      for await (const chunk of response as AsyncIterable<string>) {
        this.buffer += chunk;
        this.parse();
      }
    } catch {
      // Destroyed by close(), or the server went away.
    } finally {
      this.ended = true;
      this.wake();
    }
  }

  private parse(): void {
    this.buffer = this.buffer.replace(/\r\n?/g, '\n');
    for (let end = this.buffer.indexOf('\n\n'); end !== -1; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event: SseEvent = { id: undefined, event: 'message', data: '', retry: undefined };
      const data: string[] = [];
      let hasField = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        hasField = true;
        if (field === 'id') event.id = value;
        else if (field === 'event') event.event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'retry') event.retry = Number(value);
      }
      if (!hasField) continue;
      event.data = data.join('\n');
      this.events.push(event);
    }
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
