// `/mcp`: the MCP face over Streamable HTTP (docs/mcp.md §Transports), as ordinary Fastify routes (POST for requests, GET
// for the server's notification stream, DELETE to end a session), so every onRequest guard of the app (Host, Origin,
// token, and whatever guard is added later) has run before the SDK's transport sees the request. The handler then
// hands Node's own request and response, with the body Fastify parsed, to the SDK's StreamableHTTPServerTransport.
//
// Sessions are stateful (`Mcp-Session-Id`) and bounded (docs/mcp.md "Session bounds", src/mcp/session-table.ts): a slot is
// reserved before anything is awaited, a full table ends its least recently used idle session to make room, an idle
// session expires (an open GET stream is not activity), and a session does not keep its workspace open.

import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import type { PathsChoice } from '../../discovery/skill-locations.js';
import type { SubscriptionBudget } from '../../mcp/change-notifications.js';
import type { McpServerHandle } from '../../mcp/create-mcp-server.js';
import type { McpDependencies } from '../../mcp/mcp-session.js';
import { serverVersion } from '../../mcp/server-version.js';
import { type SessionSlot, SessionTable } from '../../mcp/session-table.js';
import { defaultPathsChoice } from '../request-locations.js';
import { documentMcpRoute, McpQuery } from '../schemas/mcp.js';

export const DEFAULT_MAX_MCP_SESSIONS = 64;
export const DEFAULT_MCP_IDLE_TIMEOUT_S = 600;

export interface McpHttpOptions {
  /** Overrides `server.mcp.maxSessions`. */
  maxSessions?: number;
  /** Overrides `server.mcp.idleTimeoutS`. */
  idleTimeoutMs?: number;
  /** Subscriptions per session and in all sessions (defaults 256 and 4,096). */
  maxSubscriptionsPerSession?: number;
  maxSubscriptions?: number;
  /** The clock of the idle timeout (default `Date.now`), and how often idle sessions are looked for. */
  now?: () => number;
  sweepIntervalMs?: number;
  /** How long a client gets to answer `roots/list` (default 10 s). */
  rootsTimeoutMs?: number;
  pageSize?: number;
  /** How long a request waits for a workspace's first index (the app's `readyWaitMs`). */
  readyWaitMs: number;
}

interface LiveSession {
  transport: StreamableHTTPServerTransport;
  handle: McpServerHandle;
}

/** What answers `/mcp` beyond routing: the SDK (with zod) and the MCP server built on it. */
interface McpFace {
  StreamableHTTPServerTransport: typeof StreamableHTTPServerTransport;
  isInitializeRequest: (value: unknown) => boolean;
  createMcpServer: typeof import('../../mcp/create-mcp-server.js').createMcpServer;
  McpSession: typeof import('../../mcp/mcp-session.js').McpSession;
  subscriptions: SubscriptionBudget;
}

/**
 * Loaded on the first POST to `/mcp`, not with the app: the SDK and zod are a good part of an idle daemon's memory,
 * and most daemons never see an MCP client (docs/performance.md "Idle memory").
 */
async function loadMcpFace(options: McpHttpOptions): Promise<McpFace> {
  const [transport, types, server, session, notifications] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('../../mcp/create-mcp-server.js'),
    import('../../mcp/mcp-session.js'),
    import('../../mcp/change-notifications.js'),
  ]);
  return {
    StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
    isInitializeRequest: types.isInitializeRequest,
    createMcpServer: server.createMcpServer,
    McpSession: session.McpSession,
    // One budget for every session: each subscription costs a directory watch (an inotify watch).
    subscriptions: new notifications.SubscriptionBudget(options.maxSubscriptions, options.maxSubscriptionsPerSession),
  };
}

const SESSION_HEADER = 'mcp-session-id';

