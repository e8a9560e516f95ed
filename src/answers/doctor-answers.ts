// `GET /doctor` and `GET /doctor/{name}` (docs/api.md §GET /doctor): why the index is what it is, from the workspace's
// snapshot (what loaded, who lost to whom) and a look at its directories.

import { doctorAgents } from '../discovery/agents/answers.js';
import type { AgentMatrix } from '../discovery/agents/compute-views.js';
import { diagnoseName, diagnoseWorkspace } from '../discovery/doctor/diagnose-workspace.js';
import { orderFindings, summarise } from '../discovery/doctor/finding-order.js';
import type { Finding, Severity, WorkspaceDiagnosis } from '../discovery/doctor/types.js';
import type { WorkspaceView } from './workspace-view.js';

/** The look at the workspace's directories behind both reports: the costly part, which a caller may share. */
export function computeDiagnosis({ workspace, snapshot }: WorkspaceView): Promise<WorkspaceDiagnosis> {
  return diagnoseWorkspace({
    // The snapshot's settings: the findings explain the answer they sit next to.
    ctx: { ...workspace.discoveryContext(), settings: snapshot.settings },
    skills: snapshot.skills,
    collisions: snapshot.collisions,
    ...(workspace.fileCache === undefined ? {} : { cache: workspace.fileCache }),
  });
}

/**
 * The workspace report, in the order of the answer's schema: the findings of `severity` or worse (all when
 * undefined), errors first, and their count per rule (docs/api.md §GET /doctor).
 */
export function doctorReport(
  { workspace, snapshot }: WorkspaceView,
  diagnosis: WorkspaceDiagnosis,
  severity?: Severity,
) {
  const findings = orderFindings(diagnosis.findings, severity);
  return {
    generation: snapshot.generation,
    cwd: snapshot.cwd,
    profile: snapshot.profile,
    directories: diagnosis.directories,
    summary: summarise(findings),
    findings: findings.map(inOrder),
    warnings: [...snapshot.warnings],
    collisions: [...snapshot.collisions],
    watch: { mode: (workspace.watcherStatus()?.mode ?? 'off') as 'events' | 'polling' | 'off' },
  };
}

/**
 * Every candidate of one name, which won and why each other lost, and what every agent does with the name; the
 * findings of each list filtered and ordered as in the workspace report.
 */
export function nameReport(
  { snapshot }: WorkspaceView,
  name: string,
  diagnosis: WorkspaceDiagnosis,
  agents: AgentMatrix,
  severity?: Severity,
) {
  const report = diagnoseName(name, diagnosis, snapshot.skill(name));
  const listed = (findings: readonly Finding[]) => orderFindings(findings, severity).map(inOrder);
  return {
    ...report,
    candidates: report.candidates.map((candidate) => ({ ...candidate, findings: listed(candidate.findings) })),
    findings: listed(report.findings),
    agents: doctorAgents(agents, name) ?? {},
  };
}

/**
 * A finding with its fields in the order the daemon writes them (the required ones, then `line` and `hint`): the rules
 * build them in their own order, and an answer must read the same whoever serialises it (docs/api.md §GET /doctor).
 */
function inOrder(finding: Finding): Finding {
  const { rule, severity, path, line, message, hint } = finding;
  return {
    rule,
    severity,
    path,
    message,
    ...(line === undefined ? {} : { line }),
    ...(hint === undefined ? {} : { hint }),
  };
}
