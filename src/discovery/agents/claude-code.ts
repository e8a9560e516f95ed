// Claude Code (docs/agents.md "Claude Code"): closed source; every rule comes from its changelog and documentation.

import { basename, join } from 'node:path';
import { compareSkills } from '../pipeline/sort-skills.js';
import { envPath, projectWalk, shown } from './agent-context.js';
import { fencedBlock, firstScalars, isTrue, readYamlMapping, scalarLength, stringField } from './frontmatter-rules.js';
import type { AgentRoot, AgentSkill, AgentSpec, CatalogAnswer, CatalogEntry, Layout, Scope } from './types.js';

const ONE_LEVEL: Layout = {
  minDepth: 1,
  maxDepth: 1,
  hidden: 'walk',
  fileLinks: true,
  canonical: false,
  tooDeep: 'Claude Code reads only one level below',
};

/** The description cap of a listing entry, in Unicode scalar values. */
const ENTRY_CAP = 1536;
const DEFAULT_WINDOW = 200_000;
const UNKNOWN_WINDOW_LIMIT = 8000;

export const claudeCode: AgentSpec = {
  info: {
    id: 'claude-code',
    name: 'Claude Code',
    describes: 'Claude Code 2.1.240 (CHANGELOG @5cfc0a19, docs to 2026-09)',
    confidence: 'docs',
  },
  async roots(ctx) {
    const roots: AgentRoot[] = [];
    const admin =
      process.platform === 'darwin'
        ? '/Library/Application Support/ClaudeCode/.claude/skills'
        : '/etc/claude-code/.claude/skills';
    roots.push({ path: admin, scope: 'admin', layout: ONE_LEVEL });
    const configDir = ctx.env.CLAUDE_CONFIG_DIR;
    const user =
      configDir === undefined ? join(ctx.home, '.claude', 'skills') : join(envPath(configDir, ctx), 'skills');
    // `synced` holds skills synced from an online account: out of scope.
    roots.push({ path: user, scope: 'user', layout: { ...ONE_LEVEL, skipNames: ['synced'] } });
    for (const dir of projectWalk(ctx))
      roots.push({ path: join(dir, '.claude', 'skills'), scope: 'project', layout: ONE_LEVEL });
    if (ctx.mainWorktree !== null) {
      roots.push({ path: join(ctx.mainWorktree, '.claude', 'skills'), scope: 'project', layout: ONE_LEVEL });
    }
    // Plugin skills come last and are namespaced `<plugin>:<folder>`, so they never take a name from the others.
    const plugins = ctx.claudePlugins;
    for (const dir of plugins?.dirs ?? []) {
      roots.push({ path: dir.path, scope: 'plugin', layout: ONE_LEVEL, namePrefix: `${dir.plugin}:` });
    }
    const warnings = ctx.gitFileWarning === undefined ? [] : [ctx.gitFileWarning];
    for (const message of plugins?.warnings ?? []) warnings.push({ skillPath: '', message: `[skillsd] ${message}` });
    return { roots: dedupe(roots), warnings, files: plugins?.files ?? [] };
  },
  identity: 'inode',
  read(text, found) {
    const fenced = fencedBlock(text, { bom: true });
    const folder = basename(found.baseDir);
    let data: Record<string, unknown> = {};
    const warnings: string[] = [];
    let body = text.startsWith('\uFEFF') ? text.slice(1) : text;
    if (fenced !== null) {
      body = fenced.body;
      const yaml = readYamlMapping(fenced.block);
      if (yaml.ok) data = yaml.value;
      else if (yaml.tooLarge !== true) {
        warnings.push(
          `[skillsd] Claude Code could not parse the frontmatter of ${found.filePath}; it loads the skill with empty metadata`,
        );
      }
    }
    const written = stringField(data, 'description')?.trim();
    const description = written !== undefined && written !== '' ? written : firstLine(body);
    const whenToUse = stringField(data, 'when_to_use');
    return {
      ok: true,
      name: `${found.root.namePrefix ?? ''}${folder}`,
      description,
      hide: isTrue(data['disable-model-invocation'], true),
      ...(whenToUse === undefined || whenToUse.trim() === '' ? {} : { extra: whenToUse }),
      warnings,
    };
  },
  precedence: 'first',
  shadowReason(winner, loser, ctx) {
    return `shadowed by ${shown(winner.baseDir, ctx.home)} (${winnerLabel(winner.source.scope, loser.source.scope)} beats ${loserLabel(loser.source.scope)})`;
  },
  catalog: claudeCatalog,
  defaultWindow: DEFAULT_WINDOW,
};

