// `GET|HEAD /skill/{name}[/{path…}]`: the HTTP face of `skill://` (docs/api.md, docs/discovery.md §6).

import { Type } from 'typebox';
import { CwdProperty, ETAG_HEADER, type HeaderSchema, LAST_MODIFIED_HEADER } from './common.js';

export const SkillFileParams = Type.Object({
  name: Type.String({ description: 'Skill name, percent-decoded once' }),
  '*': Type.Optional(
    Type.String({
      description:
        'Path inside the skill directory; each segment percent-decoded once. `..`, absolute paths and NUL are refused',
    }),
  ),
});

export const SkillFileQuery = Type.Object({
  cwd: Type.Optional(CwdProperty),
  archive: Type.Optional(
    Type.Enum(['tar.gz'], {
      description:
        'On `/skill/{name}` only: every file of the skill as a gzipped tar, in path order, with an ETag derived ' +
        "from the files' digests",
    }),
  ),
  list: Type.Optional(
    Type.String({
      description:
        'On `/skill/{name}/` (which otherwise answers SKILL.md): the listing of the skill’s top directory instead; ' +
        'any value, usually none (`?list`)',
    }),
  ),
});

export const DirectoryEntriesResponse = Type.Object(
  {
    entries: Type.Array(
      Type.Object({
        name: Type.String(),
        type: Type.Enum(['file', 'directory']),
        size: Type.Integer({ description: 'Bytes for files, 0 for directories' }),
      }),
    ),
  },
  { title: 'DirectoryEntries' },
);

const FILE_HEADERS: Record<string, HeaderSchema> = {
  ETag: ETAG_HEADER,
  'Last-Modified': LAST_MODIFIED_HEADER,
  'X-Skill-Source-Path': {
    type: 'string',
    description: 'The absolute path served, percent-encoded outside printable ASCII',
  },
};

export const SkillFileOk = {
  description:
    'The file (SKILL.md when no path is given), raw bytes; a directory answers its listing (text), or ' +
    '`{ entries }` with `Accept: application/json`',
  headers: FILE_HEADERS,
  content: {
    'text/markdown': { schema: Type.String() },
    'text/plain': { schema: Type.String() },
    'application/json': { schema: DirectoryEntriesResponse },
    'application/gzip': { schema: Type.String({ format: 'binary' }) },
  },
};
