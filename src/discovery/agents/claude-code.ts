// Claude Code (docs/agents.md "Claude Code"): closed source; every rule comes from its changelog and documentation.

import { basename, join, relative, sep } from 'node:path';
import { stat } from '../files/sliced-fs.js';
import { envPath, projectWalk, shown } from './agent-context.js';
import { isTrue, readYamlMapping } from './frontmatter-rules.js';
import type { AgentRoot, AgentSkill, AgentSpec, CatalogAnswer, CatalogEntry, Layout, Scope } from './types.js';

// `synced` (skills synced from an online account) is reserved in every root: out of scope.
const ONE_LEVEL: Layout = {
  minDepth: 1,
  maxDepth: 1,
  hidden: 'walk',
  skipNames: ['synced'],
  fileLinks: true,
  canonical: false,
  tooDeep: 'Claude Code reads only one level below',
};

/** `.claude/commands`: every `*.md` file at any depth, named by its path (`ops/restart.md` is `ops:restart`). */
const COMMANDS: Layout = {
  minDepth: 0,
  maxDepth: null,
  hidden: 'walk',
  fileLinks: true,
  canonical: false,
  markdownFiles: true,
};

/** The cap of a listing entry's text, in UTF-16 code units: longer texts become 1,535 units and `…`. */
const ENTRY_CAP = 1536;
/** Claude Code's default model without a login, and its window. */
const DEFAULT_MODEL = 'claude-opus-5-5';
const DEFAULT_WINDOW = 1_000_000;
const UNKNOWN_WINDOW_LIMIT = 8000;

