// The bounded event history of one workspace, behind `GET /events` (docs/api.md §GET /events).
//
// Event ids are derived from content, not from a clock or a counter, so that every daemon serving the same files (the
// replicas of a team server) names the same moment with the same id and a client whose stream moves to another
// replica resumes there correctly (docs/index-and-events.md §Event ids):
//
// - The last event of a change of the index has the id of the state it leads to: a hash of the index's content hash.
//   Any daemon that went through that state knows the id, whatever route it took there.
// - Every other event (the events of a change before its last, `settings`, `settings-error`) has the id of a chain: a
//   hash of the id before it, its type and its data. Two daemons agree on it only when they logged the very same
//   events from the very same state.
// - The log's starting point is the state of its first snapshot, so a daemon that just started knows the id of the
//   state it serves.
//
// Resuming from an id replays the events after the newest position holding that id; an id the log does not hold is
// answered with `reset`, never with a guess. A state met twice (an edit undone) resumes from its newest occurrence:
// the events from there lead from that very state to the current one, which is all a client at that state needs.
//
// Ids are decimal numbers (docs/api.md: `id:` is a number) below 2^52, so any client parses them exactly; they no longer
// grow, and only equality means anything.

import { createHash } from 'node:crypto';

export type IndexEventType = 'index' | 'collision' | 'warning' | 'diagnostic' | 'settings' | 'settings-error';

export interface IndexEvent {
  readonly id: number;
  readonly type: IndexEventType;
  readonly data: unknown;
  /** `data` as one line of JSON, serialised once for every subscriber. */
  readonly json: string;
}

export type ReplayResult = { kind: 'replay'; events: IndexEvent[] } | { kind: 'reset' };

export type EventListener = (event: IndexEvent) => void;

/** docs/api.md asks for at least the last 1000 events. */
export const DEFAULT_EVENT_LOG_CAPACITY = 1000;

export interface EventLogOptions {
  capacity?: number;
}

/** One event of a change, before it has an id. */
export interface PendingEvent {
  readonly type: IndexEventType;
  readonly data: unknown;
}

/** 13 hex digits: 52 bits, exact in every JSON and JavaScript number. */
const ID_HEX_DIGITS = 13;
/** The position of a log whose workspace has no snapshot yet. */
const NO_STATE = 'none';

/** The id of the index state whose content hash is `contentHash` (snapshot-json.ts). */
export function stateEventId(contentHash: string): number {
  return hashToId(`skillsd-state/1\n${contentHash}`);
}

/** The id of an event of `type` with `json` data logged right after the position `previousId`. */
export function chainedEventId(previousId: number, type: IndexEventType, json: string): number {
  return hashToId(`skillsd-event/1\n${previousId}\n${type}\n${json}`);
}

function hashToId(text: string): number {
  return Number.parseInt(createHash('sha256').update(text).digest('hex').slice(0, ID_HEX_DIGITS), 16);
}

export class EventLog {
  readonly capacity: number;
  private readonly events: IndexEvent[] = [];
  private readonly listeners = new Set<EventListener>();
  /** Listeners that do not hold the workspace open (an MCP session's; docs/mcp.md "Session bounds"). */
  private readonly observers = new Set<EventListener>();
  /** The id of the position before the oldest event held: resuming from it replays everything held. */
  private baseId: number;
  private started = false;

  constructor(options: EventLogOptions = {}) {
    this.capacity = Math.max(1, options.capacity ?? DEFAULT_EVENT_LOG_CAPACITY);
    this.baseId = hashToId(NO_STATE);
  }

  /**
   * Sets the state the history starts from (the first snapshot's content hash). Events logged before it (a settings
   * error while the first index was being built) are dropped from the history: they belong to no state.
   */
  begin(contentHash: string): void {
    if (this.started) return;
    this.started = true;
    this.events.length = 0;
    this.baseId = stateEventId(contentHash);
  }

  /** The id of the current position: the newest event's, or the starting state's. */
  get headId(): number {
    return this.events.at(-1)?.id ?? this.baseId;
  }

  /**
   * Records the events of one change of the index, which leads to the state of `contentHash`: the last of them takes
   * that state's id. Subscribers get each event synchronously and in order.
   */
  appendChange(contentHash: string, pending: readonly PendingEvent[]): IndexEvent[] {
    const out: IndexEvent[] = [];
    pending.forEach((item, i) => {
      const json = JSON.stringify(item.data);
      const id = i === pending.length - 1 ? stateEventId(contentHash) : chainedEventId(this.headId, item.type, json);
      out.push(this.push({ id, type: item.type, data: item.data, json }));
    });
    return out;
  }

  /** Records one event that does not change the index (`settings`, `settings-error`). */
  append(type: IndexEventType, data: unknown): IndexEvent {
    const json = JSON.stringify(data);
    return this.push({ id: chainedEventId(this.headId, type, json), type, data, json });
  }

  /** The events after the newest position with id `lastId`, or `reset` when the log holds no such position. */
  since(lastId: number): ReplayResult {
    if (!Number.isSafeInteger(lastId)) return { kind: 'reset' };
    for (let i = this.events.length - 1; i >= 0; i--) {
      if (this.events[i]!.id === lastId) return { kind: 'replay', events: this.events.slice(i + 1) };
    }
    if (lastId === this.baseId) return { kind: 'replay', events: [...this.events] };
    return { kind: 'reset' };
  }

  /** Adds a listener; the returned function removes it. */
  subscribe(listener: EventListener): () => void {
    const wrapped: EventListener = (event) => listener(event);
    this.listeners.add(wrapped);
    return () => {
      this.listeners.delete(wrapped);
    };
  }

  /**
   * Adds a listener that is not counted in `subscriberCount`, so the workspace stays free to be closed as idle (an
   * MCP session names a workspace without keeping it open); the returned function removes it.
   */
  observe(listener: EventListener): () => void {
    const wrapped: EventListener = (event) => listener(event);
    this.observers.add(wrapped);
    return () => {
      this.observers.delete(wrapped);
    };
  }

  /** Listeners that hold the workspace open (event streams). */
  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Listeners added with `observe`. */
  get observerCount(): number {
    return this.observers.size;
  }

  get size(): number {
    return this.events.length;
  }

  private push(event: IndexEvent): IndexEvent {
    this.events.push(event);
    if (this.events.length > this.capacity) {
      const dropped = this.events.shift();
      if (dropped !== undefined) this.baseId = dropped.id;
    }
    for (const listener of [...this.listeners, ...this.observers]) listener(event);
    return event;
  }
}
