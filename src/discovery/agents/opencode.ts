// OpenCode (docs/agents.md "OpenCode"): measured at opencode-ai 1.18.33. Three
// scan phases over every root at once; a later parse of a name replaces the earlier one.

import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type * as Yaml from 'yaml';
import { stat } from '../files/sliced-fs.js';
import { MAX_YAML_BLOCK_CHARACTERS } from '../frontmatter/frontmatter.js';
import { envPath, shown, walkBetween } from './agent-context.js';
import { readYamlMapping } from './frontmatter-rules.js';
import { readOpencodeSimple } from './opencode-simple.js';
import { fullCatalog } from './plain-catalog.js';
import { readSideFile } from './side-file.js';
import type { AgentRoot, AgentSkill, AgentSpec, Layout } from './types.js';

const EXTERNAL: Layout = {
  minDepth: 0,
  maxDepth: null,
  hidden: 'walk',
  fileLinks: true,
  canonical: false,
  skillDirs: true,
};
const CONFIG: Layout = {
  ...EXTERNAL,
  hidden: 'skip',
  hiddenReason: 'OpenCode skips hidden directories below its config roots',
};

/** The skill OpenCode ships, always in its catalog unless a file skill of that name replaces it. */
export const BUILT_IN_NAME = 'customize-opencode';
export const BUILT_IN_DESCRIPTION =
  "Use ONLY when the user is editing or creating opencode's own configuration: opencode.json, opencode.jsonc, files under .opencode/, or files under ~/.config/opencode/. Also use when creating or fixing opencode agents, subagents, skills, plugins, MCP servers, or permission rules. Do not use for the user's own application code, or for any project that is not configuring opencode itself.";

const BOOLEAN_ON = ['true', 'yes', 'on', '1', 'y'];
const BOOLEAN_OFF = ['false', 'no', 'off', '0', 'n'];

/** The boolean flags read as a config boolean: an unknown value stops OpenCode (exit 1). */
const STRICT_FLAGS = [
  'OPENCODE_DISABLE_EXTERNAL_SKILLS',
  'OPENCODE_DISABLE_CLAUDE_CODE',
  'OPENCODE_DISABLE_CLAUDE_CODE_SKILLS',
] as const;

/** A strict flag: on, off, or an invalid value (null). Case matters (`Y` is invalid). */
export function strictFlag(value: string | undefined): boolean | null {
  if (value === undefined) return false;
  if (BOOLEAN_ON.includes(value)) return true;
  if (BOOLEAN_OFF.includes(value)) return false;
  return null;
}

/** `OPENCODE_DISABLE_PROJECT_CONFIG`: `true` or `1`, in any case. */
function looseFlag(value: string | undefined): boolean {
  const lower = value?.toLowerCase();
  return lower === 'true' || lower === '1';
}

