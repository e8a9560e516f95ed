// Gemini CLI (docs/agents.md "Gemini CLI"): read in google-gemini/gemini-cli (skills loader and manager). Workspace
// skills only in a trusted folder; a later root replaces an earlier one of the same name, with a warning.

import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SkillWarning } from '../types.js';
import { shown } from './agent-context.js';
import { readYamlMapping } from './frontmatter-rules.js';
import { geminiHome, geminiTrust } from './gemini-trust.js';
import { fullCatalog } from './plain-catalog.js';
import type { AgentRoot, AgentSpec, Layout, ReadOutcome } from './types.js';

const LAYOUT: Layout = {
  minDepth: 0,
  maxDepth: 1,
  hidden: 'skip',
  skipNames: ['node_modules'],
  fileLinks: true,
  canonical: false,
  tooDeep: 'Gemini CLI reads only one level below',
  hiddenReason: 'Gemini CLI skips entries starting with a dot',
};

const UNTRUSTED = 'Gemini CLI reads workspace skills only in a trusted folder';
const FENCE = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/;
const NAME_LINE = /^\s*name:\s*(.*)$/;
const DESCRIPTION_LINE = /^\s*description:\s*(.*)$/;

export const geminiCli: AgentSpec = {
  info: {
    id: 'gemini-cli',
    name: 'Gemini CLI',
    describes: 'gemini-cli@5411f113 (0.56.0-nightly)',
    confidence: 'source',
  },
  async roots(ctx) {
    const home = geminiHome(ctx);
    const trust = await geminiTrust(ctx);
    const warnings: SkillWarning[] = [...trust.warnings];
    if (trust.error !== undefined) warnings.push({ skillPath: trust.error.file, message: trust.error.message });
    const blocked = trust.trusted && trust.error === undefined ? {} : { blocked: UNTRUSTED };
    const workspace: AgentRoot[] = [
      { path: join(ctx.cwd, '.gemini', 'skills'), scope: 'project', layout: LAYOUT, ...blocked },
      { path: join(ctx.cwd, '.agents', 'skills'), scope: 'project', layout: LAYOUT, ...blocked },
    ];
    if (!trust.trusted && trust.error === undefined) {
      const present = await Promise.all(
        workspace.map((root) =>
          stat(root.path).then(
            (s) => s.isDirectory(),
            () => false,
          ),
        ),
      );
      if (present.some(Boolean)) {
        warnings.push({
          skillPath: '',
          message: `[skillsd] Gemini CLI does not trust ${ctx.cwd}: workspace skills are not loaded`,
        });
      }
    }
    return {
      roots: [
        { path: join(home, '.gemini', 'skills'), scope: 'user', layout: LAYOUT },
        { path: join(home, '.agents', 'skills'), scope: 'user', layout: LAYOUT },
        ...workspace,
      ],
      warnings,
      files: trust.files,
    };
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
  catalog(skills) {
    // In the order names first appeared: a replacement keeps its place (the engine's load order).
    const lines = [
      '# Available Agent Skills',
      '',
      "You have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.",
      '',
      '<available_skills>',
    ];
    for (const skill of skills) {
      lines.push(
        '  <skill>',
        `    <name>${skill.name}</name>`,
        `    <description>${skill.description}</description>`,
        `    <location>${skill.filePath}</location>`,
        '  </skill>',
      );
    }
    lines.push('</available_skills>');
    return fullCatalog(skills, skills.length === 0 ? '' : lines.join('\n'));
  },
};

export function readGeminiSkill(text: string, found: { filePath: string }): ReadOutcome {
  const match = FENCE.exec(text);
  if (match === null) return { ok: false, message: 'Gemini CLI finds no frontmatter block', silent: true };
  const block = match[1] as string;
  const yaml = readYamlMapping(block);
  let name: string | undefined;
  let description: string | undefined;
  if (yaml.ok && typeof yaml.value.name === 'string' && typeof yaml.value.description === 'string') {
    name = yaml.value.name;
    description = yaml.value.description;
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

function lineFallback(block: string): { name?: string; description?: string } {
  const lines = block.split(/\r?\n/);
  let name: string | undefined;
  let description: string | undefined;
  for (const [i, line] of lines.entries()) {
    const n = NAME_LINE.exec(line);
    if (n !== null) name = (n[1] as string).trim();
    const d = DESCRIPTION_LINE.exec(line);
    if (d !== null) {
      const parts = [(d[1] as string).trim()];
      for (let j = i + 1; j < lines.length && /^[ \t]+\S/.test(lines[j] as string); j++) {
        parts.push((lines[j] as string).trim());
      }
      description = parts.filter((part) => part !== '').join(' ');
    }
  }
  return { ...(name === undefined ? {} : { name }), ...(description === undefined ? {} : { description }) };
}
