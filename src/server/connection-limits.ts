// How long a connection may take and how many may be open (SECURITY.md §4, exhaustion). Without
// bounds, ~1,100 idle sockets or stalled request bodies used every descriptor the daemon had, and the first thing that
// then needed one failed: the daemon exited. Each open connection holds a descriptor, so the cap on connections comes
// from the descriptor limit, with room kept for the files, watchers and logs the daemon itself needs.

import { readFileSync } from 'node:fs';

export interface ConnectionLimits {
  /** A request's head (request line and headers) must arrive within this; a socket that sends nothing is closed. */
  headersTimeoutMs: number;
  /** A whole request, body included, must arrive within this (a trickling body is cut). */
  requestTimeoutMs: number;
  /** A socket with no traffic either way for this long is closed (`/events` streams are exempt). */
  idleTimeoutMs: number;
  /** A keep-alive connection waits this long for its next request. */
  keepAliveTimeoutMs: number;
  /** How often Node checks the head and request deadlines. */
  checkIntervalMs: number;
  /** Connections open at once; more are closed as soon as they are accepted. */
  maxConnections: number;
}

/** Descriptors kept for everything but connections: at least this many, and at least a quarter of the limit. */
const RESERVED_DESCRIPTORS = 64;
/** The limit assumed where it cannot be read (Linux's usual soft limit). */
const ASSUMED_DESCRIPTOR_LIMIT = 1024;
const MIN_CONNECTIONS = 16;
const OPEN_FILES = /^Max open files\s+(\d+|unlimited)\s/m;

/**
 * `maxConnections = max(16, floor(limit × 3/4) − 64)`: 256 descriptors give 128 connections, 1,024 give 704,
 * 65,536 give 49,088. The rest is for skill files being read, the watchers, the config watch and stdout.
 */
export function connectionCap(descriptorLimit: number): number {
  return Math.max(MIN_CONNECTIONS, Math.floor((descriptorLimit * 3) / 4) - RESERVED_DESCRIPTORS);
}

/** The process's soft limit on open descriptors (Node raises it to the hard limit at start), when it can be read. */
export function descriptorLimit(limitsFile = '/proc/self/limits'): number | undefined {
  try {
    const value = OPEN_FILES.exec(readFileSync(limitsFile, 'utf8'))?.[1];
    if (value === undefined) return undefined;
    return value === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(value);
  } catch {
    return undefined;
  }
}

export function defaultConnectionLimits(): ConnectionLimits {
  return {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    idleTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5000,
    checkIntervalMs: 1000,
    maxConnections: connectionCap(descriptorLimit() ?? ASSUMED_DESCRIPTOR_LIMIT),
  };
}
