// The page at `/ui` and the one answer only it needs (docs/api.md "GET /ui").

import { Type } from 'typebox';
import { CwdProperty } from './common.js';

export const UiPageQuery = Type.Object({
  cwd: Type.Optional(CwdProperty),
});

export const UiSkillPageParams = Type.Object({
  name: Type.String({ description: 'The skill the page shows; an unknown one is said so on the page' }),
});

export const UiAssetParams = Type.Object({
  file: Type.String({
    description: 'A file of the page: its scripts (`app.js` and the modules it imports), `style.css`, `icon.svg`',
  }),
});

export const UiPageOk = {
  description: 'The page (the same document for every view; it reads the data with the token it holds)',
  content: { 'text/html': { schema: Type.String() } },
};

export const UiAssetOk = {
  description: 'A script, style sheet or icon of the page',
  content: {
    'text/javascript': { schema: Type.String() },
    'text/css': { schema: Type.String() },
    'image/svg+xml': { schema: Type.String() },
  },
};

export const UiRenderParams = Type.Object({
  name: Type.String({ description: 'Skill name' }),
});

export const UiRenderResponse = Type.Object(
  {
    name: Type.String(),
    generation: Type.Integer({ description: 'The index generation the skill was looked up in' }),
    html: Type.String({
      description:
        'The SKILL.md body (frontmatter removed) as HTML: raw HTML escaped, no script, no event handler, no ' +
        '`javascript:`/`data:` link, images only from this daemon (relative ones through the file route)',
    }),
    truncated: Type.Boolean({ description: 'True when the file was longer than 1 MiB and only its head is shown' }),
  },
  { title: 'RenderedSkillBody' },
);
