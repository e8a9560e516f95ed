// `POST /invocations`: `/skill:<name>` commands (docs/discovery.md §7).

import { Type } from 'typebox';
import { CwdProperty, PathsProperty } from './common.js';

export const InvocationsQuery = Type.Object({ cwd: Type.Optional(CwdProperty), paths: Type.Optional(PathsProperty) });

export const InvocationBody = Type.Object(
  { text: Type.String({ description: 'What the user typed' }) },
  { title: 'InvocationRequest', additionalProperties: false },
);

export const InvocationResponse = Type.Object(
  {
    handled: Type.Boolean({ description: 'False when the text is not a `/skill:` command of a loaded skill' }),
    message: Type.Optional(Type.String({ description: 'The text to hand the model (handled only)' })),
    details: Type.Optional(
      Type.Object({
        name: Type.String(),
        path: Type.String({ description: 'The SKILL.md path' }),
        args: Type.Optional(Type.String({ description: 'Absent when the user gave none' })),
        lineCount: Type.Integer({ description: 'Lines of the skill body' }),
      }),
    ),
  },
  { title: 'InvocationResult' },
);
