// GitHub Copilot CLI (docs/agents.md "GitHub Copilot CLI"): closed source; the rules are the ones the pinned release
// was measured to follow (docs/conformance.md).

import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import type * as Yaml from 'yaml';
import { stat } from '../files/sliced-fs.js';
import { envPath, shown, walkBetween } from './agent-context.js';
import { fencedBlock, isSimpleShape, isTrue, readYamlMapping, type YamlRead } from './frontmatter-rules.js';
import { simpleBlockLines } from './simple-block-lines.js';
import type { AgentContext, AgentRoot, AgentSkill, AgentSpec, CatalogAnswer, CatalogEntry, Layout } from './types.js';

/**
 * Recursive, no depth limit; hidden directories skipped; a folder holding SKILL.md is a leaf (a SKILL.md directly in
 * a root makes the root one skill); a directory named SKILL.md is walked; candidates ordered by their whole path.
 */
const LAYOUT: Layout = {
  minDepth: 0,
  maxDepth: null,
  hidden: 'skip',
  fileLinks: true,
  canonical: false,
  hiddenReason: 'Copilot CLI skips hidden directories',
  leaf: true,
  pathOrder: true,
};

/** Copilot CLI's skill sources, in load order: the catalog orders by name only between skills of one source. */
export type CopilotSource = 'project' | 'inherited' | 'personal-copilot' | 'personal-agents' | 'custom' | 'builtin';

const SOURCE_LOCATION: Record<CopilotSource, string> = {
  project: 'project',
  inherited: 'project',
  'personal-copilot': 'user',
  'personal-agents': 'user',
  custom: 'custom',
  builtin: 'builtin',
};

/** The skills shipped inside the package: listed after the file skills, in the catalog and its allowance. */
export const COPILOT_BUILTIN_SKILLS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'customize-cloud-agent',
    description:
      'Skill for customizing the Copilot cloud agent (formerly known as Copilot coding agent) environment, including ' +
      'copilot-setup-steps.yml configuration, preinstalling tools and dependencies, runners, and settings. Use when ' +
      'the user mentions copilot-setup-steps, copilot setup steps, or wants to configure the cloud agent environment.',
  },
  {
    name: 'github-pr-media',
    description:
      "Upload an image or video to GitHub's user attachments API and embed it in a pull request description or " +
      'comment. Use when asked to add screenshots, diagrams, recordings, or other media to a PR or GitHub comment.',
  },
];

/** Characters of whole catalog entries kept; the entries past it are only named. */
export const COPILOT_CATALOG_ALLOWANCE = 15_000;

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _.:-]*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

