// `skillsd doctor [NAME]`: why the index is what it is (GET /doctor, GET /doctor/{name}), grouped for people, or the
// API's JSON. Exit 1 when a finding is an error (with `--strict`, a warning too), so it can run in CI over a
// repository of skills.

import type { DoctorReport, NameDiagnosis, SkillDoctorReport } from '../../client/api-types.js';
import type { Finding, Severity } from '../../discovery/doctor/types.js';
import type { Output } from '../output.js';
import { formatJson, inline, paint } from '../output.js';
import { type ClientCommand, EXIT } from './command.js';

export const doctorCommand: ClientCommand = {
  usage: 'doctor [NAME] [--json] [--strict]',
  summary:
    'Every skills directory looked at, what was seen there but not loaded and why, and advice from the Agent Skills ' +
    'specification; with NAME, every candidate of that name and what happened to it.',
  options: { strict: { type: 'boolean' } },
  optionHelp: ['--strict          exit 1 on warnings too (default: on errors only)'],
  positionals: { min: 0, max: 1 },
  inProcess: true,
  async run({ client, output, values, positionals }) {
    const strict = values.strict === true;
    const name = positionals[0];
    if (name !== undefined) {
      const report = await client.doctorSkill(name);
      if (values.json === true) output.out(formatJson(report));
      else output.out(formatSkillReport(report, output) + formatAgentLines(report));
      const findings = [...report.findings, ...report.candidates.flatMap((candidate) => candidate.findings)];
      if (report.candidates.length === 0 && report.findings.length === 0) return EXIT.negative;
      return failing(findings, strict) ? EXIT.negative : EXIT.ok;
    }
    const report = await client.doctor();
    if (values.json === true) output.out(formatJson(report));
    else output.out(formatReport(report, output));
    return failing(report.findings, strict) ? EXIT.negative : EXIT.ok;
  },
};

function failing(findings: readonly Finding[], strict: boolean): boolean {
  return findings.some((finding) => finding.severity === 'error' || (strict && finding.severity === 'warning'));
}

// Every path, name, reason and message below comes from skills on disk: each is printed as one escaped line
// (docs/cli.md "Output").

export function formatReport(report: DoctorReport, output: Output): string {
  const lines = [
    paint(output, 'bold', `Workspace ${inline(report.cwd)}`),
    `  profile ${report.profile}, generation ${report.generation}, watching: ${report.watch.mode}`,
    '',
    paint(output, 'bold', 'Directories'),
  ];
  for (const dir of report.directories) {
    const state = !dir.exists
      ? paint(output, 'dim', 'missing')
      : !dir.readable
        ? paint(output, 'red', 'unreadable')
        : `${dir.skills} skill${dir.skills === 1 ? '' : 's'}`;
    lines.push(
      `  ${dir.exists ? (dir.readable ? '+' : '!') : '-'} ${inline(dir.path)}  [${dir.provider}:${dir.level}] ${state}`,
    );
  }
  lines.push('', paint(output, 'bold', `Findings (${counts(report.findings)})`));
  if (report.findings.length === 0) lines.push('  none');
  lines.push(...formatFindings(report.findings, output, '  '));
  if (report.warnings.length > 0) {
    lines.push('', paint(output, 'bold', 'Reference warnings'));
    for (const warning of report.warnings) {
      lines.push(`  ${warning.skillPath === '' ? '' : `${inline(warning.skillPath)}: `}${inline(warning.message)}`);
    }
  }
  if (report.collisions.length > 0) {
    lines.push('', paint(output, 'bold', 'Collisions'));
    for (const collision of report.collisions) {
      const winner = collision.winner;
      lines.push(`  ${inline(collision.name)}: ${inline(winner.filePath)} (${inline(winner.source.id)}) won over`);
      for (const lost of collision.shadowed) {
        lines.push(`    ${inline(lost.filePath)} (${inline(lost.source.id)}, ${inline(lost.reason)})`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

const AGENT_IDS = [
  'claude-code',
  'codex',
  'opencode',
  'gemini-cli',
  'copilot-cli',
  'vscode',
  'goose',
  'musepi',
  'omp',
  'xcsh',
];

/** One line per agent: what it does with the files of that name (docs/cli.md "Commands"). */
export function formatAgentLines(report: NameDiagnosis): string {
  const lines = ['', 'Agents'];
  for (const id of AGENT_IDS) {
    const cell = report.agents?.[id];
    if (cell === undefined) lines.push(`${id}: —`);
    else if (cell.status === 'loaded')
      lines.push(`${id}: loaded ${cell.filePath}${cell.reason === undefined ? '' : ` (${cell.reason})`}`);
    else if (cell.status === 'shadowed') lines.push(`${id}: ${cell.reason}`);
    else if (cell.status === 'invalid') lines.push(`${id}: invalid ${cell.filePath}: ${cell.reason}`);
    else lines.push(`${id}: unseen: ${cell.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

export function formatSkillReport(report: SkillDoctorReport, output: Output): string {
  const lines: string[] = [];
  if (report.winner !== null) {
    const { filePath, source } = report.winner;
    lines.push(paint(output, 'bold', `${inline(report.name)}: loaded from ${inline(filePath)} (${inline(source.id)})`));
  } else if (report.candidates.length > 0) {
    lines.push(paint(output, 'bold', `${inline(report.name)}: not loaded`));
  } else {
    lines.push(paint(output, 'bold', `${inline(report.name)}: no skill of that name was found`));
  }
  if (report.candidates.length > 0) lines.push('', paint(output, 'bold', 'Candidates, in pipeline order'));
  report.candidates.forEach((candidate, index) => {
    const outcome = candidate.outcome === 'loaded' ? paint(output, 'green', candidate.outcome) : candidate.outcome;
    lines.push(`  ${index + 1}. ${outcome}  ${inline(candidate.source.id)}  ${inline(candidate.filePath)}`);
    lines.push(`     ${inline(candidate.reason)}`);
    // The outcome is also one of the candidate's findings (the workspace report lists it there): said once here.
    const others = candidate.findings.filter((finding) => finding.message !== candidate.reason);
    lines.push(...formatFindings(others, output, '     '));
  });
  if (report.findings.length > 0) {
    lines.push('', paint(output, 'bold', 'Near misses of that name'));
    lines.push(...formatFindings(report.findings, output, '  '));
  }
  return `${lines.join('\n')}\n`;
}

const SEVERITY_STYLE: Record<Severity, 'red' | 'yellow' | 'dim'> = { error: 'red', warning: 'yellow', info: 'dim' };

/** Findings grouped by the file or directory they concern, in the order first seen. */
function formatFindings(findings: readonly Finding[], output: Output, indent: string): string[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const group = groups.get(finding.path) ?? [];
    group.push(finding);
    groups.set(finding.path, group);
  }
  const lines: string[] = [];
  for (const [path, group] of groups) {
    lines.push(`${indent}${inline(path)}`);
    for (const finding of group) {
      const severity = paint(output, SEVERITY_STYLE[finding.severity], finding.severity.padEnd(7));
      const where = finding.line === undefined ? '' : ` (line ${finding.line})`;
      lines.push(`${indent}  ${severity} ${inline(finding.rule)}${where}: ${inline(finding.message)}`);
      if (finding.hint !== undefined) {
        lines.push(`${indent}          ${paint(output, 'dim', `fix: ${inline(finding.hint)}`)}`);
      }
    }
  }
  return lines;
}

function counts(findings: readonly Finding[]): string {
  const of = (severity: Severity) => findings.filter((finding) => finding.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(of('error'), 'error')}, ${plural(of('warning'), 'warning')}, ${of('info')} info`;
}
