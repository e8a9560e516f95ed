// What an operator sees while the daemon starts (docs/api.md §Logs): progress lines while a long first scan runs,
// then one summary line once the default workspace is indexed. Both at `info`, with fixed fields for log tools and a
// sentence for people.

import type { Logger } from 'pino';

/** How often a first scan still running says how far it got: at most one line a second. */
export const PROGRESS_INTERVAL_MS = 1000;

export interface FirstIndexSummary {
  cwd: string;
  skills: number;
  warnings: number;
  diagnostics: number;
  /** From the start of the first scan to the first index being served (watchers armed included). */
  indexMs: number;
  watchMode: 'events' | 'polling' | 'off';
}

export function logFirstIndexSummary(logger: Logger, summary: FirstIndexSummary): void {
  const { skills, warnings, diagnostics, indexMs, watchMode } = summary;
  logger.info(
    summary,
    `indexed ${skills} ${plural(skills, 'skill')} (${warnings} ${plural(warnings, 'warning')}, ` +
      `${diagnostics} ${plural(diagnostics, 'diagnostic')}) in ${indexMs} ms; watch mode ${watchMode}`,
  );
}

export interface ScanProgressOptions {
  logger: Logger;
  cwd: string;
  /** SKILL.md files looked at so far. */
  filesRead: () => number;
  intervalMs?: number;
}

/**
 * Logs how many SKILL.md files the scan has looked at, every `intervalMs` until the returned function is called. A
 * scan that ends within the first interval logs nothing. The timer is unref'd: it never keeps the process alive.
 */
export function reportScanProgress(options: ScanProgressOptions): () => void {
  const { logger, cwd, filesRead } = options;
  const started = performance.now();
  const timer = setInterval(() => {
    const skillFiles = filesRead();
    const elapsedMs = Math.round(performance.now() - started);
    logger.info(
      { cwd, skillFiles, elapsedMs },
      `indexing ${cwd}: ${skillFiles} SKILL.md ${plural(skillFiles, 'file')} read so far`,
    );
  }, options.intervalMs ?? PROGRESS_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
