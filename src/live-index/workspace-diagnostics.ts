// The live doctor of one workspace's index (docs/api.md §GET /doctor, SSE `diagnostic`): how the index's tracker
// (diagnostic-tracker.ts) looks at a snapshot and where a finding that appears or goes is told, as a log line and an
// event. Apart from the index (workspace-index.ts), which only schedules a look after every build.

import type { SkillFileCache } from '../discovery/scan/skill-file-cache.js';
import type { DiscoveryContext } from '../discovery/types.js';
import { DiagnosticTracker } from './diagnostic-tracker.js';
import type { EventLog } from './event-log.js';
import type { IndexLogger } from './workspace-index-options.js';

export interface WorkspaceDiagnosticsOptions {
  cwd: string;
  /** Live findings up to this many loaded skills (the tracker's default when absent). */
  maxSkills: number | undefined;
  cache: SkillFileCache | undefined;
  logger: IndexLogger;
  events: EventLog;
  /** What a discovery of the workspace depends on now. */
  discoveryContext: () => DiscoveryContext;
  /** The index is closed: a look that finishes after it reports nothing. */
  closed: () => boolean;
}

export function trackWorkspaceDiagnostics(options: WorkspaceDiagnosticsOptions): DiagnosticTracker {
  const { cwd, maxSkills, cache, logger, events } = options;
  return new DiagnosticTracker({
    ...(maxSkills === undefined ? {} : { maxSkills }),
    look: async (snapshot) =>
      (
        await (
          await import('../discovery/doctor/diagnose-workspace.js')
        ).diagnoseWorkspace({
          ctx: { ...options.discoveryContext(), settings: snapshot.settings },
          skills: snapshot.skills,
          collisions: snapshot.collisions,
          ...(cache === undefined ? {} : { cache }),
        })
      ).findings,
    report: (state, finding) => {
      if (options.closed()) return;
      const where = `${finding.path}${finding.line === undefined ? '' : `:${finding.line}`}`;
      if (state === 'new') {
        logger.warn({ cwd, finding }, `skill ${finding.severity} ${finding.rule} at ${where}: ${finding.message}`);
      } else {
        logger.info({ cwd, finding }, `skill ${finding.severity} resolved: ${finding.rule} at ${where}`);
      }
      events.append('diagnostic', { state, finding });
    },
    onError: (error) => logger.error({ err: error, cwd }, 'the doctor could not look at the workspace'),
  });
}