function winnerLabel(winner: Scope, loser: Scope): string {
  if (winner === 'admin') return 'admin';
  if (winner === 'user') return 'personal';
  if (winner === 'plugin') return 'earlier plugin';
  return loser === 'project' ? 'nearer project' : 'project';
}

function loserLabel(scope: Scope): string {
  return scope === 'user' ? 'personal' : scope;
}

function firstLine(body: string): string {
  for (const line of body.split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '') return trimmed;
  }
  return '';
}

function dedupe(roots: AgentRoot[]): AgentRoot[] {
  const seen = new Set<string>();
  return roots.filter((root) => !seen.has(root.path) && seen.add(root.path) !== undefined);
}

interface ListingLine {
  skill: AgentSkill;
  /** The description (and `when_to_use`) as shown: at most ENTRY_CAP scalars. */
  shown: string;
  shownChars: number;
  /** The description was longer than the cap. */
  cut: boolean;
  /** The cost of `- name` and its line break. */
  bare: number;
}

/** A view's listing lines, sorted and measured once: each context window asked for then costs one linear pass. */
const listings = new WeakMap<readonly AgentSkill[], ListingLine[]>();

function listingLines(loaded: readonly AgentSkill[]): ListingLine[] {
  let lines = listings.get(loaded);
  if (lines === undefined) {
    const skills = loaded.filter((skill) => !skill.hide).sort(compareSkills);
    lines = skills.map((skill) => {
      const joined = skill.extra === undefined ? skill.description : `${skill.description} ${skill.extra}`;
      const shown = firstScalars(joined, ENTRY_CAP);
      const shownChars = scalarLength(shown);
      const cut = shownChars === ENTRY_CAP && shown.length < joined.length;
      return { skill, shown, shownChars, cut, bare: scalarLength(skill.name) + 3 };
    });
    listings.set(loaded, lines);
  }
  return lines;
}

/**
 * The skill listing: loaded skills not hidden, in name order; over the budget, descriptions are removed whole from
 * the last entry upward; names always stay. Each line's cost with and without its description is counted once, and the
 * total moves by their difference as a description goes: linear in the number of skills (recounting every line after
 * each removal took 34 s for 3,000 skills, with the event loop held throughout).
 */
function claudeCatalog(loaded: AgentSkill[], contextWindow: number | undefined): CatalogAnswer {
  const window = contextWindow ?? DEFAULT_WINDOW;
  const limit = window === 0 ? UNKNOWN_WINDOW_LIMIT : Math.floor((window * 4) / 100);
  const lines = listingLines(loaded);
  const costWith = (line: ListingLine): number => (line.shown === '' ? line.bare : line.bare + 2 + line.shownChars);
  const withText = lines.map(() => true);
  const fullCost = lines.reduce((sum, line) => sum + costWith(line), 0);
  let used = fullCost;
  const removed: string[] = [];
  for (let i = lines.length - 1; i >= 0 && used > limit; i--) {
    const line = lines[i] as ListingLine;
    if (line.shown === '') continue;
    withText[i] = false;
    used -= costWith(line) - line.bare;
    removed.push(line.skill.name);
  }
  const entries: CatalogEntry[] = lines.map((line, i) => {
    if (withText[i] !== true) return { name: line.skill.name, status: 'name-only', chars: 0 };
    return { name: line.skill.name, status: line.cut ? 'truncated' : 'full', chars: line.shownChars };
  });
  const warnings: string[] = [];
  if (removed.length > 0) {
    const names = removed.slice().sort((a, b) => compareSkills({ name: a, filePath: '' }, { name: b, filePath: '' }));
    const listed = names.slice(0, 3).join(', ') + (names.length > 3 ? `, +${names.length - 3} more` : '');
    const share = window === 0 ? fullCost / UNKNOWN_WINDOW_LIMIT : (fullCost / (window * 4)) * 100;
    warnings.push(
      'Skill listing will be truncated\n' +
        `${removed.length} descriptions dropped (full descriptions kept for most-used skills) (${share.toFixed(1)}%/1% of context):\n` +
        `  ${listed}\n` +
        'run /skills to disable some, or raise skillListingBudgetFraction (currently 1%) in settings.json',
    );
  }
  const text = lines
    .map((line, i) =>
      withText[i] === true && line.shown !== '' ? `- ${line.skill.name}: ${line.shown}` : `- ${line.skill.name}`,
    )
    .join('\n');
  return { contextWindow: window, unit: 'chars', limit, used, entries, text, warnings };
}
