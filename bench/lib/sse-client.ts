// A minimal Server-Sent Events client over fetch (Node 20 has no EventSource). Each event is stamped with
// performance.now() when its bytes arrive, so a waiter that resumes later still sees the arrival time.

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  /** performance.now() when the chunk that completed this event was read. */
  at: number;
}

interface Waiter {
  match: (event: SseEvent) => boolean;
  resolve: (event: SseEvent) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class SseClient {
  private readonly queue: SseEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private closed: Error | undefined;

  private constructor(private readonly abort: AbortController) {}

  /** Opens the stream; resolves once the response headers are in. */
  static async connect(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const abort = new AbortController();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
    if (response.status !== 200 || response.body === null) {
      abort.abort();
      throw new Error(`GET ${url}: ${response.status}`);
    }
    const client = new SseClient(abort);
    void client.read(response.body);
    return client;
  }

  /** The first queued or future event that `match`es (earlier non-matching events are dropped). */
  next(match: (event: SseEvent) => boolean, timeoutMs: number): Promise<SseEvent> {
    while (this.queue.length > 0) {
      const event = this.queue.shift()!;
      if (match(event)) return Promise.resolve(event);
    }
    if (this.closed !== undefined) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new Error(`no matching event within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  close(): void {
    this.abort.abort();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        const at = performance.now();
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.search(/\r?\n\r?\n/);
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + (buffer[end] === '\r' ? 4 : 2));
          const event = parseBlock(block, at);
          if (event !== undefined) this.deliver(event);
          end = buffer.search(/\r?\n\r?\n/);
        }
      }
      this.fail(new Error('stream ended'));
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private deliver(event: SseEvent): void {
    for (const waiter of this.waiters) {
      if (waiter.match(event)) {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        waiter.resolve(event);
        return;
      }
    }
    this.queue.push(event);
  }

  private fail(error: Error): void {
    this.closed = error;
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiters.clear();
  }
}

/** One event block: `event:`, `data:` (joined by `\n`), `id:`; comments and `retry:` ignored. */
function parseBlock(block: string, at: number): SseEvent | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  if (data.length === 0) return undefined;
  return { id, event, data: data.join('\n'), at };
}
