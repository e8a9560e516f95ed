// Codex CLI's catalog under its budget (docs/agents.md "Codex's budget"): every line in full; else every line with the
// descriptions shared out one character at a time; else minimum lines until the budget is spent. A rendering with
// root aliases is kept whenever it does no worse than the absolute one.

import { relative } from 'node:path';
import { codexSection } from './codex-frame.js';
import { scalarLength } from './frontmatter-rules.js';
import type { AgentSkill, CatalogAnswer, CatalogEntry, EntryStatus } from './types.js';

export const CODEX_DEFAULT_WINDOW = 272_000;
/** The default model assumed without a login (docs/agents.md "Codex's budget"). */
export const CODEX_DEFAULT_MODEL = 'gpt-6.1-sol';

/**
 * The models of Codex 0.169.0's bundled catalog whose window or frame differ from the default: their
 * `context_window` and `include_skills_usage_instructions`. Any other model (unknown ones too) has 272,000 tokens
 * and no "How to use skills".
 */
const MODELS: Readonly<Record<string, { window?: number; howTo?: boolean }>> = {
  'gpt-5.5': { howTo: true },
  'gpt-6.1-terra': { window: 500_000 },
  'gpt-daybreak-red-latest': { window: 372_000 },
};
const DESCRIPTION_CAP = 1024;
const UNKNOWN_WINDOW_LIMIT = 8000;
/**
 * The root table's free allowance: Codex 0.169.0 charges a root table what it costs beyond 153 to 156 bytes (measured by
 * the conformance harness on two budgets; docs/agents.md "Codex's budget").
 */
const FRAME_ALLOWANCE_BYTES = 156;

interface Budget {
  unit: 'tokens' | 'chars';
  limit: number;
  cost(text: string): number;
  costOf(chars: number, bytes: number): number;
}

function budgetOf(window: number): Budget {
  if (window === 0) {
    return { unit: 'chars', limit: UNKNOWN_WINDOW_LIMIT, cost: scalarLength, costOf: (chars) => chars };
  }
  return {
    unit: 'tokens',
    limit: Math.max(1, Math.floor((window * 2) / 100)),
    cost: (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / 4),
    costOf: (_chars, bytes) => Math.ceil(bytes / 4),
  };
}

interface Line {
  skill: AgentSkill;
  description: string;
  /** The description's characters (code points). */
  chars: string[];
  capped: boolean;
  path: string;
}

interface Rendered {
  lines: string[];
  shown: number[];
  omitted: boolean[];
  included: number;
  truncated: number;
  cost: number;
}

const SCOPE_RANK: Record<string, number> = { admin: 1, project: 2, user: 3, plugin: 4 };

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export function codexCatalog(
  loaded: AgentSkill[],
  contextWindow: number | undefined,
  rootOrder: readonly string[],
  model?: string,
): CatalogAnswer {
  const profile = Object.hasOwn(MODELS, model ?? CODEX_DEFAULT_MODEL)
    ? MODELS[model ?? CODEX_DEFAULT_MODEL]
    : undefined;
  const window = contextWindow ?? profile?.window ?? CODEX_DEFAULT_WINDOW;
  const budget = budgetOf(window);
  const skills = loaded
    .filter((skill) => !skill.hide)
    .sort(
      (a, b) =>
        (SCOPE_RANK[a.source.scope] ?? 9) - (SCOPE_RANK[b.source.scope] ?? 9) ||
        byBytes(a.name, b.name) ||
        byBytes(a.filePath, b.filePath),
    );
  if (skills.length === 0) {
    return {
      contextWindow: window,
      unit: budget.unit,
      limit: budget.limit,
      used: 0,
      entries: [],
      text: '',
      warnings: [],
    };
  }
  const lineOf = (skill: AgentSkill, path: string): Line => {
    const all = [...skill.description];
    const capped = all.length > DESCRIPTION_CAP;
    const chars = capped ? [...all.slice(0, DESCRIPTION_CAP - 3), '.', '.', '.'] : all;
    return { skill, description: chars.join(''), chars, capped, path: path.replace(/\\/g, '/') };
  };
  const absoluteLines = skills.map((skill) => lineOf(skill, skill.filePath));
  let best = render(absoluteLines, budget, budget.limit);
  let rootLines: string[] = [];
  let tableCost = 0;
  {
    const used = rootOrder.filter(
      (path, i, all) => all.indexOf(path) === i && skills.some((skill) => skill.source.root === path),
    );
    const table = used.map((path, i) => `- \`r${i}\` = \`${path.replace(/\\/g, '/')}\``);
    const cost = Math.max(
      0,
      budget.cost(`### Skill roots\n${table.map((line) => `${line}\n`).join('')}`) -
        budget.costOf(FRAME_ALLOWANCE_BYTES, FRAME_ALLOWANCE_BYTES),
    );
    if (cost < budget.limit) {
      const aliasedLines = skills.map((skill) => {
        const index = used.indexOf(skill.source.root);
        // The path below the root as walked: a linked folder keeps its own name.
        return lineOf(skill, `r${index}/${skill.walkedPath ?? relative(skill.source.root, skill.filePath)}`);
      });
      const aliased = render(aliasedLines, budget, budget.limit - cost);
      if (!worse(aliased, cost, best, 0)) {
        best = aliased;
        rootLines = table;
        tableCost = cost;
      }
    }
  }
  const entries: CatalogEntry[] = skills.map((skill, i) => {
    const line = absoluteLines[i] as Line;
    const shown = best.shown[i] as number;
    let status: EntryStatus = 'full';
    if (best.omitted[i] === true) status = 'dropped';
    else if (shown === 0) status = 'name-only';
    else if (shown < line.chars.length || line.capped) status = 'truncated';
    return { name: skill.name, status, chars: best.omitted[i] === true ? 0 : shown };
  });
  const omitted = best.omitted.filter(Boolean).length;
  const warnings: string[] = [];
  // Codex 0.169.0 says only this, without " of 2%", and nothing when descriptions are only shortened.
  if (omitted > 0) {
    warnings.push(
      `Exceeded skills context budget. All skill descriptions were removed and ${omitted} additional ${
        omitted === 1 ? 'skill was' : 'skills were'
      } not included in the model-visible skills list.`,
    );
  }
  return {
    contextWindow: window,
    unit: budget.unit,
    limit: budget.limit,
    used: tableCost + best.cost,
    entries,
    text: codexSection(best.included === 0 ? [] : rootLines, best.lines, {
      howTo: profile?.howTo === true,
      nothingFits: best.included === 0,
    }),
    warnings,
  };
}

