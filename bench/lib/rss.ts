// VmRSS of a child process, at a moment and once it stopped moving: V8 gives back the young generation and the old
// space a burst of allocation grew some seconds later, not on a schedule (docs/performance.md "Against the floor",
// RSS per skill). The same reading as bench/floor.bench.ts takes.

import { readFileSync } from 'node:fs';

export interface RssReading {
  /** VmRSS when asked. */
  at: number;
  /** The lowest of the last samples once they stayed within the band (or when the time ran out). */
  settled: number;
}

export interface SettleOptions {
  sampleMs: number;
  /** Consecutive samples that must stay within `bandBytes`. */
  samples: number;
  bandBytes: number;
  maxMs: number;
}

export const SETTLE_AS_FLOOR: SettleOptions = { sampleMs: 500, samples: 40, bandBytes: 1024 * 1024, maxMs: 90_000 };

/** VmRSS of `pid` in bytes (/proc/<pid>/status). */
export function vmRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (match === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

/** VmRSS now, then sampled until `samples` in a row stay within `bandBytes` (at most `maxMs`). */
export async function readRss(pid: number, options: SettleOptions = SETTLE_AS_FLOOR): Promise<RssReading> {
  const at = vmRss(pid);
  const samples = [at];
  const deadline = performance.now() + options.maxMs;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, options.sampleMs));
    samples.push(vmRss(pid));
    const last = samples.slice(-options.samples);
    if (last.length === options.samples && Math.max(...last) - Math.min(...last) <= options.bandBytes) break;
  }
  return { at, settled: Math.min(...samples.slice(-options.samples)) };
}