const mcpHttp: FastifyPluginAsyncTypebox<McpHttpOptions> = async (app, options) => {
  // Read at every use: a config reload changes the bounds of the sessions opened (and swept) from then on.
  const limits = () => {
    const configured = app.getSettings().server.mcp;
    return {
      maxSessions: Math.max(1, options.maxSessions ?? configured?.maxSessions ?? DEFAULT_MAX_MCP_SESSIONS),
      idleTimeoutMs: options.idleTimeoutMs ?? (configured?.idleTimeoutS ?? DEFAULT_MCP_IDLE_TIMEOUT_S) * 1000,
    };
  };
  const sessions = new SessionTable<LiveSession>({
    limits,
    end: (slot, reason) => {
      app.log.info({ session: slot.id }, reason === 'expired' ? 'MCP session expired (idle)' : 'MCP session evicted');
      void endSession(slot);
    },
    now: options.now,
    sweepIntervalMs: options.sweepIntervalMs,
  });
  let face: Promise<McpFace> | undefined;
  const deps = (subscriptions: SubscriptionBudget): McpDependencies => ({
    registry: app.registry,
    getSettings: app.getSettings,
    digests: app.fileDigests,
    readyWaitMs: options.readyWaitMs,
    logger: app.log,
    pageSize: options.pageSize,
    version: serverVersion(),
    subscriptions,
    rootsTimeoutMs: options.rootsTimeoutMs,
  });

  /** Ends a session the table no longer lists: its server first (subscriptions, watches), then its transport. */
  async function endSession(slot: SessionSlot<LiveSession>): Promise<void> {
    const live = slot.value;
    if (live === undefined) return;
    live.handle.dispose();
    await live.transport.close().catch(() => undefined);
  }

  // Open GET streams would hold the server open: every session ends before the app closes.
  app.addHook('preClose', async () => {
    sessions.close();
    const all = sessions.ids().map((id) => sessions.get(id)!);
    for (const slot of all) sessions.delete(slot.id, slot);
    await Promise.all(all.map((slot) => endSession(slot)));
  });

  const schema = {
    summary: 'The MCP face (Streamable HTTP)',
    description:
      'POST sends JSON-RPC requests (an `initialize` without `Mcp-Session-Id` opens a session), GET opens the ' +
      "session's notification stream, DELETE ends it. `cwd` and `paths` are read when the session opens.",
    querystring: McpQuery,
    // JSON-RPC answers (JSON or an event stream), written by the SDK; refused requests answer in the error shape of
    // every route (Host, Origin, token, `cwd`), and protocol errors as JSON-RPC errors.
  } as const;
  // Those answers are described to the OpenAPI document only (schemas/mcp.ts): no response schema on hijacked replies.
  const config = { swaggerTransform: documentMcpRoute };
  const postOptions = { config, schema: { ...schema, operationId: 'postMcpMessage', body: Type.Unknown() } };
  const getOptions = { config, schema: { ...schema, operationId: 'openMcpStream' }, exposeHeadRoute: false };
  const deleteOptions = { config, schema: { ...schema, operationId: 'endMcpSession' } };

  app.post('/mcp', postOptions, async (request, reply) => {
    const id = sessionIdOf(request);
    if (id === undefined) {
      // Awaited before the check below, so that the check and the reservation stay one synchronous step.
      face ??= loadMcpFace(options);
      const loaded = await face;
      if (!loaded.isInitializeRequest(request.body)) {
        return sendJsonRpcError(reply, 400, -32000, 'Bad Request: no Mcp-Session-Id header, and not an initialize');
      }
      // The slot is taken here, in the same synchronous step as the check: nothing is awaited in between.
      const sessionId = randomUUID();
      const slot = sessions.reserve(sessionId, reply.raw);
      if (slot === undefined) {
        reply.header('retry-after', '60');
        return sendJsonRpcError(
          reply,
          503,
          -32000,
          `Too many MCP sessions (${limits().maxSessions}), each answering a request or holding a stream open: ` +
            'end one with DELETE /mcp, or retry later',
        );
      }
      return openSession(loaded, request, reply, slot, request.query);
    }
    const slot = sessions.get(id);
    if (slot?.value === undefined) return sendUnknownSession(reply);
    sessions.request(slot, reply.raw);
    return handOver(request, reply, slot.value.transport);
  });

  /** Answers the `initialize` of a reserved slot; the slot is freed again unless the session opened. */
  async function openSession(
    loaded: McpFace,
    request: FastifyRequest,
    reply: FastifyReply,
    slot: SessionSlot<LiveSession>,
    query: { cwd?: string; paths?: PathsChoice },
  ): Promise<unknown> {
    let opened = false;
    try {
      const session = new loaded.McpSession(deps(loaded.subscriptions), {
        cwd: query.cwd,
        paths: query.paths ?? defaultPathsChoice(request.socket.remoteAddress),
      });
      // Before the answer starts: a refused `?cwd=` or a workspace still indexing is answered as on every route.
      await app.workspaceView(query.cwd);
      const handle = await loaded.createMcpServer(session);
      const transport = new loaded.StreamableHTTPServerTransport({
        sessionIdGenerator: () => slot.id,
        onsessioninitialized: (sessionId) => {
          app.log.info({ session: sessionId, cwd: query.cwd }, 'MCP session opened');
        },
      });
      slot.value = { transport, handle };
      transport.onclose = () => {
        handle.dispose();
        if (sessions.delete(slot.id, slot)) app.log.info({ session: slot.id }, 'MCP session closed');
      };
      // The daemon began closing while the session was being built (a slot in flight is never evicted).
      if (sessions.get(slot.id) !== slot) return sendJsonRpcError(reply, 503, -32000, 'The daemon is shutting down');
      await handle.server.connect(transport);
      await handOver(request, reply, transport);
      // An initialize the transport refused (a malformed one) opened no session.
      opened = transport.sessionId !== undefined && sessions.get(slot.id) === slot;
    } finally {
      if (!opened) {
        sessions.delete(slot.id, slot);
        await endSession(slot);
      }
    }
  }

  app.get('/mcp', getOptions, async (request, reply) => {
    const id = sessionIdOf(request);
    if (id === undefined) return sendJsonRpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const slot = sessions.get(id);
    if (slot?.value === undefined) return sendUnknownSession(reply);
    sessions.stream(slot, reply.raw);
    return handOver(request, reply, slot.value.transport);
  });

  app.delete('/mcp', deleteOptions, async (request, reply) => {
    const id = sessionIdOf(request);
    if (id === undefined) return sendJsonRpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const slot = sessions.get(id);
    if (slot?.value === undefined) return sendUnknownSession(reply);
    sessions.request(slot, reply.raw);
    return handOver(request, reply, slot.value.transport);
  });

  app.decorate('mcpSessionCount', () => sessions.size);
  app.decorate('mcpSessions', sessions);
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Live MCP sessions over Streamable HTTP (sessions being opened included). */
    mcpSessionCount(): number;
    /** The session table of `/mcp`: how many live now and at most, and the idle sweep (tests call it). */
    mcpSessions: { readonly size: number; readonly peak: number; readonly busy: number; sweep(): void };
  }
}

export const mcpHttpPlugin = fp(mcpHttp, {
  name: 'skillsd-mcp-http',
  fastify: '5.x',
  dependencies: ['skillsd-workspaces', 'skillsd-file-digests'],
});

/**
 * From here the SDK writes the answer on Node's response. Headers the guards set on Fastify's reply (CORS for an
 * allowed origin) are copied over first, since a hijacked reply sends nothing of its own.
 */
async function handOver(request: FastifyRequest, reply: FastifyReply, transport: StreamableHTTPServerTransport) {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
  }
  if (request.corsOrigin !== undefined) {
    reply.raw.setHeader('access-control-expose-headers', 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
    reply.raw.setHeader('vary', 'Origin');
  }
  reply.hijack();
  await transport.handleRequest(request.raw, reply.raw, request.body);
}

function sessionIdOf(request: FastifyRequest): string | undefined {
  const value = request.headers[SESSION_HEADER];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The MCP specification's answer to an unknown or expired session: 404, so the client starts a new one. */
function sendUnknownSession(reply: FastifyReply) {
  return sendJsonRpcError(reply, 404, -32001, 'Session not found: it ended or expired; initialize a new one');
}

function sendJsonRpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ jsonrpc: '2.0', error: { code, message }, id: null });
}
