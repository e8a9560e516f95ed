// The `GET /skills` poll fast path (poll-fast-path.ts) for a daemon that compresses its answers (plugins/compression.ts):
// a poll answered 304 stays on the fast path whatever the client accepts; a 200 that goes compressed to this client
// is left to Fastify's route, which sends the answer's compressed copy (skills-list-answer.ts). A client that
// accepts no compression, or whose answer is below the threshold, is answered by the fast path as before.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { PollFastPath, type PollFastPathOptions } from './poll-fast-path.js';
import { skillsListAnswer, skillsListEncoding } from './skills-list-answer.js';

const POLL_TARGET = '/skills';
const NO_FILTER = {};

export class EncodingPollFastPath extends PollFastPath {
  private readonly readyDefaultView: PollFastPathOptions['readyDefaultView'];

  constructor(options: PollFastPathOptions) {
    super(options);
    this.readyDefaultView = options.readyDefaultView;
  }

  override tryAnswer(request: IncomingMessage, response: ServerResponse): boolean {
    const acceptEncoding = request.headers['accept-encoding'];
    if (acceptEncoding !== undefined && request.url === POLL_TARGET && this.answersEncoded(request, acceptEncoding)) {
      return false;
    }
    return super.tryAnswer(request, response);
  }

  /** Whether the route would send this request a compressed 200. */
  private answersEncoded(request: IncomingMessage, acceptEncoding: string): boolean {
    const view = this.readyDefaultView();
    if (view === undefined) return false;
    const answer = skillsListAnswer(view.snapshot, NO_FILTER, request.headers['if-none-match']);
    return !answer.notModified && skillsListEncoding(answer, acceptEncoding) !== undefined;
  }
}
