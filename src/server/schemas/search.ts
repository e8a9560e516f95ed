// `GET /search` (docs/api.md §GET /search).

import { Type } from 'typebox';
import { MAX_SEARCH_QUERY_LENGTH } from '../../answers/search-answer.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../live-index/search-index.js';
import { CwdProperty } from './common.js';
import { SkillSourceSchema } from './skill.js';

export { MAX_SEARCH_QUERY_LENGTH };

export const SearchQuery = Type.Object({
  cwd: Type.Optional(CwdProperty),
  q: Type.Optional(
    Type.String({
      maxLength: MAX_SEARCH_QUERY_LENGTH,
      description: 'What to look for, in words (required, not blank): `extract tables from pdf`',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_SEARCH_LIMIT,
      default: DEFAULT_SEARCH_LIMIT,
      description: 'At most this many results',
    }),
  ),
});

export const SearchResultSchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    score: Type.Number({ description: 'Relevance (BM25 with the name weighted highest); higher is better' }),
    matched: Type.Array(Type.Enum(['name', 'description', 'body']), {
      description: 'The fields a query term matched in',
    }),
    hide: Type.Boolean({ description: 'Hidden skills are searched too; this says which ones are' }),
    source: SkillSourceSchema,
    filePath: Type.String(),
  },
  { title: 'SearchResult' },
);

export const SearchResponse = Type.Object(
  {
    query: Type.String({ description: 'The query, as given' }),
    generation: Type.Integer({ description: 'The index generation the results were ranked in' }),
    results: Type.Array(SearchResultSchema, { description: 'Best first' }),
  },
  { title: 'SearchAnswer' },
);
