// Codex CLI (docs/agents.md "Codex CLI"): read in openai/codex, crate core-skills (loader, discovery, render).

import { basename, dirname, join } from 'node:path';
import { stat } from '../files/sliced-fs.js';
import { parseYaml } from '../frontmatter/frontmatter-yaml.js';
import type { SkillWarning } from '../types.js';
import { envPath, walkBetween } from './agent-context.js';
import { CODEX_DEFAULT_MODEL, CODEX_DEFAULT_WINDOW, codexCatalog } from './codex-catalog.js';
import { collapseSpaces, fencedBlock, readYamlMapping, scalarLength } from './frontmatter-rules.js';
import { readSideFile, type SideLookups } from './side-file.js';
import type { AgentContext, AgentRoot, AgentSpec, Found, Layout, ReadOutcome } from './types.js';

const MAX_NAME = 64;
/** `<plugin>:<skill>`: a plugin name and a skill name of 64 characters each. */
const MAX_QUALIFIED_NAME = 129;
/** `agents/openai.yaml` holds a skill's interface and policy, a few KiB at most: 64 KiB is far above a real one. */
const MAX_OPENAI_YAML_BYTES = 64 * 1024;

const RECURSIVE: Layout = {
  minDepth: 0,
  maxDepth: 6,
  hidden: 'skip',
  fileLinks: false,
  canonical: true,
  limits: { dirs: 2000, entries: 20_000, warning: (root) => `skills scan reached its traversal limit (root: ${root})` },
  tooDeep: 'Codex finds a SKILL.md at most 6 levels below',
  // A directory named SKILL.md is walked into like any folder (Codex 0.169.0).
  skillDirs: true,
  hiddenReason: 'Codex skips hidden directories',
};

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

/**
 * The repository root of the `.codex/skills` walk: a `.git` directory without `HEAD` (an empty one) makes none, and
 * the search goes on above it (docs/agents.md "Codex CLI").
 */
async function codexRepositoryRoot(ctx: AgentContext): Promise<string | null> {
  let dir = ctx.gitRoot;
  while (dir !== null) {
    const git = await stat(join(dir, '.git')).catch(() => undefined);
    if (git !== undefined && (!git.isDirectory() || (await stat(join(dir, '.git', 'HEAD')).catch(() => undefined)))) {
      return dir;
    }
    const parent = dirname(dir);
    dir = parent === dir ? null : parent;
  }
  return null;
}

export const codex: AgentSpec = {
  info: {
    id: 'codex',
    name: 'Codex CLI',
    describes: 'Codex CLI 0.169.0 (verified)',
    confidence: 'verified',
  },
  // Codex reads a SKILL.md of any size (a 1.1 MB one loads); its frontmatter is at the top.
  largeFileHead: 1024 * 1024,
  async roots(ctx) {
    const set = ctx.env.CODEX_HOME;
    const codexHome = set === undefined ? join(ctx.home, '.codex') : envPath(set, ctx);
    if (set !== undefined && !(await isDirectory(codexHome))) {
      return {
        roots: [],
        warnings: [{ skillPath: '', message: `[skillsd] CODEX_HOME is not a directory: ${codexHome}` }],
      };
    }
    const project = ctx.gitRoot ?? ctx.cwd;
    const nearestFirst = walkBetween(ctx.cwd, project);
    const codexWalk =
      ctx.gitRoot === null ? nearestFirst : walkBetween(ctx.cwd, (await codexRepositoryRoot(ctx)) ?? ctx.cwd);
    const roots: AgentRoot[] = [];
    // `<d>/.codex/skills` becomes a root when `<d>/.codex` appears: watched whether it is one yet or not.
    const dirs = codexWalk.map((dir) => join(dir, '.codex', 'skills'));
    for (const dir of codexWalk) {
      const config = join(dir, '.codex');
      if (config !== codexHome && (await isDirectory(config))) {
        roots.push({ path: join(config, 'skills'), scope: 'project', layout: RECURSIVE });
      }
    }
    roots.push({ path: join(codexHome, 'skills'), scope: 'user', layout: RECURSIVE });
    roots.push({ path: join(ctx.home, '.agents', 'skills'), scope: 'user', layout: RECURSIVE });
    roots.push({ path: '/etc/codex/skills', scope: 'admin', layout: RECURSIVE });
    for (const dir of nearestFirst.slice().reverse()) {
      const path = join(dir, '.agents', 'skills');
      // Placed whatever it is now: a root that appears later is then read and watched.
      roots.push({ path, scope: 'project', layout: RECURSIVE });
    }
    const seen = new Set<string>();
    return {
      roots: roots.filter((root) => !seen.has(root.path) && seen.add(root.path) !== undefined),
      warnings: [],
      dirs,
    };
  },
  identity: 'path',
  read(text, found) {
    return readCodexSkill(text, basename(found.baseDir));
  },
  readError: (error) => `failed to read file: ${error}`,
  async sidecar(found, look) {
    const [policy, plugin] = await Promise.all([openaiYaml(found, look), pluginNamespace(found, look)]);
    if (plugin === undefined || policy?.invalid !== undefined) return policy;
    return { ...policy, namePrefix: `${plugin}:` };
  },
  qualifiedNameError: (name) =>
    scalarLength(name) > MAX_QUALIFIED_NAME
      ? `invalid qualified name: exceeds maximum length of ${MAX_QUALIFIED_NAME} characters`
      : undefined,
  precedence: 'all',
  shadowReason(winner) {
    return `shadowed by ${winner.filePath}`;
  },
  afterLoad(skills) {
    const counts = new Map<string, number>();
    for (const skill of skills) counts.set(skill.name, (counts.get(skill.name) ?? 0) + 1);
    const out: SkillWarning[] = [];
    for (const [name, n] of counts) {
      if (n > 1) {
        out.push({
          skillPath: '',
          message: `[skillsd] Codex loads ${n} skills named "${name}"; a $${name} mention selects none of them`,
        });
      }
    }
    return out;
  },
  catalog: codexCatalog,
  defaultWindow: CODEX_DEFAULT_WINDOW,
  defaultModel: CODEX_DEFAULT_MODEL,
  keepsWalkedPath: true,
};

