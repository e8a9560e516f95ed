// Codex CLI (docs/agents.md "Codex CLI"): read in openai/codex, crate core-skills (loader, discovery, render).

import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseYaml } from '../frontmatter/frontmatter-yaml.js';
import type { SkillWarning } from '../types.js';
import { envPath, walkBetween } from './agent-context.js';
import { CODEX_DEFAULT_WINDOW, codexCatalog } from './codex-catalog.js';
import { collapseSpaces, fencedBlock, readYamlMapping, scalarLength, stringField } from './frontmatter-rules.js';
import { readSideFile } from './side-file.js';
import type { AgentRoot, AgentSpec, Layout, ReadOutcome } from './types.js';

const MAX_NAME = 64;
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
  hiddenReason: 'Codex skips hidden directories',
};

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

export const codex: AgentSpec = {
  info: {
    id: 'codex',
    name: 'Codex CLI',
    describes: 'openai/codex core-skills loader.rs@6162409b, render.rs@428dd6c6',
    confidence: 'source',
  },
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
    const roots: AgentRoot[] = [];
    // `<d>/.codex/skills` becomes a root when `<d>/.codex` appears: watched whether it is one yet or not.
    const dirs = nearestFirst.map((dir) => join(dir, '.codex', 'skills'));
    for (const dir of nearestFirst) {
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
  async sidecar(found) {
    const entries = await readdir(found.baseDir).catch(() => [] as string[]);
    const dir = entries.find((entry) => entry.toLowerCase() === 'agents');
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
  },
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
};

export function readCodexSkill(text: string, folder: string): ReadOutcome {
  const fenced = fencedBlock(text, { trim: true });
  if (fenced === null || fenced.block.trim() === '') {
    return { ok: false, message: 'missing YAML frontmatter delimited by ---' };
  }
  let yaml = readYamlMapping(fenced.block);
  if (!yaml.ok && yaml.tooLarge === true) return { ok: false, message: `invalid YAML: ${yaml.error}` };
  if (!yaml.ok) {
    const repaired = readYamlMapping(repairYaml(fenced.block));
    if (!repaired.ok) return { ok: false, message: `invalid YAML: ${yaml.error}` };
    yaml = repaired;
  }
  const data = yaml.value;
  const written = collapseSpaces(stringField(data, 'name') ?? '');
  const name = written !== '' ? written : collapseSpaces(folder) || 'skill';
  if (scalarLength(name) > MAX_NAME) {
    return { ok: false, message: `invalid name: exceeds maximum length of ${MAX_NAME} characters` };
  }
  const description = collapseSpaces(stringField(data, 'description') ?? '');
  if (description === '') return { ok: false, message: 'missing field `description`' };
  return { ok: true, name, description, hide: false };
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
