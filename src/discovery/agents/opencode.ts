// OpenCode (docs/agents.md "OpenCode"): read in its V1 loader (packages/opencode/src/skill). Three scan phases; a
// later load of a name replaces the earlier one.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compareSkills } from '../pipeline/sort-skills.js';
import { envPath, shown, walkBetween } from './agent-context.js';
import { fencedBlock, readYamlMapping } from './frontmatter-rules.js';
import { fullCatalog } from './plain-catalog.js';
import type { AgentContext, AgentRoot, AgentSpec, Layout } from './types.js';

const EXTERNAL: Layout = { minDepth: 0, maxDepth: null, hidden: 'walk', fileLinks: true, canonical: false };
const CONFIG: Layout = {
  ...EXTERNAL,
  hidden: 'skip',
  hiddenReason: 'OpenCode skips hidden directories below its config roots',
};

function flag(ctx: AgentContext, name: string): boolean {
  const value = ctx.env[name];
  return value === 'true' || value === '1';
}

export const opencode: AgentSpec = {
  info: { id: 'opencode', name: 'OpenCode', describes: 'OpenCode 1.x skill/skill.ts@01a97029', confidence: 'source' },
  async roots(ctx) {
    const worktree = ctx.mainWorktree ?? ctx.gitRoot ?? '/';
    const up = walkBetween(ctx.cwd, worktree);
    const external = flag(ctx, 'OPENCODE_DISABLE_EXTERNAL_SKILLS')
      ? 'OpenCode does not read .claude and .agents skills while OPENCODE_DISABLE_EXTERNAL_SKILLS is set'
      : undefined;
    const blocked = external === undefined ? {} : { blocked: external };
    const roots: AgentRoot[] = [
      { path: join(ctx.home, '.claude', 'skills'), scope: 'user', layout: EXTERNAL, phase: 1, ...blocked },
      { path: join(ctx.home, '.agents', 'skills'), scope: 'user', layout: EXTERNAL, phase: 1, ...blocked },
    ];
    for (const dir of up) {
      roots.push({ path: join(dir, '.claude', 'skills'), scope: 'project', layout: EXTERNAL, phase: 2, ...blocked });
      roots.push({ path: join(dir, '.agents', 'skills'), scope: 'project', layout: EXTERNAL, phase: 2, ...blocked });
    }
    const xdg = ctx.env.XDG_CONFIG_HOME;
    const configs: Array<{ dir: string; scope: 'user' | 'project'; blocked?: string }> = [
      {
        dir: xdg === undefined ? join(ctx.home, '.config', 'opencode') : join(envPath(xdg, ctx), 'opencode'),
        scope: 'user',
      },
    ];
    const noProject = flag(ctx, 'OPENCODE_DISABLE_PROJECT_CONFIG');
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
    for (const config of configs) {
      for (const name of ['skill', 'skills']) {
        roots.push({
          path: join(config.dir, name),
          scope: config.scope,
          layout: CONFIG,
          phase: 3,
          ...(config.blocked === undefined ? {} : { blocked: config.blocked }),
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
    const fenced = fencedBlock(text);
    let data: Record<string, unknown> = {};
    if (fenced !== null) {
      let yaml = readYamlMapping(fenced.block);
      if (!yaml.ok) yaml = readYamlMapping(fallbackBlock(fenced.block));
      if (!yaml.ok) return { ok: false, message: `${found.filePath}: Failed to parse YAML frontmatter` };
      data = yaml.value;
    }
    const name = data.name;
    const description = data.description;
    if (typeof name !== 'string' || typeof description !== 'string') {
      return {
        ok: false,
        message: `[skillsd] OpenCode skips ${found.filePath}: name and description must both be strings`,
      };
    }
    return { ok: true, name, description, hide: false };
  },
  precedence: 'last',
  shadowReason(winner, _loser, ctx) {
    return `shadowed by ${shown(winner.baseDir, ctx.home)} (later location wins)`;
  },
  onDuplicate(winner, loser, winnerFound, loserFound) {
    const out = [{ skillPath: winner.filePath, message: 'duplicate skill name' }];
    if (winnerFound.root.phase === loserFound.root.phase && winner.filePath !== loser.filePath) {
      out.push({
        skillPath: '',
        message: `[skillsd] OpenCode loads "${winner.name}" from either ${loser.filePath} or ${winner.filePath} (same scan phase, timing decides); skillsd assumes ${winner.filePath}`,
      });
    }
    return out;
  },
  catalog(skills) {
    const sorted = skills.slice().sort(compareSkills);
    const lines = [
      'Skills provide specialized instructions and workflows for specific tasks.',
      'Use the skill tool to load a skill when a task matches its description.',
      '<available_skills>',
    ];
    for (const skill of sorted) {
      lines.push(
        '  <skill>',
        `    <name>${skill.name}</name>`,
        `    <description>${skill.description}</description>`,
        `    <location>${pathToFileURL(skill.filePath).href}</location>`,
        '  </skill>',
      );
    }
    lines.push('</available_skills>');
    return fullCatalog(sorted, sorted.length === 0 ? '' : lines.join('\n'));
  },
};

/** OpenCode's second reading: a top-level unquoted value holding `:` becomes a block scalar. */
export function fallbackBlock(block: string): string {
  const out: string[] = [];
  for (const line of block.split('\n')) {
    const match = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    const value = match?.[2] ?? '';
    if (match !== null && value.includes(':') && !/^['"]/.test(value)) {
      out.push(`${match[1]}: |-`, `  ${value}`);
    } else out.push(line);
  }
  return out.join('\n');
}
