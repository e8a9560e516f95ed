// How the doctor's answers order and count findings (docs/api.md §GET /doctor): `?severity=` keeps a severity and
// what is worse, errors come first, then warnings, then info (each in the order the doctor found them), and the
// summary counts each rule so that a report of a thousand findings reads as a dozen lines.

import type { Finding, RuleCount, Severity } from './types.js';

export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** The findings of `severity` or worse (all when undefined), errors first, stable within a severity. */
export function orderFindings<F extends Finding>(findings: readonly F[], severity?: Severity): F[] {
  const worst = severity === undefined ? RANK.info : RANK[severity];
  const kept = findings.filter((finding) => RANK[finding.severity] <= worst);
  // Array.prototype.sort is stable: within a severity, the doctor's own order stays.
  return kept.sort((a, b) => RANK[a.severity] - RANK[b.severity]);
}

/** One entry per rule and severity: errors, warnings, info, then the most frequent first, then by rule. */
export function summarise(findings: readonly Finding[]): RuleCount[] {
  const counts = new Map<string, RuleCount>();
  for (const { rule, severity } of findings) {
    const key = `${severity}\0${rule}`;
    const known = counts.get(key);
    if (known === undefined) counts.set(key, { rule, severity, count: 1 });
    else known.count++;
  }
  return [...counts.values()].sort(
    (a, b) =>
      RANK[a.severity] - RANK[b.severity] || b.count - a.count || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
  );
}
