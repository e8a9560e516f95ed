// The bounded event history of one workspace, behind `GET /events` (API.md §GET /events).
// Ids come from one counter shared by every workspace, so an id names one moment of the whole daemon; the counter
// starts at the clock (milliseconds) so that ids keep growing across a restart and a client resuming with an id
// from a previous run is told to `reset` instead of being handed a partial replay.

export type IndexEventType = 'index' | 'collision' | 'warning' | 'diagnostic' | 'settings' | 'settings-error';

export interface IndexEvent {
  readonly id: number;
  readonly type: IndexEventType;
  readonly data: unknown;
  /** `data` as one line of JSON, serialised once for every subscriber. */
  readonly json: string;
}

/** The daemon-wide id counter: `next()` allocates, `current()` is the last id allocated. */
export interface EventIdSource {
  next(): number;
  current(): number;
}

export function createEventIdSource(start: number = Date.now()): EventIdSource {
  let value = start;
  return {
    next: () => ++value,
    current: () => value,
  };
}

export type ReplayResult = { kind: 'replay'; events: IndexEvent[] } | { kind: 'reset' };

export type EventListener = (event: IndexEvent) => void;

/** API.md asks for at least the last 1000 events. */
export const DEFAULT_EVENT_LOG_CAPACITY = 1000;

export interface EventLogOptions {
  ids: EventIdSource;
  capacity?: number;
}

export class EventLog {
  readonly capacity: number;
  private readonly ids: EventIdSource;
  private readonly events: IndexEvent[] = [];
  private readonly listeners = new Set<EventListener>();
  /** Every event with an id above `floor` is still held (or was never this log's). */
  private floor: number;

  constructor(options: EventLogOptions) {
    this.ids = options.ids;
    this.capacity = Math.max(1, options.capacity ?? DEFAULT_EVENT_LOG_CAPACITY);
    // Events from before this log existed are unknown to it: resuming from an earlier id must reset.
    this.floor = this.ids.current();
  }

  /** Records an event and hands it to every subscriber, synchronously and in order. */
  append(type: IndexEventType, data: unknown): IndexEvent {
    const event: IndexEvent = { id: this.ids.next(), type, data, json: JSON.stringify(data) };
    this.events.push(event);
    if (this.events.length > this.capacity) {
      const dropped = this.events.shift();
      if (dropped !== undefined) this.floor = dropped.id;
    }
    for (const listener of [...this.listeners]) listener(event);
    return event;
  }

  /**
   * The events after `lastId`, or `reset` when some of them are gone (evicted, or from before this log existed)
   * or when `lastId` lies in the future (a client of another daemon run).
   */
  since(lastId: number): ReplayResult {
    if (!Number.isSafeInteger(lastId) || lastId < this.floor || lastId > this.ids.current()) {
      return { kind: 'reset' };
    }
    return { kind: 'replay', events: this.events.filter((event) => event.id > lastId) };
  }

  /** Adds a listener; the returned function removes it. */
  subscribe(listener: EventListener): () => void {
    const wrapped: EventListener = (event) => listener(event);
    this.listeners.add(wrapped);
    return () => {
      this.listeners.delete(wrapped);
    };
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  get size(): number {
    return this.events.length;
  }

  /** The id of the newest event held, or undefined when empty. */
  get latestId(): number | undefined {
    return this.events.at(-1)?.id;
  }

  /** The current position of the daemon-wide counter (no event is allocated). */
  currentId(): number {
    return this.ids.current();
  }

  /** Allocates an id for a per-connection event (`reset`) that is not part of any history. */
  allocateId(): number {
    return this.ids.next();
  }
}
