// `GET /health`: liveness and a summary of the default workspace.

import { Type } from 'typebox';

export const HealthResponse = Type.Object(
  {
    status: Type.Enum(['ok', 'starting', 'overloaded'], {
      description:
        '`starting` until the default workspace is first indexed; `overloaded` while other routes answer 503 `Overloaded`',
    }),
    generation: Type.Integer({ description: 'Generation of the default workspace (0 before its first index)' }),
    generationMode: Type.Enum(['counter', 'content'], {
      description:
        'How generations are made (`server.generation`): `counter` grows by one per change; `content` is read from the content hash, changes exactly when the answer does and does not grow (compare it for equality only)',
    }),
    skills: Type.Integer({ description: 'Skills loaded in the default workspace' }),
    diagnostics: Type.Integer({ description: 'Diagnostics of the default workspace (listed by `GET /skills`)' }),
    uptimeS: Type.Integer(),
    workspaces: Type.Integer({ description: 'Workspaces currently indexed, the default one included' }),
    watchers: Type.Integer({ description: 'File watchers running' }),
    watchMode: Type.Enum(['events', 'polling', 'off'], {
      description: "The workspace's watcher: file events, `polling` once watches ran out (ENOSPC), or `off`",
    }),
    eventStreams: Type.Integer({ description: 'Open `/events` streams, all workspaces' }),
    overloaded: Type.Boolean({ description: 'True while other routes answer 503 `Overloaded` (see SECURITY.md)' }),
  },
  { title: 'Health' },
);

export const ReadyResponse = Type.Object(
  {
    status: Type.Literal('ready'),
    generation: Type.Integer({ description: 'Generation of the default workspace' }),
    skills: Type.Integer({ description: 'Skills loaded in the default workspace' }),
    watchMode: Type.Enum(['events', 'polling', 'off']),
  },
  { title: 'Readiness' },
);

export const LiveResponse = Type.Object(
  {
    status: Type.Literal('live'),
    uptimeS: Type.Integer(),
  },
  { title: 'Liveness' },
);