/** `agents/openai.yaml`: its policy may hide the skill from the catalog or exclude it from Codex. */
async function openaiYaml(
  found: Found,
  look: SideLookups,
): Promise<{ hide?: boolean; invalid?: string; warning?: string } | undefined> {
  const entries = (await look.listing(found.baseDir)) ?? [];
  // `agents/openai.yaml` in exact lower case only (Codex 0.169.0, docs/agents.md "Codex CLI").
  const dir = entries.find((entry) => entry === 'agents');
  if (dir === undefined) return undefined;
  const path = join(found.baseDir, dir, 'openai.yaml');
  // Anyone who can write the skill places this file: a FIFO or a link to a device is refused, never waited on.
  const file = await readSideFile(path, MAX_OPENAI_YAML_BYTES);
  if (file.status === 'missing') return undefined;
  if (file.status === 'refused') return { warning: `[skillsd] Codex side file ${path} is not read (${file.why})` };
  let value: unknown;
  try {
    value = parseYaml(file.text);
  } catch {
    return undefined;
  }
  const policy = (value as { policy?: unknown } | null)?.policy as Record<string, unknown> | undefined;
  if (policy === undefined || policy === null || typeof policy !== 'object') return undefined;
  const products = policy.products;
  if (Array.isArray(products) && products.length > 0 && !products.includes('codex')) {
    return { invalid: '[skillsd] Codex skips a skill whose policy.products excludes codex' };
  }
  return policy.allow_implicit_invocation === false ? { hide: true } : undefined;
}

/**
 * The plugin namespace of a skill (docs/agents.md "Codex CLI"): the nearest folder from the skill's own up to the
 * directory holding its root (`<d>` of `<d>/.agents/skills`; the root itself for user roots) with
 * `.codex-plugin/plugin.json` or else `.claude-plugin/plugin.json`; its `name`, or the folder's when empty. A manifest
 * that does not parse gives no namespace.
 */
async function pluginNamespace(found: Found, look: SideLookups): Promise<string | undefined> {
  const limit = found.root.scope === 'project' ? dirname(dirname(found.rootShown)) : found.rootShown;
  if (found.baseDir !== limit && !found.baseDir.startsWith(`${limit}/`)) return undefined;
  for (let dir = found.baseDir; ; dir = dirname(dir)) {
    // A directory listed without the manifest's folder has no manifest: nothing to open (one listing per directory
    // and run, shared by every skill below it). One that cannot be listed is tried as Codex tries it.
    const names = await look.listing(dir);
    for (const kind of ['.codex-plugin', '.claude-plugin']) {
      if (names !== undefined && !names.includes(kind)) continue;
      const file = await look.sideFile(join(dir, kind, 'plugin.json'), MAX_OPENAI_YAML_BYTES);
      if (file.status !== 'ok') continue;
      let manifest: unknown;
      try {
        manifest = JSON.parse(file.text);
      } catch {
        return undefined;
      }
      const name = (manifest as { name?: unknown } | null)?.name;
      return typeof name === 'string' && name.trim() !== '' ? name : basename(dir);
    }
    if (dir === limit || dirname(dir) === dir) return undefined;
  }
}

