// VS Code with Copilot Chat (docs/agents.md "VS Code (Copilot Chat)"): read in microsoft/vscode (promptsServiceImpl.ts); settings at
// their defaults, the workspace trusted. A skill is always named after its folder.

import { basename, join } from 'node:path';
import { shown } from './agent-context.js';
import { fencedBlock, isTrue, readYamlMapping, stringField, stripTags } from './frontmatter-rules.js';
import { fullCatalog } from './plain-catalog.js';
import type { AgentSpec, Layout } from './types.js';

const LAYOUT: Layout = {
  minDepth: 1,
  maxDepth: 1,
  hidden: 'walk',
  fileLinks: true,
  canonical: false,
  tooDeep: 'VS Code reads only the folders directly in',
};

const DESCRIPTION_CAP = 1024;

export const vscode: AgentSpec = {
  info: {
    id: 'vscode',
    name: 'VS Code (Copilot Chat)',
    describes: 'vscode promptsServiceImpl.ts@00eacc90',
    confidence: 'source',
  },
  async roots(ctx) {
    const project = ['.github', '.agents', '.claude'].map((kind) => ({
      path: join(ctx.cwd, kind, 'skills'),
      scope: 'project' as const,
      layout: LAYOUT,
    }));
    const user = ['.copilot', '.agents', '.claude'].map((kind) => ({
      path: join(ctx.home, kind, 'skills'),
      scope: 'user' as const,
      layout: LAYOUT,
    }));
    return { roots: [...project, ...user], warnings: [] };
  },
  identity: 'lexical',
  read(text, found) {
    const fenced = fencedBlock(text);
    let data: Record<string, unknown> = {};
    if (fenced !== null) {
      const yaml = readYamlMapping(fenced.block);
      // A header that is not valid YAML is read as an empty one (docs/agents.md "VS Code (Copilot Chat)").
      if (yaml.ok) data = yaml.value;
    }
    const folder = basename(found.baseDir);
    const written = stripTags(stringField(data, 'description') ?? '');
    const description = written.length > DESCRIPTION_CAP ? written.slice(0, DESCRIPTION_CAP) : written;
    return {
      ok: true,
      name: folder,
      description,
      hide: isTrue(data['disable-model-invocation']),
      ...(written.length > DESCRIPTION_CAP ? { cutAtLoad: true } : {}),
    };
  },
  readError: (_error, found) => `[computeSkillDiscoveryInfo] Failed to validate Agent skill file: ${found.filePath}`,
  precedence: 'first',
  shadowReason(winner, _loser, ctx) {
    return `shadowed by ${shown(winner.baseDir, ctx.home)} (workspace beats user, first found wins)`;
  },
  onDuplicate(_winner, loser) {
    return [
      {
        skillPath: loser.filePath,
        message: `[computeSkillDiscoveryInfo] Skipping duplicate agent skill name: ${loser.name} at ${loser.filePath}`,
      },
    ];
  },
  catalog(skills) {
    const listed = skills.filter((skill) => !skill.hide);
    const lines = [
      '<skills>',
      'Here is a list of skills that contain domain specific knowledge on a variety of topics.',
      'Each skill comes with a description of the topic and a file path that contains the detailed instructions.',
      "When a user asks you to perform a task that falls within the domain of a skill, use the 'read_file' tool to acquire the full instructions from the file URI.",
    ];
    for (const skill of listed) {
      lines.push(
        '<skill>',
        `<name>${skill.name}</name>`,
        `<description>${skill.description}</description>`,
        `<file>${skill.filePath}</file>`,
        '</skill>',
      );
    }
    lines.push('</skills>');
    return fullCatalog(listed, listed.length === 0 ? '' : lines.join('\n'));
  },
};