export const copilotCli: AgentSpec = {
  info: {
    id: 'copilot-cli',
    name: 'GitHub Copilot CLI',
    describes: 'GitHub Copilot CLI 1.0.102 (verified)',
    confidence: 'verified',
  },
  realWorkspace: true,
  async roots(ctx) {
    const repo = await repositoryRoot(ctx);
    // Without a repository the walk goes up to HOME inclusive (to `/` from outside HOME).
    const levels = walkBetween(ctx.cwd, repo ?? ctx.home);
    const origin = (dir: string): CopilotSource => (dir === ctx.cwd ? 'project' : 'inherited');
    const roots: AgentRoot[] = [];
    for (const kind of ['.github', '.agents', '.claude']) {
      for (const dir of levels) {
        // HOME's `.claude/skills` is Claude Code's personal root: never read as a project root.
        if (kind === '.claude' && dir === ctx.home) continue;
        roots.push(root(join(dir, kind, 'skills'), 'project', origin(dir)));
      }
    }
    const set = ctx.env.COPILOT_HOME;
    const copilotHome = set === undefined ? join(ctx.home, '.copilot') : envPath(set, ctx);
    roots.push(root(join(copilotHome, 'skills'), 'user', 'personal-copilot'));
    if (copilotHome === resolve(ctx.home, '.copilot')) {
      roots.push(root(join(ctx.home, '.agents', 'skills'), 'user', 'personal-agents'));
    }
    for (const dir of (ctx.env.COPILOT_SKILLS_DIRS ?? '').split(',')) {
      if (dir.trim() !== '') roots.push(root(envPath(dir.trim(), ctx), 'user', 'custom'));
    }
    return { roots, warnings: [] };
  },
  identity: 'lexical',
  read(text, found) {
    const fenced = fencedBlock(text, { bom: true });
    if (fenced === null) return reject('missing or malformed YAML frontmatter');
    const yaml = readYamlMapping(fenced.block);
    if (!yaml.ok) return reject(`failed to parse YAML frontmatter: ${yaml.error}`);
    const duplicate = duplicateKey(fenced.block, yaml);
    if (duplicate !== undefined)
      return reject(`failed to parse YAML frontmatter: duplicate entry with key "${duplicate}"`);
    const data = yaml.value;
    let name: string;
    const written = data.name;
    if (written === undefined || written === null) {
      const folder = basename(found.baseDir);
      if (!validName(folder)) return reject('could not derive a valid skill name from the folder path');
      name = folder;
    } else {
      if (typeof written !== 'string') return reject('Skill name must be a string');
      if (written === '') return reject('Skill name must not be empty');
      if (written.length > MAX_NAME) return reject(`Skill name must be at most ${MAX_NAME} characters`);
      if (!NAME_PATTERN.test(written)) {
        return reject(
          'Skill name must start with an ASCII letter or number and contain only ASCII letters (a-z, A-Z), numbers, ' +
            'hyphens, underscores, dots, colons, and spaces',
        );
      }
      name = written;
    }
    let description: string;
    const given = data.description;
    if (given === undefined || given === null) {
      description = firstBodyLine(fenced.body);
    } else {
      if (typeof given !== 'string') return reject('Skill description must be a string');
      if (given.length > MAX_DESCRIPTION)
        return reject(`Skill description must be at most ${MAX_DESCRIPTION} characters`);
      // A block scalar's final line break (`>`, `|`) is not kept.
      description = given.replace(/\n+$/, '');
    }
    return {
      ok: true,
      // Spaces become hyphens, so `a b` and `a-b` are one name.
      name: name.replaceAll(' ', '-'),
      description,
      hide: isTrue(data['disable-model-invocation']),
      ...(found.root.origin === undefined ? {} : { extra: found.root.origin }),
    };
  },
  precedence: 'first',
  shadowReason(winner, _loser, ctx) {
    return `shadowed by ${shown(winner.baseDir, ctx.home)} (the first loaded wins)`;
  },
  catalog(skills) {
    return copilotCatalog(skills);
  },
};

function root(path: string, scope: AgentRoot['scope'], origin: CopilotSource): AgentRoot {
  return { path, scope, layout: LAYOUT, origin };
}

function reject(message: string): { ok: false; message: string } {
  return { ok: false, message: `[skillsd] Copilot CLI: ${message}` };
}

/** A folder-derived name follows the written name's rules. */
function validName(name: string): boolean {
  return name !== '' && name.length <= MAX_NAME && NAME_PATTERN.test(name);
}

/** The first line of the body that is neither blank nor a heading, trimmed; none: `""`. */
function firstBodyLine(body: string): string {
  for (const line of body.split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '' && !trimmed.startsWith('#')) return trimmed;
  }
  return '';
}

/**
 * `git rev-parse`'s root: the nearest ancestor holding a `.git` file or a `.git` directory with a `HEAD` (an empty
 * `.git` directory is no repository, and the search goes on above it); null without one.
 */
async function repositoryRoot(ctx: AgentContext): Promise<string | null> {
  if (ctx.gitRoot === null) return null;
  for (const dir of walkBetween(ctx.gitRoot, '/')) {
    const git = await stat(join(dir, '.git')).catch(() => undefined);
    if (git === undefined) continue;
    if (git.isFile()) return dir;
    if (git.isDirectory()) {
      const head = await stat(join(dir, '.git', 'HEAD')).catch(() => undefined);
      if (head?.isFile() === true) return dir;
    }
  }
  return null;
}

