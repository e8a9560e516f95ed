// Gemini CLI (docs/agents.md "Gemini CLI"): read in google-gemini/gemini-cli (skills loader and manager) and
// checked against the CLI itself (docs/conformance.md). Workspace skills only in a trusted folder; a later root (and,
// inside a root, a later folder) replaces an earlier skill of the same name in its place, with a warning.

import { join } from 'node:path';
import { stat } from '../files/sliced-fs.js';
import type { SkillWarning } from '../types.js';
import { shown } from './agent-context.js';
import { readYamlMapping } from './frontmatter-rules.js';
import { type GeminiSetup, geminiSetup } from './gemini-trust.js';
import { fullCatalog } from './plain-catalog.js';
import type { AgentRoot, AgentSpec, Layout, ReadOutcome } from './types.js';

// `SKILL.md` and `*/SKILL.md` by glob: the root's own file first, then its folders in descending name order; every
// path to a folder (two links to one, a link to `.`) is its own skill.
const LAYOUT: Layout = {
  minDepth: 0,
  maxDepth: 1,
  hidden: 'skip',
  skipNames: ['node_modules'],
  fileLinks: true,
  canonical: false,
  descending: true,
  everyPath: true,
  tooDeep: 'Gemini CLI reads only one level below',
  hiddenReason: 'Gemini CLI skips entries starting with a dot',
};

const UNTRUSTED = 'Gemini CLI reads workspace skills only in a trusted folder';
const SKILLS_OFF = 'Gemini CLI loads no skill: skills.enabled is false in its settings';
const FENCE = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/;
const NAME_LINE = /^\s*name:\s*(.*)$/;
const DESCRIPTION_LINE = /^\s*description:\s*(.*)$/;

/** The CLI's built-in skills in its load order: a file skill of one of these names takes that skill's place. */
const BUILTIN_NAMES = ['skill-creator', 'antigravity-support'];

/** js-yaml's timestamp (YAML 1.1): a plain scalar like this is a Date, not a string. */
const TIMESTAMP =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

const CURRENT_SENTENCE =
  "You have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.";
const LEGACY_SENTENCE =
  "You have access to the following specialized skills. To activate a skill and receive its detailed instructions, you can call the `activate_skill` tool with the skill's name.";

export const geminiCli: AgentSpec = {
  info: {
    id: 'gemini-cli',
    name: 'Gemini CLI',
    describes: 'Gemini CLI 0.61.0 (verified)',
    confidence: 'verified',
  },
  // Gemini CLI works in process.cwd(), the real directory (docs/agents.md "Gemini CLI").
  realWorkspace: true,
  // Without a login the CLI's model is `auto` (Gemini 3): the current catalog sentence.
  defaultModel: 'auto',
  async roots(ctx) {
    const setup = await geminiSetup(ctx);
    const roots = (blocked: { blocked?: string }, workspace: { blocked?: string }): AgentRoot[] => [
      { path: join(setup.home, '.gemini', 'skills'), scope: 'user', layout: LAYOUT, ...blocked },
      { path: join(setup.home, '.agents', 'skills'), scope: 'user', layout: LAYOUT, ...blocked },
      { path: join(ctx.cwd, '.gemini', 'skills'), scope: 'project', layout: LAYOUT, ...blocked, ...workspace },
      { path: join(ctx.cwd, '.agents', 'skills'), scope: 'project', layout: LAYOUT, ...blocked, ...workspace },
    ];
    if (setup.fatal !== undefined) {
      // The CLI stops before it looks for skills: nothing loads, and its message is the one warning.
      const why = `Gemini CLI stops at start: ${setup.fatal.message}`;
      return { roots: roots({ blocked: why }, {}), warnings: [setup.fatal], files: setup.files };
    }
    const warnings: SkillWarning[] = [...setup.warnings];
    if (!setup.skillsEnabled) {
      warnings.push({ skillPath: '', message: `[skillsd] ${SKILLS_OFF}` });
      return { roots: roots({ blocked: SKILLS_OFF }, {}), warnings, files: setup.files };
    }
    if (setup.error !== undefined) warnings.push(setup.error);
    const placed = roots({}, setup.trusted ? {} : { blocked: UNTRUSTED });
    if (!setup.trusted && setup.error === undefined && (await anyDirectory(placed.slice(2)))) {
      warnings.push({
        skillPath: '',
        message: `[skillsd] Gemini CLI does not trust ${ctx.cwd}: workspace skills are not loaded`,
      });
    }
    return { roots: placed, warnings, files: setup.files, refuseName: (name) => disabledReason(setup, name) };
  },
  identity: 'lexical',
  read: readGeminiSkill,
  precedence: 'last',
  shadowReason(winner, _loser, ctx) {
    return `shadowed by ${shown(winner.baseDir, ctx.home)} (later location wins)`;
  },
  onDuplicate(winner, loser) {
    if (winner.filePath === loser.filePath) return [];
    return [
      {
        skillPath: winner.filePath,
        message: `Skill conflict detected: "${winner.name}" from "${winner.filePath}" is overriding the same skill from "${loser.filePath}".`,
      },
    ];
  },
  catalog(skills, _contextWindow, _rootOrder, model) {
    // Load order, a replacement keeping its first place (the engine's order); the built-in skills come first, so a
    // file skill named like one stands in its place.
    const ordered = [
      ...BUILTIN_NAMES.flatMap((name) => skills.filter((skill) => skill.name === name)),
      ...skills.filter((skill) => !BUILTIN_NAMES.includes(skill.name)),
    ];
    const lines = [
      '# Available Agent Skills',
      '',
      legacyModel(model ?? 'auto') ? LEGACY_SENTENCE : CURRENT_SENTENCE,
      '',
      '<available_skills>',
    ];
    for (const skill of ordered) {
      lines.push(
        '  <skill>',
        `    <name>${skill.name}</name>`,
        `    <description>${skill.description}</description>`,
        `    <location>${skill.filePath}</location>`,
        '  </skill>',
      );
    }
    lines.push('</available_skills>');
    // The CLI collapses three or more newlines of its whole system prompt to two.
    const text = ordered.length === 0 ? '' : lines.join('\n').replace(/\n{3,}/g, '\n\n');
    return fullCatalog(ordered, text);
  },
};