export const opencode: AgentSpec = {
  info: { id: 'opencode', name: 'OpenCode', describes: 'OpenCode 1.18.33 (verified)', confidence: 'verified' },
  // OpenCode resolves its working directory: a workspace reached through a link is reported by its real path.
  realWorkspace: true,
  // No size limit (a 1.1 MB SKILL.md loads): the frontmatter is read from the first MiB.
  largeFileHead: 1024 * 1024,
  async roots(ctx) {
    for (const name of STRICT_FLAGS) {
      if (strictFlag(ctx.env[name]) === null) return stopped(`${name}=${ctx.env[name]} is not a boolean`);
    }
    const worktree = (await gitToplevel(ctx.cwd)) ?? '/';
    const up = walkBetween(ctx.cwd, worktree);
    const external = strictFlag(ctx.env.OPENCODE_DISABLE_EXTERNAL_SKILLS)
      ? 'OpenCode does not read .claude and .agents skills while OPENCODE_DISABLE_EXTERNAL_SKILLS is set'
      : undefined;
    const claudeFlag = STRICT_FLAGS.slice(1).find((name) => strictFlag(ctx.env[name]) === true);
    const claude =
      external ??
      (claudeFlag === undefined ? undefined : `OpenCode does not read .claude skills while ${claudeFlag} is set`);
    const blockedBy = (reason: string | undefined) => (reason === undefined ? {} : { blocked: reason });
    const roots: AgentRoot[] = [
      { path: join(ctx.home, '.claude', 'skills'), scope: 'user', layout: EXTERNAL, phase: 1, ...blockedBy(claude) },
      { path: join(ctx.home, '.agents', 'skills'), scope: 'user', layout: EXTERNAL, phase: 1, ...blockedBy(external) },
    ];
    for (const dir of up) {
      roots.push({
        path: join(dir, '.claude', 'skills'),
        scope: 'project',
        layout: EXTERNAL,
        phase: 2,
        ...blockedBy(claude),
      });
      roots.push({
        path: join(dir, '.agents', 'skills'),
        scope: 'project',
        layout: EXTERNAL,
        phase: 2,
        ...blockedBy(external),
      });
    }
    const xdg = ctx.env.XDG_CONFIG_HOME;
    const configs: Array<{ dir: string; scope: 'user' | 'project'; blocked?: string }> = [
      {
        dir: xdg === undefined ? join(ctx.home, '.config', 'opencode') : join(envPath(xdg, ctx), 'opencode'),
        scope: 'user',
      },
    ];
    const noProject = looseFlag(ctx.env.OPENCODE_DISABLE_PROJECT_CONFIG);
    for (const dir of up) {
      configs.push({
        dir: join(dir, '.opencode'),
        scope: 'project',
        ...(noProject
          ? { blocked: 'OpenCode does not read project config while OPENCODE_DISABLE_PROJECT_CONFIG is set' }
          : {}),
      });
    }
    configs.push({ dir: join(ctx.home, '.opencode'), scope: 'user' });
    const extra = ctx.env.OPENCODE_CONFIG_DIR;
    if (extra !== undefined) configs.push({ dir: envPath(extra, ctx), scope: 'user' });
    // A `.opencode` that exists but is not a directory stops OpenCode when it opens its config (measured).
    for (const config of configs) {
      if (config.blocked !== undefined || !config.dir.endsWith('/.opencode')) continue;
      const info = await stat(config.dir).catch(() => undefined);
      if (info !== undefined && !info.isDirectory()) {
        return { ...stopped(`${config.dir} is not a directory`), files: [config.dir] };
      }
    }
    for (const config of configs) {
      for (const name of ['skill', 'skills']) {
        roots.push({
          path: join(config.dir, name),
          scope: config.scope,
          layout: CONFIG,
          phase: 3,
          ...blockedBy(config.blocked),
        });
      }
    }
    const seen = new Set<string>();
    return {
      roots: roots.filter((root) => !seen.has(root.path) && seen.add(root.path) !== undefined),
      warnings: ctx.gitFileWarning === undefined ? [] : [ctx.gitFileWarning],
    };
  },
  identity: 'lexical',
  read(text, found) {
    const data = readFrontmatter(text);
    if (data === null) return { ok: false, message: `${found.filePath}: Failed to parse YAML frontmatter` };
    const name = data.name;
    const description = data.description;
    // Only `name` is required; a skill without a description loads and stays out of the catalog.
    if (typeof name !== 'string' || (description !== undefined && typeof description !== 'string')) {
      return {
        ok: false,
        message: `[skillsd] OpenCode skips ${found.filePath}: name must be a string, description a string or absent`,
        silent: true,
      };
    }
    return { ok: true, name, description: description ?? '', hide: description === undefined };
  },
  precedence: 'last',
  shadowReason(winner, _loser, ctx) {
    // Not a precedence: OpenCode's own pick is a race (see onDuplicate), so the doctor says so in words.
    return `may be the one loaded: OpenCode picks one of the files of this name at random (skillsd shows ${shown(winner.baseDir, ctx.home)})`;
  },
  onDuplicate(winner, loser) {
    // Every root is read at once and the last parse to finish wins, whatever its phase (measured: both files of each
    // racy conformance scenario were seen winning): every file of the name could be the one loaded.
    candidatesOf.set(winner, [...(candidatesOf.get(loser) ?? [loser.filePath]), winner.filePath]);
    return [{ skillPath: winner.filePath, message: 'duplicate skill name' }];
  },
  afterLoad(skills) {
    return skills.flatMap((skill) => {
      const candidates = candidatesOf.get(skill);
      if (candidates === undefined) return [];
      skill.candidates = candidates;
      return [{ skillPath: '', message: `[skillsd] OpenCode loads one of these at random: ${candidates.join(', ')}` }];
    });
  },
  catalog(skills) {
    return opencodeCatalog(skills);
  },
};

