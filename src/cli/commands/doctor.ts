// `skillsd doctor [NAME]`: why the index is what it is (GET /doctor, GET /doctor/{name}), grouped for people, or the
// API's JSON. The workspace's findings are grouped by rule, errors first (docs/doctor.md "The workspace report");
// `--severity` asks the daemon for that severity or worse. Exit 1 when a finding shown is an error (with `--strict`,
// a warning too), so it can run in CI over a repository of skills.

import { homedir } from 'node:os';
import type { DoctorOptions, DoctorReport, NameDiagnosis, SkillDoctorReport } from '../../client/api-types.js';
import type { Finding, Severity } from '../../discovery/doctor/types.js';
import type { Output, Style } from '../output.js';
import { formatJson, inline, paint } from '../output.js';
import { displayWidth, wrapToWidth } from '../terminal-text.js';
import { type ClientCommand, EXIT } from './command.js';
import { displayPath } from './display-path.js';

export const doctorCommand: ClientCommand = {
  usage: 'doctor [NAME] [--json] [--strict] [--severity error|warning|info]',
  summary:
    'Every skills directory looked at, what was seen there but not loaded and why, and advice from the Agent Skills ' +
    'specification, grouped by rule, errors first; with NAME, every candidate of that name and what happened to it.',
  options: { strict: { type: 'boolean' }, severity: { type: 'string' } },
  optionHelp: [
    '--strict          exit 1 on warnings too (default: on errors only)',
    '--severity S      only findings of severity S or worse: error, warning or info',
  ],
  positionals: { min: 0, max: 1 },
  inProcess: true,
  async run({ client, output, values, positionals }) {
    const strict = values.strict === true;
    const name = positionals[0];
    // Sent as it is: the answer's own 400 names the values allowed, whoever answers (docs/cli.md "Commands": exit 2).
    const options: DoctorOptions = typeof values.severity === 'string' ? { severity: values.severity as Severity } : {};
    if (name !== undefined) {
      const report = await client.doctorSkill(name, options);
      if (values.json === true) output.out(formatJson(report));
      else output.out(formatSkillReport(report, output) + formatAgentLines(report));
      const findings = [...report.findings, ...report.candidates.flatMap((candidate) => candidate.findings)];
      if (report.candidates.length === 0 && report.findings.length === 0) return EXIT.negative;
      return failing(findings, strict) ? EXIT.negative : EXIT.ok;
    }
    const report = await client.doctor(options);
    if (values.json === true) output.out(formatJson(report));
    else output.out(formatReport(report, output, options.severity));
    return failing(report.findings, strict) ? EXIT.negative : EXIT.ok;
  },
};

function failing(findings: readonly Finding[], strict: boolean): boolean {
  return findings.some((finding) => finding.severity === 'error' || (strict && finding.severity === 'warning'));
}

// Every path, name, reason and message below comes from skills on disk: each is printed as one escaped line
// (docs/cli.md "Output").

