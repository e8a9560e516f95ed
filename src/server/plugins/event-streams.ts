// Server-Sent Events support: @fastify/sse, plus the set of open streams so that closing the app ends them
// (an open stream would otherwise hold `app.close()` forever: docs/platform-notes.md §1).

import fastifySseModule, { type SSEPluginOptions } from '@fastify/sse';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

// The package is CommonJS: Node's default import is `module.exports`, the fastify-plugin-wrapped function that
// applies to the whole app (its named `fastifySSE`/`default` exports are the unwrapped, encapsulated one).
const fastifySse = fastifySseModule as unknown as FastifyPluginAsync<SSEPluginOptions>;

export interface EventStreamsOptions {
  /** Interval of the `: ping` comment (docs/api.md: at least every 15 s). */
  heartbeatMs: number;
  /** The `retry:` sent once at the start of each stream. */
  retryMs: number;
}

export interface EventStreams {
  readonly heartbeatMs: number;
  readonly retryMs: number;
  /** Registers an open stream's closer; returns its removal. */
  track(close: () => void): () => void;
  readonly size: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    eventStreams: EventStreams;
  }
}

const eventStreams: FastifyPluginAsync<EventStreamsOptions> = async (app, options) => {
  // The data of every event is serialised once, when it is logged: strings pass through unchanged.
  await app.register(fastifySse, {
    heartbeatInterval: 0,
    serializer: (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data)),
  });
  const open = new Set<() => void>();
  app.decorate('eventStreams', {
    heartbeatMs: options.heartbeatMs,
    retryMs: options.retryMs,
    track(close: () => void) {
      open.add(close);
      return () => {
        open.delete(close);
      };
    },
    get size() {
      return open.size;
    },
  });
  app.addHook('preClose', async () => {
    for (const close of [...open]) close();
    open.clear();
  });
};

export const eventStreamsPlugin = fp(eventStreams, { name: 'skillsd-event-streams', fastify: '5.x' });