/** The files that could win a name, by the skill skillsd shows for it (the last one found). */
const candidatesOf = new WeakMap<AgentSkill, string[]>();

/** The view of an OpenCode that does not start: no roots, one warning. */
function stopped(why: string): { roots: AgentRoot[]; warnings: Array<{ skillPath: string; message: string }> } {
  return { roots: [], warnings: [{ skillPath: '', message: `[skillsd] OpenCode does not start: ${why}` }] };
}

/**
 * `git rev-parse --show-toplevel` from `cwd`: the nearest directory whose `.git` is a repository (a directory holding
 * `HEAD`, or a file whose `gitdir:` names one). An empty `.git` or a broken `gitdir:` is passed over, as git does.
 */
export async function gitToplevel(cwd: string): Promise<string | null> {
  let dir = cwd;
  for (;;) {
    if (await isRepository(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

async function isRepository(dotGit: string): Promise<boolean> {
  const info = await stat(dotGit).catch(() => undefined);
  if (info === undefined) return false;
  if (info.isDirectory()) return hasHead(dotGit);
  // Read through the guarded reader: a `.git` in any ancestor may be anyone's (a FIFO at `/tmp/.git`).
  const read = await readSideFile(dotGit, 64 * 1024);
  if (read.status !== 'ok') return false;
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(read.text);
  if (match === null) return false;
  const target = match[1] as string;
  return hasHead(isAbsolute(target) ? target : resolve(dirname(dotGit), target));
}

async function hasHead(gitDir: string): Promise<boolean> {
  const info = await stat(join(gitDir, 'HEAD')).catch(() => undefined);
  return info?.isFile() === true;
}

/**
 * The frontmatter data as gray-matter gives it to OpenCode, or null when it throws on both readings (the file is
 * skipped). gray-matter: one BOM stripped; `---` opens unless a fourth `-` follows; the rest of that line names the
 * language (blank: YAML); the block ends at the first `\n---` anywhere, or runs to the end of the file; a block of only
 * blank and `#` lines is empty.
 */
export function readFrontmatter(text: string): Record<string, unknown> | null {
  return readOpencodeSimple(text) ?? readFrontmatterWithYaml(text);
}

/** `readFrontmatter` without its fast path (opencode-simple.ts): what every fast reading must equal. */
export function readFrontmatterWithYaml(text: string): Record<string, unknown> | null {
  const first = matterData(text);
  if (first !== null) return first;
  return matterData(fallbackSanitization(text));
}

function matterData(input: string): Record<string, unknown> | null {
  let text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  if (!text.startsWith('---') || text.charAt(3) === '-') return {};
  text = text.slice(3);
  const lineEnd = text.search(/\r?\n/);
  const language = text.slice(0, lineEnd);
  if (language.trim() !== '') {
    if (!['yaml', 'yml'].includes(language.trim())) return null;
    text = text.slice(language.length);
  }
  const close = text.indexOf('\n---');
  const block = close < 0 ? text : text.slice(0, close);
  if (block.replace(/^\s*#[^\n]+/gm, '').trim() === '') return {};
  const read = readYaml11(block);
  if (!read.ok) return null;
  const value = read.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return {};
  return value as Record<string, unknown>;
}

/**
 * OpenCode's second reading (ConfigMarkdown.fallbackSanitization): in a block opened by `---` and a line break at
 * the very start, an unindented `key: value` line whose key matches `[A-Za-z_][A-Za-z0-9_]*` (spaces allowed before
 * the colon) and whose trimmed value holds `:` and is not quoted or a block indicator becomes `key: |-` + the value.
 */
export function fallbackSanitization(content: string): string {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(content);
  if (match === null) return content;
  const frontmatter = match[1] as string;
  const out: string[] = [];
  for (const line of frontmatter.split(/\r?\n/)) {
    const trimmed = line.trim();
    const kv = /^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$/.exec(line);
    if (trimmed.startsWith('#') || trimmed === '' || /^\s+/.test(line) || kv === null) {
      out.push(line);
      continue;
    }
    const value = (kv[2] as string).trim();
    if (value === '' || value === '>' || value === '|' || value.startsWith('"') || value.startsWith("'")) {
      out.push(line);
      continue;
    }
    if (value.includes(':')) out.push(`${kv[1]}: |-`, `  ${value}`);
    else out.push(line);
  }
  const processed = out.join('\n');
  return content.replace(frontmatter, () => processed);
}

let yaml: typeof Yaml | undefined;

/** js-yaml 3's booleans (its default safe schema): only true/false in three spellings; `yes`, `on`, `y` are text. */
const JS_YAML_BOOL = {
  identify: (value: unknown) => typeof value === 'boolean',
  default: true,
  tag: 'tag:yaml.org,2002:bool',
  test: /^(?:true|True|TRUE|false|False|FALSE)$/,
  resolve: (source: string) => source[0] === 't' || source[0] === 'T',
};

/**
 * One block read as js-yaml 3 (gray-matter's engine) reads it: YAML 1.1 (dates, `0b101`, `1_000`, `12:30` typed;
 * `0o17` text), js-yaml's booleans, duplicate keys an error. Done by `yaml` in its YAML 1.1 schema with the alias
 * limit of the daemon's reader; a block over the daemon's cap is not parsed (SECURITY.md "Parser bombs").
 */
export function readYaml11(block: string): { ok: true; value: unknown } | { ok: false } {
  if (block.length > MAX_YAML_BLOCK_CHARACTERS) {
    readYamlMapping(block);
    return { ok: false };
  }
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  try {
    // js-yaml takes a lone CR as a line break too (the block of a CRLF file ends in one).
    const document = yaml.parseDocument(block.replace(/\r\n?/g, '\n'), {
      version: '1.1',
      schema: 'yaml-1.1',
      customTags: (tags) => [
        JS_YAML_BOOL,
        ...tags.filter((tag) => typeof tag !== 'object' || tag.tag !== 'tag:yaml.org,2002:bool'),
      ],
      uniqueKeys: true,
      merge: true,
      logLevel: 'silent',
      prettyErrors: false,
    });
    if (document.errors.length > 0) return { ok: false };
    return { ok: true, value: document.toJS({ maxAliasCount: 100 }) };
  } catch {
    return { ok: false };
  }
}

/**
 * OpenCode's skills section of the system prompt (SystemPrompt.skills): the skills with a description, sorted by
 * name with `localeCompare`, the built-in `customize-opencode` among them unless a file skill replaces it; each
 * `<location>` the plain path, HTML-escaped. No described skill: one sentence instead of the list.
 */
export function opencodeCatalog(skills: AgentSkill[]) {
  const listed = skills.filter((skill) => !skill.hide);
  const entries: Array<{ name: string; description: string; location: string | null }> = listed.map((skill) => ({
    name: skill.name,
    description: skill.description,
    location: skill.filePath,
  }));
  if (!skills.some((skill) => skill.name === BUILT_IN_NAME)) {
    entries.push({ name: BUILT_IN_NAME, description: BUILT_IN_DESCRIPTION, location: null });
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const lines = [
    'Skills provide specialized instructions and workflows for specific tasks.',
    'Use the skill tool to load a skill when a task matches its description.',
  ];
  if (entries.length === 0) lines.push('No skills are currently available.');
  else {
    lines.push('<available_skills>');
    for (const entry of entries) {
      lines.push(
        '  <skill>',
        `    <name>${entry.name}</name>`,
        `    <description>${entry.description}</description>`,
        `    <location>${escapeHtml(entry.location ?? '<built-in>')}</location>`,
        '  </skill>',
      );
    }
    lines.push('</available_skills>');
  }
  return fullCatalog(listed, lines.join('\n'));
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
