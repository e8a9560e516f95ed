// A small Server-Sent Events client over fetch's body stream (Node 20 has no EventSource).

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  retry: number | undefined;
}

export class SseClient {
  readonly status: number;
  readonly headers: Headers;
  /** Every event received so far, in order. */
  readonly events: SseEvent[] = [];
  /** Comment lines (`: ping`) received so far, without the colon. */
  readonly comments: string[] = [];
  private readonly controller: AbortController;
  private buffer = '';
  private cursor = 0;
  private waiters: Array<() => void> = [];
  private ended = false;
  private readonly done: Promise<void>;

  private constructor(response: Response, controller: AbortController) {
    this.status = response.status;
    this.headers = response.headers;
    this.controller = controller;
    this.done = this.read(response);
  }

  /** Connects; resolves once the response head arrived (the status may be an error). */
  static async connect(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const controller = new AbortController();
    const response = await fetch(url, {
      headers: { accept: 'text/event-stream', ...headers },
      signal: controller.signal,
    });
    return new SseClient(response, controller);
  }

  /** The next event after the last one returned by `next` that satisfies `predicate`, within `timeoutMs`. */
  async next(predicate: (event: SseEvent) => boolean = () => true, timeoutMs = 5000): Promise<SseEvent> {
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
  async nextComment(timeoutMs = 5000): Promise<string> {
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
  async closedByServer(timeoutMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('stream still open')), timeoutMs);
    });
    await Promise.race([this.done, timeout]).finally(() => clearTimeout(timer));
  }

  close(): void {
    this.controller.abort();
  }

  private async read(response: Response): Promise<void> {
    const decoder = new TextDecoder();
    try {
      if (response.body === null) return;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        this.parse();
      }
    } catch {
      // Aborted by close(), or the server went away.
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
