// The `GET /skills` answer (docs/api.md "GET /skills"): its validator and whether the client's copy is current. The
// route (routes/skills.ts) and the poll fast path (poll-fast-path.ts) both answer from here, so the tag, the
// `If-None-Match` comparison and the caching header cannot drift apart.
// A compressed answer is encoded once per answer and encoding (encoded-body.ts), kept as long as the snapshot's answer.

import type { SkillsAnswer, SkillsFilter, WorkspaceSnapshot } from '../live-index/snapshot.js';
import { bodyEncoding, encodedBody } from './encoded-body.js';
import type { AnswerEncoding } from './plugins/compression.js';
import { matchesIfNoneMatch } from './routes/conditional.js';

/** Every answer is revalidated: a poll with the tag costs a 304 and no body. */
export const SKILLS_CACHE_CONTROL = 'no-cache';
export const SKILLS_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface SkillsListAnswer {
  /** A strong ETag, quotes included (the snapshot's, snapshot.ts). */
  etag: string;
  /** The client's `If-None-Match` names this answer: 304, no body. */
  notModified: boolean;
  /** The pre-encoded JSON body. */
  body: Buffer;
  /** The snapshot's answer the body is of (the key of its compressed copies). */
  source: SkillsAnswer;
}

export function skillsListAnswer(
  snapshot: WorkspaceSnapshot,
  filter: SkillsFilter,
  ifNoneMatch: string | undefined,
): SkillsListAnswer {
  const answer = snapshot.answer(filter);
  return {
    etag: answer.etag,
    notModified: matchesIfNoneMatch(ifNoneMatch, answer.etag),
    body: answer.body,
    source: answer,
  };
}

/** The encoding the 200 answer goes in for this `Accept-Encoding`: none below the threshold (plugins/compression.ts). */
export function skillsListEncoding(
  answer: SkillsListAnswer,
  acceptEncoding: string | undefined,
): AnswerEncoding | undefined {
  return bodyEncoding(answer.body.length, acceptEncoding);
}

/** The answer's body in `encoding`, compressed on first use (encoded-body.ts). */
export function encodedSkillsList(answer: SkillsListAnswer, encoding: AnswerEncoding): Promise<Buffer> {
  return encodedBody(answer.source, answer.body, encoding);
}
