// `GET /events`: the index's changes as Server-Sent Events (docs/api.md §GET /events), and with `agent=` the changes
// of that agent's view (docs/api.md "Agent views"). Both are served by one stream (event-stream.ts) over their own
// event log.
//
// Ids are derived from the index's content (event-log.ts), so an id from another replica serving the same files
// resumes here: replayed when this daemon holds that position, `reset` when it does not.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseViewId } from '../../discovery/agents/agents.js';
import { serveEventStream } from '../event-stream.js';
import { errorResponses } from '../schemas/common.js';
import { EventsHeaders, EventsOk, EventsQuery } from '../schemas/events.js';

export const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/events',
    {
      sse: { kind: 'only', heartbeat: false },
      // HEAD is answered below, at once: a HEAD served by this handler would open a stream that never ends.
      exposeHeadRoute: false,
      schema: {
        operationId: 'streamEvents',
        summary: 'Index changes as Server-Sent Events',
        description:
          '`hello` is sent first (and `reset` when the resumed id is too old), whatever `types` says. ' +
          'Resume with `Last-Event-ID` or `lastEventId`: at least the last 1000 events of a workspace are held. ' +
          'With `agent`, the changes of that agent’s view, with ids of their own; an unknown agent is 400 `UnknownAgent`.',
        querystring: EventsQuery,
        headers: EventsHeaders,
        response: { 200: EventsOk, ...errorResponses(406) },
      },
      // @fastify/sse answers a client that refuses text/event-stream itself: give that answer our error shape.
      preSerialization: async (_request, reply, payload: unknown) => {
        if (reply.statusCode !== 406 || typeof payload !== 'object' || payload === null) return payload;
        return { ...(payload as Record<string, unknown>), code: 'NotAcceptable' };
      },
    },
    async (request, reply) => {
      const { cwd, types, lastEventId, agent } = request.query;
      if (agent === undefined) {
        const { workspace } = await app.workspaceView(cwd);
        serveEventStream(app, request, reply, {
          workspace,
          types,
          lastEventId,
          state: () => {
            const snapshot = workspace.snapshot!;
            const hello = { generation: snapshot.generation, skills: snapshot.skills.length };
            return { log: workspace.events, hello, generation: snapshot.generation };
          },
        });
        return;
      }
      // Refused before any workspace is opened, as the other routes that take an agent do.
      const id = parseViewId(agent);
      // Waits for the views as `GET /skills?agent=` does (503 `NotReady` past the request wait); they are there when
      // the view's log is asked for.
      const { workspace } = await app.agentViewsOf(cwd);
      const { log, state } = await workspace.agentEvents(id, 0);
      serveEventStream(app, request, reply, {
        workspace,
        types,
        lastEventId,
        state: () => {
          const skills = state.views.views.get(id)?.skills.length ?? 0;
          // Followed by this stream: the views are kept current until it ends, however long it is quiet.
          const releaseViews = workspace.holdViews();
          // An open stream of the workspace's own log is what keeps a workspace from being closed as idle
          // (workspace-registry.ts); this stream counts as one, as the default stream does.
          const unpin = workspace.events.subscribe(() => {});
          const release = () => {
            unpin();
            releaseViews();
          };
          return {
            log,
            hello: { generation: state.generation, skills, agent: id },
            generation: state.generation,
            release,
          };
        },
      });
    },
  );
};

/** `HEAD /events`: the headers a stream would start with, and no stream (nothing is opened or watched). */
export const eventsHeadRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.head('/events', { schema: { hide: true, querystring: EventsQuery } }, async (request, reply) => {
    // The same refusal a stream of an unknown agent gets.
    if (request.query.agent !== undefined) parseViewId(request.query.agent);
    reply.header('cache-control', 'no-cache').type('text/event-stream').code(200);
    return reply.send();
  });
};
