// Goose (docs/agents.md "Goose"): read in block/goose (skills/mod.rs). Recursive roots, canonical paths, the first
// skill of a name wins, project before user.

import { isAbsolute, join } from 'node:path';
import { compareSkills } from '../pipeline/sort-skills.js';
import { shown } from './agent-context.js';
import { readYamlMapping } from './frontmatter-rules.js';
import { fullCatalog } from './plain-catalog.js';
import type { AgentContext, AgentSpec, Layout } from './types.js';

const LAYOUT: Layout = {
  minDepth: 0,
  maxDepth: null,
  hidden: 'walk',
  skipNames: ['.git', '.hg', '.svn'],
  fileLinks: true,
  canonical: true,
};

const PREFIX =
  '\n\nYou have these skills at your disposal, when it is clear they can help you solve a problem or you are asked to use them:';

function gooseConfig(ctx: AgentContext): string {
  const root = ctx.env.GOOSE_PATH_ROOT;
  if (root !== undefined && isAbsolute(root)) return join(root, 'config');
  const xdg = ctx.env.XDG_CONFIG_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'goose');
  return join(ctx.home, '.config', 'goose');
}

export const goose: AgentSpec = {
  info: { id: 'goose', name: 'Goose', describes: 'block/goose skills/mod.rs@013ab848', confidence: 'source' },
  async roots(ctx) {
    const project = ['.agents', '.goose', '.claude'].map((kind) => join(ctx.cwd, kind, 'skills'));
    const user = [
      join(ctx.home, '.agents', 'skills'),
      join(gooseConfig(ctx), 'skills'),
      join(ctx.home, '.claude', 'skills'),
      join(ctx.home, '.config', 'agents', 'skills'),
    ];
    return {
      roots: [
        ...project.map((path) => ({ path, scope: 'project' as const, layout: LAYOUT })),
        ...user.map((path) => ({ path, scope: 'user' as const, layout: LAYOUT })),
      ],
      warnings: [],
    };
  },
  identity: 'lexical',
  read(text, found) {
    // The text between the first two `---` anywhere (Goose splits the whole text at `---`), found without splitting.
    const open = text.indexOf('---');
    const close = open < 0 ? -1 : text.indexOf('---', open + 3);
    if (close < 0) return { ok: false, message: 'Goose finds no frontmatter', silent: true };
    const yaml = readYamlMapping(text.slice(open + 3, close).trim());
    if (!yaml.ok) return { ok: false, message: `Failed to parse skill frontmatter: ${yaml.error}` };
    const name = yaml.value.name;
    if (typeof name !== 'string' || name === '') {
      return {
        ok: false,
        message: `Skill at '${found.baseDir}' is missing a required 'name' in frontmatter, skipping`,
      };
    }
    if (name.includes('/')) return { ok: false, message: `Skill name '${name}' contains '/', skipping` };
    const description = yaml.value.description;
    return { ok: true, name, description: typeof description === 'string' ? description : '', hide: false };
  },
  precedence: 'first',
  shadowReason(winner, _loser, ctx) {
    return `shadowed by ${shown(winner.baseDir, ctx.home)} (first found wins: project before user)`;
  },
  catalog(skills) {
    const sorted = skills.slice().sort((a, b) => compareSkills(a, b));
    const text = sorted.length === 0 ? '' : PREFIX + sorted.map((s) => `\n• ${s.name} - ${s.description}`).join('');
    return fullCatalog(sorted, text);
  },
};
