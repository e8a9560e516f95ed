// `GET /search` (docs/api.md §GET /search): the query text checked, then ranked by the workspace's search index.

import { SkillsdError } from '../discovery/errors.js';
import type { SearchAnswerWithTag } from '../live-index/search-index.js';
import type { WorkspaceIndex } from '../live-index/workspace-index.js';

/** The longest query text answered (docs/api.md §GET /search); longer is 400. */
export { MAX_SEARCH_QUERY_LENGTH } from '../live-index/search-index.js';

/** `signal`: the request's own; the work of a query stops when every request waiting for it has gone away. */
export function searchAnswer(
  workspace: WorkspaceIndex,
  query: string,
  limit: number,
  signal?: AbortSignal,
): Promise<SearchAnswerWithTag> {
  return workspace.searchAnswer(query, limit, signal);
}

/** The query text, or 400 `BadRequest` when there is none to rank by. */
export function searchText(q: string | undefined): string {
  if (q === undefined || q.trim() === '') {
    throw new SkillsdError('BadRequest', 'q: the search text is missing or blank (GET /search?q=TEXT)');
  }
  return q;
}
