// `GET /context-files`: the AGENTS.md walk (docs/discovery.md §9).

import { Type } from 'typebox';

export const ContextFilesResponse = Type.Object(
  {
    files: Type.Array(
      Type.Object({
        path: Type.String(),
        content: Type.String(),
        level: Type.Enum(['user', 'project']),
        depth: Type.Integer({ description: 'Directories between CWD and the file (0 = CWD)' }),
      }),
      { description: 'Closest first' },
    ),
    diagnostics: Type.Array(
      Type.Object({
        path: Type.String({ description: 'The AGENTS.md not read' }),
        message: Type.String({ description: 'Which link rule skipped it, naming the link, its owner and the rule' }),
      }),
      {
        description: 'AGENTS.md files the walk found but did not read (links another user owns, or leading elsewhere)',
      },
    ),
  },
  { title: 'ContextFiles' },
);