export function formatReport(report: DoctorReport, output: Output, severity?: Severity): string {
  const fit = fitter(output);
  const lines = [
    ...fit('', `Workspace ${inline(report.cwd)}`, 'bold'),
    `  profile ${report.profile}, generation ${report.generation}, watching: ${report.watch.mode}`,
    '',
    paint(output, 'bold', 'Directories'),
  ];
  for (const dir of report.directories) {
    const [state, style]: [string, Style | undefined] = !dir.exists
      ? ['missing', 'dim']
      : !dir.readable
        ? ['unreadable', 'red']
        : [`${dir.skills} skill${dir.skills === 1 ? '' : 's'}`, undefined];
    const mark = `  ${dir.exists ? (dir.readable ? '+' : '!') : '-'} `;
    const text = `${inline(dir.path)}  [${dir.provider}:${dir.level}] `;
    lines.push(
      ...fit(mark, `${text}${state}`, undefined, `${text}${style === undefined ? state : paint(output, style, state)}`),
    );
  }
  lines.push('', paint(output, 'bold', `Findings (${counts(report.findings, severity)})`));
  if (report.findings.length === 0) lines.push('  none');
  lines.push(...formatGroups(report, output, fit));
  if (report.warnings.length > 0) {
    lines.push('', paint(output, 'bold', 'Reference warnings'));
    for (const warning of report.warnings) {
      lines.push(
        ...fit('  ', `${warning.skillPath === '' ? '' : `${inline(warning.skillPath)}: `}${inline(warning.message)}`),
      );
    }
  }
  if (report.collisions.length > 0) {
    lines.push('', paint(output, 'bold', 'Collisions'));
    for (const collision of report.collisions) {
      const winner = collision.winner;
      lines.push(
        ...fit('  ', `${inline(collision.name)}: ${inline(winner.filePath)} (${inline(winner.source.id)}) won over`),
      );
      for (const lost of collision.shadowed) {
        lines.push(...fit('    ', `${inline(lost.filePath)} (${inline(lost.source.id)}, ${inline(lost.reason)})`));
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

/**
 * The workspace's findings by rule, in the order of the answer's summary (errors, warnings, info, the most frequent
 * first): a header `<severity> <rule> (<count>)`, then each finding's place, what it says and its fix. Paths read as
 * the agent-view commands print them (`~/…`, `./…`).
 */
function formatGroups(report: DoctorReport, output: Output, fit: Fit): string[] {
  const home = homedir();
  const byRule = new Map<string, Finding[]>();
  for (const finding of report.findings) {
    const key = `${finding.severity}\0${finding.rule}`;
    const group = byRule.get(key);
    if (group === undefined) byRule.set(key, [finding]);
    else group.push(finding);
  }
  const lines: string[] = [];
  for (const { rule, severity, count } of report.summary) {
    const header = `${paint(output, SEVERITY_STYLE[severity], severity)} ${inline(rule)} (${count})`;
    lines.push(`  ${paint(output, 'bold', header)}`);
    for (const finding of byRule.get(`${severity}\0${rule}`) ?? []) {
      const line = finding.line === undefined ? '' : `:${finding.line}`;
      const where = `${displayPath(finding.path, report.cwd, home)}${line}`;
      lines.push(...fit('    ', `${inline(where)}: ${inline(finding.message)}`));
      if (finding.hint !== undefined) lines.push(...fit('      ', `fix: ${inline(finding.hint)}`, 'dim'));
    }
  }
  return lines;
}

type Fit = (indent: string, text: string, style?: Style, whole?: string) => string[];

/**
 * Lines of `indent` + `text` (one line, already escaped) that fit the terminal: a line wider than it continues on
 * the next ones, two columns further in, broken after a space or a slash where one falls in reach; each piece is
 * painted in `style`. `whole`, the text with colours of its own, is printed instead when no break is needed. A pipe
 * gets each line whole.
 */
function fitter(output: Output): Fit {
  const { columns } = output;
  return (indent, text, style, whole) => {
    const painted = (line: string) => (style === undefined ? line : paint(output, style, line));
    if (columns === undefined || displayWidth(indent) + displayWidth(text) <= columns) {
      return [`${indent}${whole ?? painted(text)}`];
    }
    // Every piece as wide as a continued one; never narrower than a path's root can be read in.
    const under = `${' '.repeat(displayWidth(indent))}  `;
    const [first = '', ...rest] = wrapToWidth(text, Math.max(20, columns - under.length), /[ /]/);
    return [`${indent}${painted(first)}`, ...rest.map((line) => `${under}${painted(line)}`)];
  };
}

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

/** `2 errors, 5 warnings, 918 info`; under `--severity`, the severities kept only. */
function counts(findings: readonly Finding[], severity?: Severity): string {
  const of = (severity: Severity) => findings.filter((finding) => finding.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [plural(of('error'), 'error'), plural(of('warning'), 'warning'), `${of('info')} info`];
  const kept = severity === 'error' ? 1 : severity === 'warning' ? 2 : 3;
  return parts.slice(0, kept).join(', ');
}