export function readCodexSkill(text: string, folder: string): ReadOutcome {
  // Codex reads the file as strict UTF-8 (the text here was decoded with replacement characters).
  const bad = text.indexOf('\uFFFD');
  if (bad >= 0) {
    const index = Buffer.byteLength(text.slice(0, bad), 'utf8');
    return { ok: false, message: `failed to read file: invalid utf-8 sequence of 1 bytes from index ${index}` };
  }
  // A BOM is not stripped: the first line is then not `---`.
  const fenced = text.startsWith('\uFEFF') ? null : fencedBlock(text, { trim: true });
  if (fenced === null || fenced.block.trim() === '') {
    return { ok: false, message: 'missing YAML frontmatter delimited by ---' };
  }
  const duplicate = duplicateField(fenced.block);
  if (duplicate !== undefined) return { ok: false, message: `invalid YAML: duplicate field \`${duplicate}\`` };
  let yaml = readYamlMapping(fenced.block);
  if (!yaml.ok && yaml.tooLarge === true) return { ok: false, message: `invalid YAML: ${yaml.error}` };
  if (!yaml.ok) {
    const repaired = readYamlMapping(repairYaml(fenced.block));
    if (!repaired.ok) return { ok: false, message: `invalid YAML: ${yaml.error}` };
    yaml = repaired;
  }
  const data = yaml.value;
  const nameField = textField(data, 'name', fenced.block);
  if (!nameField.ok) return nameField;
  const written = collapseSpaces(nameField.value ?? '');
  const name = written !== '' ? written : collapseSpaces(folder) || 'skill';
  if (scalarLength(name) > MAX_NAME) {
    return { ok: false, message: `invalid name: exceeds maximum length of ${MAX_NAME} characters` };
  }
  const descriptionField = textField(data, 'description', fenced.block);
  if (!descriptionField.ok) return descriptionField;
  const description = collapseSpaces(descriptionField.value ?? '');
  if (description === '') return { ok: false, message: 'missing field `description`' };
  return { ok: true, name, description, hide: false };
}

/** The top-level lines `key:` of a block, with their line numbers (1-based) and the text after the colon. */
function topLevelLines(block: string, key: string): Array<{ line: number; after: string }> {
  const out: Array<{ line: number; after: string }> = [];
  const lines = block.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.startsWith(`${key}:`)) out.push({ line: i + 1, after: line.slice(key.length + 1) });
  }
  return out;
}

/**
 * Codex deserialises `name` and `description` as fields: either written twice rejects the file, the one whose second
 * `key:` line comes first named. One pass over the lines, none of them cut out: every file is looked at.
 */
function duplicateField(block: string): string | undefined {
  let names = 0;
  let descriptions = 0;
  for (let start = 0; ; ) {
    if (block.startsWith('name:', start) && ++names === 2) return 'name';
    if (block.startsWith('description:', start) && ++descriptions === 2) return 'description';
    const next = block.indexOf('\n', start);
    if (next < 0) return undefined;
    start = next + 1;
  }
}

/**
 * A `name` or `description` as Codex reads it (docs/agents.md "Codex CLI"): a string; a number, a boolean or a flow
 * map as the text written; null or absent as missing; a list or a block map rejects the file.
 */
function textField(
  data: Record<string, unknown>,
  key: string,
  block: string,
): { ok: true; value: string | undefined } | { ok: false; message: string } {
  const value = data[key];
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value === 'string') return { ok: true, value };
  const at = topLevelLines(block, key)[0];
  const raw = (at?.after ?? '').replace(/\s+#.*$/, '').trim();
  if (typeof value === 'number' || typeof value === 'boolean' || raw.startsWith('{')) return { ok: true, value: raw };
  const kind = Array.isArray(value) ? 'sequence' : 'map';
  let line = at?.line ?? 1;
  let column = (at?.after.length ?? 0) - (at?.after.trimStart().length ?? 0) + key.length + 2;
  if (raw === '') {
    // A block value: the position of its first entry.
    const lines = block.split('\n');
    let next = line;
    while (next < lines.length && (lines[next] ?? '').trim() === '') next++;
    const text = lines[next] ?? '';
    line = next + 1;
    column = text.length - text.trimStart().length + 1;
  }
  return {
    ok: false,
    message: `invalid YAML: ${key}: invalid type: ${kind}, expected a string at line ${line} column ${column}`,
  };
}

/**
 * Codex's second reading of a block that is not valid YAML: plain values that hold `: ` or start with a flow or
 * reserved indicator get single-quoted; block scalars are left alone.
 */
export function repairYaml(block: string): string {
  const out: string[] = [];
  let scalarIndent: number | null = null;
  for (const line of block.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (scalarIndent !== null) {
      if (line.trim() === '' || indent > scalarIndent) {
        out.push(line);
        continue;
      }
      scalarIndent = null;
    }
    const colon = line.indexOf(':');
    const key = colon < 0 ? '' : line.slice(0, colon);
    const after = colon < 0 ? '' : line.slice(colon + 1);
    if (colon < 0 || key.trim() === '' || (after !== '' && !/^\s/.test(after))) {
      out.push(line);
      continue;
    }
    const value = after.trim().replace(/\s+#.*$/, '');
    if (value === '' || value.startsWith("'") || value.startsWith('"')) {
      out.push(line);
      continue;
    }
    if (value.startsWith('|') || value.startsWith('>')) {
      scalarIndent = indent;
      out.push(line);
      continue;
    }
    const needsQuotes = /:\s/.test(value) || (/^[[{@`]/.test(value) && !validAlone(value));
    out.push(needsQuotes ? `${key}: '${value.replace(/'/g, "''")}'` : line);
  }
  return out.join('\n');
}

function validAlone(value: string): boolean {
  try {
    parseYaml(value);
    return true;
  } catch {
    return false;
  }
}