export const claudeCode: AgentSpec = {
  info: {
    id: 'claude-code',
    name: 'Claude Code',
    describes: 'Claude Code 2.1.328 (verified)',
    confidence: 'verified',
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
    roots.push({ path: user, scope: 'user', layout: ONE_LEVEL });
    for (const dir of projectWalk(ctx))
      roots.push({ path: join(dir, '.claude', 'skills'), scope: 'project', layout: ONE_LEVEL });
    // A linked worktree reads the main checkout's skills only when it has no `.claude/skills` directory of its own
    // (an empty one is enough to keep them out).
    if (
      ctx.mainWorktree !== null &&
      ctx.gitRoot !== null &&
      !(await isDirectory(join(ctx.gitRoot, '.claude', 'skills')))
    ) {
      roots.push({ path: join(ctx.mainWorktree, '.claude', 'skills'), scope: 'project', layout: ONE_LEVEL });
    }
    // Plugin skills come after the file skills and are namespaced `<plugin>:<folder>`, so they never take a name from
    // the others.
    const plugins = ctx.claudePlugins;
    for (const dir of plugins?.dirs ?? []) {
      roots.push({ path: dir.path, scope: 'plugin', layout: ONE_LEVEL, namePrefix: `${dir.plugin}:` });
    }
    // `.claude/commands/**/*.md` entries come last (a skill keeps its name over a command): every directory of the
    // project walk, nearest first, then the user's.
    for (const dir of projectWalk(ctx))
      roots.push({ path: join(dir, '.claude', 'commands'), scope: 'project', layout: COMMANDS });
    const userCommands =
      configDir === undefined ? join(ctx.home, '.claude', 'commands') : join(envPath(configDir, ctx), 'commands');
    roots.push({ path: userCommands, scope: 'user', layout: COMMANDS });
    const warnings = ctx.gitFileWarning === undefined ? [] : [ctx.gitFileWarning];
    for (const message of plugins?.warnings ?? []) warnings.push({ skillPath: '', message: `[skillsd] ${message}` });
    return { roots: dedupe(roots), warnings, files: plugins?.files ?? [] };
  },
  identity: 'inode',
  read(text, found) {
    const command = found.root.layout === COMMANDS;
    const folder = command ? commandName(found.lexicalPath, found.root.path) : basename(found.baseDir);
    // A UTF-16 code unit is at most 3 bytes of UTF-8: a text this short is under the limit without counting its bytes.
    if (text.length * 3 > MAX_FILE_BYTES && Buffer.byteLength(text, 'utf8') > MAX_FILE_BYTES) {
      return { ok: false, message: `[skillsd] Claude Code skips ${found.filePath}: over ${MAX_FILE_BYTES} bytes` };
    }
    const refusedName = command ? undefined : nameRefusal(folder);
    if (refusedName !== undefined) {
      return { ok: false, message: `[skillsd] Claude Code does not offer ${found.filePath}: its name ${refusedName}` };
    }
    const { block, body } = claudeFrontmatter(text);
    let data: Record<string, unknown> = {};
    const warnings: string[] = [];
    if (block !== null) {
      const yaml = readClaudeYaml(block);
      if (yaml.ok) data = yaml.value;
      else if (yaml.tooLarge !== true) {
        warnings.push(
          `[skillsd] Claude Code could not parse the frontmatter of ${found.filePath}; it loads the skill with empty metadata`,
        );
      }
    }
    if (!command && isConditional(data.paths)) {
      return {
        ok: false,
        silent: true,
        message: `[skillsd] Claude Code does not load ${found.filePath} at session start: its \`paths:\` make it conditional`,
      };
    }
    const written = textOf(data.description);
    const description = written !== undefined ? joinLines(written) : bodyDescription(body);
    const whenToUse = textOf(data.when_to_use);
    const display = textOf(data.name);
    return {
      ok: true,
      name: `${found.root.namePrefix ?? ''}${folder}`,
      description,
      hide: isTrue(data['disable-model-invocation'], true),
      ...(whenToUse === undefined ? {} : { extra: joinLines(whenToUse) }),
      ...(display === undefined || display === folder ? {} : { displayName: display }),
      ...(command ? { kind: 'command' as const } : {}),
      warnings,
    };
  },
  precedence: 'first',
  shadowReason(winner, loser, ctx) {
    return `shadowed by ${shown(winner.baseDir, ctx.home)} (${winnerLabel(winner.source.scope, loser.source.scope)} beats ${loserLabel(loser.source.scope)})`;
  },
  catalog: claudeCatalog,
  defaultWindow: DEFAULT_WINDOW,
  defaultModel: DEFAULT_MODEL,
  realWorkspace: true,
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

/** Over this many bytes a SKILL.md is skipped (docs/agents.md "Claude Code"). */
const MAX_FILE_BYTES = 1_000_000;
const MAX_NAME_LENGTH = 256;
/** `<`, `>`, control and format (hidden, direction-changing) characters, and every blank but the plain space. */
const REFUSED_NAME_CHARACTERS =
  /[<>\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u3164\uFFA0\u2800]/u;

/** Why a folder name is not offered, or undefined when it is. */
export function nameRefusal(name: string): string | undefined {
  if (name.length > MAX_NAME_LENGTH) return `is over ${MAX_NAME_LENGTH} characters`;
  const bad = REFUSED_NAME_CHARACTERS.exec(name);
  if (bad === null) return undefined;
  const code = (bad[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
  return `holds U+${code}`;
}

/**
 * Claude Code's frontmatter: a first line `---` (one BOM before it ignored, spaces after it allowed) opens a block that
 * ends at the next `---` anywhere, even inside a line; the body starts after that `---`, its trailing blanks and one
 * line break. No closing `---`: no block.
 */
export function claudeFrontmatter(text: string): { block: string | null; body: string } {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const match = /^---\s*\n/.exec(source);
  if (match === null) return { block: null, body: source };
  const start = match[0].length;
  const close = source.indexOf('---', start);
  if (close < 0) return { block: null, body: source };
  const after = /^---\s*\n?/.exec(source.slice(close)) as RegExpExecArray;
  return { block: source.slice(start, close), body: source.slice(close + after[0].length) };
}

/** `key: value` lines whose value YAML chokes on, as the retry finds them. */
const SIMPLE_LINE = /^([a-zA-Z_-]+):\s+(.+)$/;
const YAML_SPECIAL = /[{}[\]*&#!|>%@`]|: /;

/** The retry of a block that does not parse: plain values holding YAML specials double-quoted. */
export function quoteProblematicValues(block: string): string {
  return block
    .split('\n')
    .map((line) => {
      const match = SIMPLE_LINE.exec(line);
      if (match === null) return line;
      const [, key, value] = match as unknown as [string, string, string];
      const quoted = (value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"));
      if (quoted || !YAML_SPECIAL.test(value)) return line;
      return `${key}: "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    })
    .join('\n');
}

function readClaudeYaml(block: string): ReturnType<typeof readYamlMapping> {
  const first = readYamlMapping(block);
  if (first.ok || first.tooLarge === true) return first;
  const retried = readYamlMapping(quoteProblematicValues(block));
  return retried.ok ? retried : first;
}

/** A frontmatter value as text: strings trimmed (blank: none), numbers and booleans as written by String(). */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Line breaks (and the blanks around them) become one space. */
function joinLines(value: string): string {
  return value.replace(/[^\S\n]*\r?\n\s*/g, ' ');
}

function isConditional(paths: unknown): boolean {
  if (paths === undefined || paths === null) return false;
  if (Array.isArray(paths)) return paths.length > 0;
  return typeof paths !== 'string' || paths.trim() !== '';
}

/** The first non-empty body line (a heading `## text` gives `text`), cut to 97 + `...` over 100; none: `Skill`. */
export function bodyDescription(body: string): string {
  for (const line of body.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const text = /^#+\s+(.+)$/.exec(trimmed)?.[1] ?? trimmed;
    return text.length > 100 ? `${text.slice(0, 97)}...` : text;
  }
  return 'Skill';
}

/** A command's name: its path below the commands directory, without `.md`, `/` read as `:`. */
function commandName(lexicalPath: string, root: string): string {
  return relative(root, lexicalPath).replace(/\.md$/, '').split(sep).join(':');
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

function dedupe(roots: AgentRoot[]): AgentRoot[] {
  const seen = new Set<string>();
  return roots.filter((root) => !seen.has(root.path) && seen.add(root.path) !== undefined);
}

/** The opening of the listing (docs/agents.md "Claude Code"). */
const CATALOG_HEAD = 'The following skills are available for use with the Skill tool:\n\n';

/**
 * Claude Code's bundled skills are listed too and count against the budget (their entries always stay full); the
 * views leave them out. Measured on 2.1.328: 13 entries whose lines total 6,196 characters.
 */
export const BUNDLED_ENTRIES = 13;
export const BUNDLED_CHARS = 6196;

interface ListingLine {
  skill: AgentSkill;
  /** `- name` or `- folder (name)`. */
  head: string;
  /** The description (and ` - when_to_use`) as shown: at most ENTRY_CAP UTF-16 units. */
  shown: string;
  /** The text was longer than the cap. */
  cut: boolean;
}

/** A view's listing lines, sorted and measured once: each context window asked for then costs one linear pass. */
const listings = new WeakMap<readonly AgentSkill[], { order: readonly string[]; lines: ListingLine[] }>();

function listingLines(loaded: readonly AgentSkill[], rootOrder: readonly string[]): ListingLine[] {
  const known = listings.get(loaded);
  if (known !== undefined && known.order === rootOrder) return known.lines;
  // The commands of every directory form one group, after the skills, by name.
  const rank = (skill: AgentSkill): number => {
    const at = skill.kind === 'command' ? -1 : rootOrder.indexOf(skill.source.root);
    return at < 0 ? rootOrder.length : at;
  };
  const skills = loaded
    .filter((skill) => !skill.hide)
    .map((skill) => ({ skill, rank: rank(skill) }))
    .sort((a, b) => a.rank - b.rank || a.skill.name.localeCompare(b.skill.name))
    .map(({ skill }) => skill);
  // A frontmatter name is shown beside the first folder that gives it only.
  const displayed = new Set<string>();
  const lines = skills.map((skill) => {
    const display =
      skill.displayName !== undefined && !displayed.has(skill.displayName) ? skill.displayName : undefined;
    if (display !== undefined) displayed.add(display);
    const joined = skill.extra === undefined ? skill.description : `${skill.description} - ${skill.extra}`;
    const cut = joined.length > ENTRY_CAP;
    const shown = cut ? `${joined.slice(0, ENTRY_CAP - 1)}\u2026` : joined;
    const head = `- ${skill.name}${display === undefined ? '' : ` (${display})`}`;
    return { skill, head, shown, cut };
  });
  listings.set(loaded, { order: rootOrder, lines });
  return lines;
}

/** The window Claude Code assumes for a model: `[1m]` models and unknown ones 1,000,000 tokens, Sonnet 200,000. */
export function modelWindow(model: string): number {
  if (/\[1m\]$/i.test(model)) return 1_000_000;
  return /sonnet/i.test(model) ? 200_000 : DEFAULT_WINDOW;
}

/** Characters per token of the listing budget: 4 for Sonnet models, 3 for the others. */
export function charsPerToken(model: string): number {
  return /sonnet/i.test(model) ? 4 : 3;
}

/**
 * The skill listing: loaded skills not hidden, by root in the agent's order (user, project roots nearest first,
 * plugins, commands), by name inside a root. The budget is 1 % of the window in characters (3 or 4 per token by
 * model). When the whole listing (bundled entries included) is over it, the bundled entries stay full and the file
 * entries keep their text in listing order while their texts fit in what the bundled ones leave; from the first that
 * does not fit on, entries are names only.
 */
function claudeCatalog(
  loaded: AgentSkill[],
  contextWindow: number | undefined,
  rootOrder: readonly string[],
  model: string | undefined,
): CatalogAnswer {
  const assumed = model ?? DEFAULT_MODEL;
  const window = contextWindow ?? modelWindow(assumed);
  const limit = window === 0 ? UNKNOWN_WINDOW_LIMIT : Math.floor((window * charsPerToken(assumed)) / 100);
  const lines = listingLines(loaded, rootOrder);
  const full = lines.map((line) => `${line.head}: ${line.shown}`);
  const count = lines.length + BUNDLED_ENTRIES;
  const total = BUNDLED_CHARS + full.reduce((sum, line) => sum + line.length, 0) + count - 1;
  let keep = lines.length;
  if (total > limit) {
    let left = limit - BUNDLED_CHARS;
    keep = 0;
    for (const line of lines) {
      if (line.shown.length > left) break;
      left -= line.shown.length;
      keep++;
    }
  }
  const shown = lines.map((line, i) => (i < keep ? (full[i] as string) : line.head));
  const entries: CatalogEntry[] = lines.map((line, i) =>
    i < keep
      ? { name: line.skill.name, status: line.cut ? 'truncated' : 'full', chars: line.shown.length }
      : { name: line.skill.name, status: 'name-only', chars: 0 },
  );
  const used = BUNDLED_CHARS + shown.reduce((sum, line) => sum + line.length, 0) + count - 1;
  const warnings =
    total > limit
      ? [
          `Skill listing over budget: ${count} skills, ${total} chars > ${limit} budget — descriptions will be ` +
            'truncated. Run /skills to disable some, or raise skillListingBudgetFraction in settings.',
        ]
      : [];
  return {
    contextWindow: window,
    unit: 'chars',
    limit,
    used,
    entries,
    text: CATALOG_HEAD + shown.join('\n'),
    warnings,
  };
}
