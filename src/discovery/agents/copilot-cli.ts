// GitHub Copilot CLI (docs/agents.md "GitHub Copilot CLI"): closed source; the rules come from its changelog and docs.

import { basename, join } from 'node:path';
import { compareSkills } from '../pipeline/sort-skills.js';
import { envPath, projectWalk, shown } from './agent-context.js';
import { fencedBlock, isTrue, readYamlMapping, stringField } from './frontmatter-rules.js';
import { fullCatalog } from './plain-catalog.js';
import type { AgentRoot, AgentSpec, Layout } from './types.js';

const LAYOUT: Layout = {
  minDepth: 0,
  maxDepth: null,
  hidden: 'skip',
  fileLinks: true,
  canonical: false,
  hiddenReason: 'Copilot CLI skips hidden directories',
};

export const copilotCli: AgentSpec = {
  info: {
    id: 'copilot-cli',
    name: 'GitHub Copilot CLI',
    describes: 'Copilot CLI 1.0.78 (changelog @9532bdac)',
    confidence: 'docs',
  },
  async roots(ctx) {
    const roots: AgentRoot[] = [];
    for (const dir of projectWalk(ctx)) {
      for (const kind of ['.github', '.claude', '.agents']) {
        roots.push({ path: join(dir, kind, 'skills'), scope: 'project', layout: LAYOUT });
      }
    }
    const set = ctx.env.COPILOT_HOME;
    roots.push({
      path: set === undefined ? join(ctx.home, '.copilot', 'skills') : join(envPath(set, ctx), 'skills'),
      scope: 'user',
      layout: LAYOUT,
    });
    if (set === undefined) roots.push({ path: join(ctx.home, '.agents', 'skills'), scope: 'user', layout: LAYOUT });
    return { roots, warnings: [] };
  },
  identity: 'lexical',
  read(text, found) {
    const fenced = fencedBlock(text, { bom: true });
    let data: Record<string, unknown> = {};
    if (fenced !== null) {
      const yaml = readYamlMapping(fenced.block);
      if (!yaml.ok)
        return { ok: false, message: `[skillsd] Copilot CLI cannot parse the frontmatter of ${found.filePath}` };
      data = yaml.value;
    }
    const written = stringField(data, 'name')?.trim();
    const name = written !== undefined && written !== '' ? written : basename(found.baseDir);
    if (/[^\x00-\x7F]/.test(name)) {
      return {
        ok: false,
        message: `[skillsd] Copilot CLI rejects the skill name "${name}": only ASCII characters are allowed`,
      };
    }
    return {
      ok: true,
      name,
      description: stringField(data, 'description') ?? '',
      hide: isTrue(data['disable-model-invocation']),
    };
  },
  precedence: 'first',
  shadowReason(winner, loser, ctx) {
    const why = winner.source.scope === loser.source.scope ? 'first found wins' : 'project beats personal';
    return `shadowed by ${shown(winner.baseDir, ctx.home)} (${why})`;
  },
  catalog(skills) {
    const sorted = skills.slice().sort(compareSkills);
    const text = sorted.map((skill) => `- ${skill.name}: ${skill.description}`).join('\n');
    return fullCatalog(sorted, text, [
      '[skillsd] Copilot CLI limits its skill catalog by tokens; the size of that limit is not published',
    ]);
  },
};
