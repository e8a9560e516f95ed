// The daemon's log destination: lines are encoded into a chunk buffer as pino hands them over and the chunk goes to
// the file descriptor when it is full (64 KiB) or 25 ms after its first line, one asynchronous write at a time.
//
// Why not pino's own asynchronous destination (sonic-boom): at `info` the daemon writes one line per request
// (docs/api.md §Starting it), and on `GET /skills` polls that line cost more than the rest of the answer. sonic-boom joins
// pending lines into one growing string, measures its UTF-8 length again on every line and writes whenever no write
// is in flight, so under load every few lines pay a write through the thread pool and every line pays a pass over
// the pending text; lines kept as strings also survive young-generation collections until written. Encoding each
// line at once into a preallocated buffer and writing chunks on a timer costs one copy per line and a few writes a
// second (docs/performance.md, HTTP).
//
// What waits for the descriptor is bounded (`maxQueuedBytes`, 32 MiB): a stdout nobody reads (a paused pager, a stuck
// log collector) must not let a flood of requests grow the daemon's memory without end. Chunks past the bound are
// dropped whole and counted; once the queue has drained, one warning line says how many lines were lost.
//
// Lines stay in order. `flushSync` writes what is pending before the process exits (SIGTERM, a failed start): the
// CLI calls it from the process's `exit` event. A chunk already handed to the thread pool is not written again.

import { write, writeSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LogDestinationOptions {
  /** Bytes per chunk (default 64 KiB). */
  chunkBytes?: number;
  /** How long the first line of a chunk waits for more (default 25 ms). */
  delayMs?: number;
  /** Bytes allowed to wait for the descriptor before new chunks are dropped (default 32 MiB). */
  maxQueuedBytes?: number;
}

const DEFAULT_CHUNK_BYTES = 64 * 1024;
const DEFAULT_DELAY_MS = 25;
const DEFAULT_MAX_QUEUED_BYTES = 32 * 1024 * 1024;
/** A non-blocking pipe that is full answers EAGAIN: its reader needs a moment. */
const BUSY_RETRY_MS = 10;
/** How long `flushSync` keeps retrying a full pipe before it gives the remaining lines up. */
const SYNC_BUSY_LIMIT_MS = 1000;

export class BatchedLogDestination {
  private readonly chunkBytes: number;
  private readonly delayMs: number;
  private readonly maxQueuedBytes: number;
  private chunk: Buffer;
  private used = 0;
  /** Lines in `chunk`. */
  private lines = 0;
  /** Bytes in `queue`. */
  private queuedBytes = 0;
  /** Lines dropped since the last notice of it. */
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Full chunks waiting for the write in flight, oldest first. */
  private readonly queue: Buffer[] = [];
  /** True from the first write of the queue until it is empty (retries after EAGAIN included). */
  private writing = false;
  /** True while `queue[0]` is in the thread pool's hands. */
  private inFlight = false;

  constructor(
    private readonly fd: number,
    options: LogDestinationOptions = {},
  ) {
    this.chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    this.delayMs = options.delayMs ?? DEFAULT_DELAY_MS;
    this.maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.chunk = Buffer.allocUnsafe(this.chunkBytes);
  }

  /** pino's destination interface: one formatted line, newline included. */
  write(line: string): boolean {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8: the bound that guarantees the line fits.
    const maxBytes = line.length * 3;
    if (maxBytes > this.chunkBytes - this.used) {
      this.seal();
      if (maxBytes > this.chunkBytes) {
        this.enqueue(Buffer.from(line, 'utf8'), 1);
        return true;
      }
    }
    this.used += this.chunk.write(line, this.used, 'utf8');
    this.lines++;
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.seal(), this.delayMs);
      this.timer.unref();
    }
    return true;
  }

  /** Starts writing everything pending; `callback` runs once it is written. */
  flush(callback?: (error?: Error) => void): void {
    this.seal();
    if (callback === undefined) return;
    const check = () => {
      if (!this.writing && this.queue.length === 0) callback();
      else setTimeout(check, 1);
    };
    check();
  }

  /** Writes every pending line now, blocking (the process is about to exit). */
  flushSync(): void {
    // Sealed without starting an asynchronous write: everything not already in the thread pool's hands is written here.
    this.seal(false);
    const pending = this.inFlight ? this.queue.splice(1) : this.queue.splice(0);
    if (this.dropped > 0) pending.push(this.droppedNotice());
    this.queuedBytes = this.queue[0]?.length ?? 0;
    const deadline = Date.now() + SYNC_BUSY_LIMIT_MS;
    for (const buffer of pending) {
      let offset = 0;
      while (offset < buffer.length) {
        try {
          offset += writeSync(this.fd, buffer, offset, buffer.length - offset);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > deadline) return;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        }
      }
    }
  }

  /** Moves the current chunk (if it holds anything) to the write queue, and starts writing unless told not to. */
  private seal(startWriting = true): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.used === 0) return;
    const full = this.chunk.subarray(0, this.used);
    const lines = this.lines;
    this.chunk = Buffer.allocUnsafe(this.chunkBytes);
    this.used = 0;
    this.lines = 0;
    if (startWriting) this.enqueue(full, lines);
    else this.push(full, lines);
  }

  private enqueue(buffer: Buffer, lines: number): void {
    this.push(buffer, lines);
    if (!this.writing) this.writeNext();
  }

  private push(buffer: Buffer, lines: number): void {
    if (this.queuedBytes + buffer.length > this.maxQueuedBytes) {
      this.dropped += lines;
      return;
    }
    this.queue.push(buffer);
    this.queuedBytes += buffer.length;
  }

  /** The line that says how many lines were lost since the last such line, in the shape of pino's lines. */
  private droppedNotice(): Buffer {
    const line =
      `{"level":40,"time":${Date.now()},"pid":${process.pid},"hostname":${JSON.stringify(hostname())},` +
      `"droppedLines":${this.dropped},"msg":"log lines dropped: stdout was not read fast enough"}\n`;
    this.dropped = 0;
    return Buffer.from(line, 'utf8');
  }

  /** Writes `queue[0]`; it leaves the queue once it is written whole (a pipe may take part of it). */
  private writeNext(): void {
    // The queue has drained: the notice goes out before anything newer.
    if (this.queue.length === 0 && this.dropped > 0) {
      const notice = this.droppedNotice();
      this.queue.push(notice);
      this.queuedBytes += notice.length;
    }
    const buffer = this.queue[0];
    if (buffer === undefined) {
      this.writing = false;
      return;
    }
    this.writing = true;
    this.inFlight = true;
    write(this.fd, buffer, 0, buffer.length, null, (error, written) => {
      this.inFlight = false;
      if (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          setTimeout(() => this.writeNext(), BUSY_RETRY_MS).unref();
          return;
        }
        // A closed or broken stdout (EPIPE, EBADF): the lines cannot go anywhere, and the daemon must not stop.
        this.shift();
      } else if (written < buffer.length) {
        this.queue[0] = buffer.subarray(written);
        this.queuedBytes -= written;
      } else {
        this.shift();
      }
      this.writeNext();
    });
  }

  private shift(): void {
    this.queuedBytes -= this.queue.shift()?.length ?? 0;
  }
}