function disabledReason(setup: GeminiSetup, name: string): string | undefined {
  const file = setup.disabled.get(name.toLowerCase());
  return file === undefined ? undefined : `Gemini CLI keeps ${name} from the model: skills.disabled in ${file}`;
}

async function anyDirectory(roots: AgentRoot[]): Promise<boolean> {
  const present = await Promise.all(
    roots.map((root) =>
      stat(root.path).then(
        (s) => s.isDirectory(),
        () => false,
      ),
    ),
  );
  return present.some(Boolean);
}

/**
 * The older catalog sentence goes to Gemini models before Gemini 3 (the CLI's `supportsModernFeatures`): aliases are
 * resolved first, and a model not named `gemini-…` is a custom one, which gets the current sentence.
 */
export function legacyModel(model: string): boolean {
  const aliases: Record<string, string> = {
    auto: 'gemini-3-pro-preview',
    pro: 'gemini-3-pro-preview',
    'auto-gemini-3': 'gemini-3-pro-preview',
    'auto-gemini-2.5': 'gemini-2.5-pro',
    flash: 'gemini-3-flash-preview',
    'flash-lite': 'gemini-3.1-flash-lite',
  };
  const trimmed = model.trim();
  const resolved = aliases[trimmed] ?? trimmed;
  return resolved.startsWith('gemini-') && !/^gemini-3(\.|-|$)/.test(resolved);
}

export function readGeminiSkill(text: string, found: { filePath: string }): ReadOutcome {
  const match = FENCE.exec(text);
  if (match === null) return { ok: false, message: 'Gemini CLI finds no frontmatter block', silent: true };
  const block = match[1] as string;
  const yaml = readYamlMapping(block);
  let name: string | undefined;
  let description: string | undefined;
  if (
    yaml.ok &&
    isYamlString(yaml.value.name, 'name', block) &&
    isYamlString(yaml.value.description, 'description', block)
  ) {
    name = yaml.value.name as string;
    description = yaml.value.description as string;
  } else {
    const fallback = lineFallback(block);
    name = fallback.name;
    description = fallback.description;
  }
  if (name === undefined || description === undefined) {
    return { ok: false, message: `[skillsd] Gemini CLI skips ${found.filePath}: no name and description` };
  }
  return { ok: true, name: name.replace(/[:\\/<>*?"|]/g, '-'), description, hide: false };
}

/**
 * A value js-yaml (YAML 1.1, the CLI's reader) takes as a string: a string of the YAML 1.2 reader that is not a plain
 * timestamp (`2024-01-01` is a Date there, and the file goes to the line fallback).
 */
function isYamlString(value: unknown, key: string, block: string): boolean {
  if (typeof value !== 'string') return false;
  if (!TIMESTAMP.test(value)) return true;
  const line = new RegExp(`^${key}[ \\t]*:[ \\t]*(.*)$`, 'm').exec(block);
  const first = (line?.[1] ?? '').trimStart()[0];
  // Quoted, tagged or a block scalar: a string after all.
  return first !== undefined && ['"', "'", '!', '|', '>'].includes(first);
}

/** The CLI's simple parser: `name:` and `description:` lines; a description takes the indented lines below it. */
function lineFallback(block: string): { name?: string; description?: string } {
  const lines = block.split(/\r?\n/);
  let name: string | undefined;
  let description: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const n = NAME_LINE.exec(line);
    if (n !== null) {
      name = (n[1] as string).trim();
      continue;
    }
    const d = DESCRIPTION_LINE.exec(line);
    if (d !== null) {
      const parts = [(d[1] as string).trim()];
      // The lines taken are not looked at again (an indented `name:` below is part of the description).
      while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1] as string)) {
        parts.push((lines[i + 1] as string).trim());
        i++;
      }
      description = parts.filter((part) => part !== '').join(' ');
    }
  }
  return { ...(name === undefined ? {} : { name }), ...(description === undefined ? {} : { description }) };
}
