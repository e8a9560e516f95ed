// `GET /search` (docs/api.md §GET /search): the workspace's search index, ranked; the route only parses and tags.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { searchAnswer, searchText } from '../../answers/search-answer.js';
import { DEFAULT_SEARCH_LIMIT, type SearchAnswer } from '../../live-index/search-index.js';
import { requestSignal } from '../request-signal.js';
import { ConditionalHeaders, ETAG_HEADER, errorResponses, NotModified, withHeaders } from '../schemas/common.js';
import { SearchQuery, SearchResponse } from '../schemas/search.js';
import { matchesIfNoneMatch } from './conditional.js';

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/search',
    {
      schema: {
        operationId: 'searchSkills',
        summary: 'Skills ranked by how well their name, description and body match the query',
        description:
          'The last word also matches as a prefix and words of five letters or more with one typo; English function ' +
          'words are left out (docs/api.md). Hidden skills are searched too (`hide`). `ETag` on every ' +
          'answer; `If-None-Match` with the current tag answers 304. A missing or blank `q` is 400 `BadRequest`.',
        querystring: SearchQuery,
        headers: ConditionalHeaders,
        response: {
          200: withHeaders(SearchResponse, { ETag: ETAG_HEADER }),
          304: NotModified,
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const { cwd, q, limit = DEFAULT_SEARCH_LIMIT } = request.query;
      const query = searchText(q);
      const { workspace } = await app.workspaceView(cwd);
      const { answer, etag } = await searchAnswer(workspace, query, limit, requestSignal(request, reply));
      sendAnswer(reply, answer, etag, request.headers['if-none-match']);
      return reply;
    },
  );
};

function sendAnswer(reply: FastifyReply, answer: SearchAnswer, etag: string, ifNoneMatch: string | undefined): void {
  reply.header('etag', etag).header('cache-control', 'no-cache');
  // No payload at all on a 304 (as `GET /skills`): nothing would announce a Content-Length.
  if (matchesIfNoneMatch(ifNoneMatch, etag)) reply.code(304).send();
  else reply.send(answer);
}