let yamlModule: typeof Yaml | undefined;

/**
 * The first key written twice in one mapping (at any depth), which Copilot CLI's YAML reader refuses. A block of the
 * simple shapes whose lines hold no key twice has none (simple-block-lines.ts): it is not parsed a second time.
 */
export function duplicateKey(block: string, read: YamlRead): string | undefined {
  if (read.ok && isSimpleShape(read) && !simpleBlockLines(read, block).repeatedKey) return undefined;
  return duplicateKeyWithYaml(block);
}

/** `duplicateKey` without its fast path: what every fast answer must equal. */
export function duplicateKeyWithYaml(block: string): string | undefined {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  const yaml = yamlModule;
  let document: Yaml.Document;
  try {
    document = yaml.parseDocument(block, { uniqueKeys: false, logLevel: 'silent', prettyErrors: false });
  } catch {
    return undefined;
  }
  const pending: unknown[] = [document.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (yaml.isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = yaml.isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key !== undefined) {
          if (seen.has(key)) return key;
          seen.add(key);
        }
        pending.push(pair.value);
      }
    } else if (yaml.isSeq(node)) {
      pending.push(...node.items);
    }
  }
  return undefined;
}

function sourceOf(skill: AgentSkill): CopilotSource {
  return (skill.extra as CopilotSource | undefined) ?? 'project';
}

/**
 * Copilot CLI's list order: load order, then a stable sort whose comparison orders two skills by name (UTF-16 code
 * units) when they come from one source and calls them equal otherwise. That comparison is not a total order, so the
 * result is the one V8's sort gives (binary insertion for short lists): skills of one source end up sorted among
 * themselves while the sources stay in load order in the usual trees (docs/agents.md "GitHub Copilot CLI").
 */
export function copilotOrder<T extends { name: string; source: CopilotSource }>(items: T[]): T[] {
  return items.slice().sort((a, b) => (a.source !== b.source ? 0 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function escapeXml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/**
 * The `<available_skills>` block: one `<skill>` entry per skill the model may invoke (the built-in ones after the file
 * skills; a file skill takes a built-in's name from it), whole entries kept while they total at most 15,000
 * characters; the first that does not fit and every one after it only named on the `Additional skills` line.
 */
export function copilotCatalog(skills: AgentSkill[]): CatalogAnswer {
  const names = new Set(skills.map((skill) => skill.name));
  const listed = [
    ...skills.map((skill) => ({
      name: skill.name,
      description: skill.description,
      source: sourceOf(skill),
      hide: skill.hide,
      file: true,
    })),
    ...COPILOT_BUILTIN_SKILLS.filter((skill) => !names.has(skill.name)).map((skill) => ({
      ...skill,
      source: 'builtin' as const,
      hide: false,
      file: false,
    })),
  ];
  const entries: CatalogEntry[] = [];
  const overflow: string[] = [];
  let text = '<available_skills>\n';
  let used = 0;
  for (const skill of copilotOrder(listed)) {
    if (skill.hide) continue;
    const entry =
      '<skill>\n' +
      `  <name>${escapeXml(skill.name)}</name>\n` +
      `  <description>${escapeXml(skill.description)}</description>\n` +
      `  <location>${SOURCE_LOCATION[skill.source]}</location>\n` +
      '</skill>\n';
    const fits = overflow.length === 0 && used + entry.length <= COPILOT_CATALOG_ALLOWANCE;
    if (fits) {
      text += entry;
      used += entry.length;
    } else {
      overflow.push(escapeXml(skill.name));
    }
    if (skill.file) {
      entries.push({
        name: skill.name,
        status: fits ? 'full' : 'name-only',
        chars: fits ? skill.description.length : 0,
      });
    }
  }
  if (overflow.length > 0) text += `Additional skills available (invoke by name): ${overflow.join(', ')}\n`;
  text += '</available_skills>';
  return {
    contextWindow: null,
    unit: 'chars',
    limit: COPILOT_CATALOG_ALLOWANCE,
    used,
    entries,
    text,
    warnings: [],
  };
}