function worse(aliased: Rendered, aliasedTable: number, absolute: Rendered, absoluteTable: number): boolean {
  if (aliased.included !== absolute.included) return aliased.included < absolute.included;
  if (aliased.truncated !== absolute.truncated) return aliased.truncated > absolute.truncated;
  return aliasedTable + aliased.cost > absoluteTable + absolute.cost;
}

function text(line: Line, shown: number): string {
  if (shown === 0) return `- ${line.skill.name}: (file: ${line.path})`;
  return `- ${line.skill.name}: ${line.chars.slice(0, shown).join('')} (file: ${line.path})`;
}

function render(lines: Line[], budget: Budget, limit: number): Rendered {
  const lineCost = (line: Line, shown: number): number => budget.cost(`${text(line, shown)}\n`);
  const full = lines.reduce((sum, line) => sum + lineCost(line, line.chars.length), 0);
  if (full <= limit) {
    return {
      lines: lines.map((line) => text(line, line.chars.length)),
      shown: lines.map((line) => line.chars.length),
      omitted: lines.map(() => false),
      included: lines.length,
      truncated: 0,
      cost: full,
    };
  }
  const minimum = lines.map((line) => lineCost(line, 0));
  const minimumTotal = minimum.reduce((a, b) => a + b, 0);
  if (minimumTotal <= limit) {
    const shown = lines.map(() => 0);
    const extra = lines.map(() => 0);
    // Prefix sizes of each description, so that extra(k) is computed from counts.
    const minCounts = lines.map((line) => {
      const minLine = `${text(line, 0)}\n`;
      return { chars: scalarLength(minLine), bytes: Buffer.byteLength(minLine, 'utf8') };
    });
    const prefixBytes = lines.map((line) => {
      const out = [0];
      for (const ch of line.chars) out.push((out[out.length - 1] as number) + Buffer.byteLength(ch, 'utf8'));
      return out;
    });
    const extraOf = (i: number, k: number): number => {
      const counts = minCounts[i] as { chars: number; bytes: number };
      const costK = budget.costOf(counts.chars + k + 1, counts.bytes + ((prefixBytes[i] as number[])[k] as number) + 1);
      return costK - (minimum[i] as number);
    };
    let remaining = limit - minimumTotal;
    for (;;) {
      let changed = false;
      for (const [i, line] of lines.entries()) {
        const k = shown[i] as number;
        if (k >= line.chars.length) continue;
        const next = Math.max(0, extraOf(i, k + 1));
        const delta = Math.max(0, next - (extra[i] as number));
        if (delta <= remaining) {
          shown[i] = k + 1;
          extra[i] = next;
          remaining -= delta;
          changed = true;
        }
      }
      if (!changed) break;
    }
    const rendered = lines.map((line, i) => text(line, shown[i] as number));
    return {
      lines: rendered,
      shown,
      omitted: lines.map(() => false),
      included: lines.length,
      truncated: lines.reduce((sum, line, i) => sum + line.chars.length - (shown[i] as number), 0),
      cost: rendered.reduce((sum, line) => sum + budget.cost(`${line}\n`), 0),
    };
  }
  const out: string[] = [];
  const omitted = lines.map(() => false);
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const cost = minimum[i] as number;
    if (used + cost <= limit) {
      used += cost;
      out.push(text(line, 0));
    } else omitted[i] = true;
  }
  return {
    lines: out,
    shown: lines.map(() => 0),
    omitted,
    included: out.length,
    truncated: lines.reduce((sum, line) => sum + line.chars.length, 0),
    cost: used,
  };
}
