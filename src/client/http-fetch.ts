// The client's default transport: one request over `node:http` (or `node:https`), answered in the shape the client
// reads from `fetch`. Node's global `fetch` is undici, which is compiled on its first use: that alone costs a
// short-lived command (`skillsd status`) more than everything else it does (docs/performance.md "Client commands").

import type { IncomingMessage } from 'node:http';

// Taken from the runtime rather than imported: an ES module import of `node:http` builds its module namespace by
// reading every export, and on Node 22 and later `http.WebSocket` is a getter that loads undici with TLS, HTTP/2 and
// zlib behind it, about as long again as the rest of a command (docs/performance.md "Client commands").
const { request: httpRequest } = process.getBuiltinModule('node:http');

/** What the client sends: a subset of `RequestInit` that `fetch` also accepts. */
export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** What the client reads of an answer: a subset of `Response`, so that `fetch` answers it too. */
export interface FetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  /** The body as a stream of chunks (an event stream is read as it arrives); null when there is none. */
  readonly body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** `fetch` or anything answering like it (the command line's in-process fallback answers without a socket). */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** One request; rejects when no answer starts (refused, reset, aborted through `init.signal`). */
export const httpFetch: FetchLike = async (url, init) => {
  const target = new URL(url);
  // Plain HTTP is loaded with this module, as every client command needs it; TLS only on first use, as a loopback
  // daemon speaks plain HTTP.
  const { request } = target.protocol === 'https:' ? process.getBuiltinModule('node:https') : { request: httpRequest };
  const message = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = request(target, {
      method: init.method ?? 'GET',
      headers: init.headers ?? {},
      ...(init.signal === undefined ? {} : { signal: init.signal }),
    });
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
    outgoing.end(init.body);
  });
  return new HttpResponse(message);
};

class HttpResponse implements FetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: IncomingMessage;

  constructor(message: IncomingMessage) {
    this.status = message.statusCode ?? 0;
    this.body = message;
    this.headers = {
      get(name: string): string | null {
        const value = message.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    // As `Response.text()`: UTF-8, a leading byte order mark dropped, bad sequences replaced.
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /**
   * The whole body. Read through the stream's events rather than its async iterator, whose machinery a short-lived
   * command would otherwise load and compile for one small answer (docs/performance.md "Client commands").
   */
  private bytes(): Promise<Buffer> {
    const message = this.body;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      message.on('data', (chunk: Buffer) => chunks.push(chunk));
      message.once('end', () => resolve(Buffer.concat(chunks)));
      message.once('error', reject);
      // A connection that closes before the body is complete ends the answer without `end`.
      message.once('close', () => {
        if (!message.complete) reject(new Error('the connection closed before the answer was complete'));
      });
    });
  }
}
