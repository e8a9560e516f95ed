// `/mcp`: the MCP face over Streamable HTTP (MCP.md §Transports), as ordinary Fastify routes (POST for requests, GET
// for the server's notification stream, DELETE to end a session), so every onRequest guard of the app (Host, Origin,
// token, and whatever guard is added later) has run before the SDK's transport sees the request. The handler then
// hands Node's own request and response, with the body Fastify parsed, to the SDK's StreamableHTTPServerTransport.
//
// Sessions are stateful (`Mcp-Session-Id`): at most `maxSessions` live at once (one more initialize is refused with
// 503), and one with no request and no open stream for `idleTimeoutMs` is closed. Both are documented in docs/mcp.md.

import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { defaultPathsChoice } from '../server/request-locations.js';
import { CwdProperty, PathsProperty } from '../server/schemas/common.js';
import { createMcpServer, type McpServerHandle } from './create-mcp-server.js';
import { documentMcpRoute } from './http-openapi.js';
import { type McpDependencies, McpSession } from './mcp-session.js';
import { serverVersion } from './server-version.js';

export const DEFAULT_MAX_MCP_SESSIONS = 64;
export const DEFAULT_MCP_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

export interface McpHttpOptions {
  maxSessions?: number;
  idleTimeoutMs?: number;
  pageSize?: number;
  /** How long a request waits for a workspace's first index (the app's `readyWaitMs`). */
  readyWaitMs: number;
}

interface LiveSession {
  transport: StreamableHTTPServerTransport;
  handle: McpServerHandle;
  lastUsed: number;
  /** Open GET streams: a session whose client listens is not idle. */
  streams: number;
}

const McpQuery = Type.Object({ cwd: Type.Optional(CwdProperty), paths: Type.Optional(PathsProperty) });
const SESSION_HEADER = 'mcp-session-id';

const mcpHttp: FastifyPluginAsyncTypebox<McpHttpOptions> = async (app, options) => {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_MCP_SESSIONS;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_MCP_IDLE_TIMEOUT_MS;
  const sessions = new Map<string, LiveSession>();
  const deps = (): McpDependencies => ({
    registry: app.registry,
    getSettings: app.getSettings,
    digests: app.fileDigests,
    readyWaitMs: options.readyWaitMs,
    logger: app.log,
    pageSize: options.pageSize,
    version: serverVersion(),
  });

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, live] of sessions) {
        if (live.streams === 0 && now - live.lastUsed >= idleTimeoutMs) {
          app.log.info({ session: id }, 'MCP session expired (idle)');
          void closeSession(id);
        }
      }
    },
    Math.max(10, Math.min(idleTimeoutMs, 60_000)),
  );
  sweep.unref();

  async function closeSession(id: string): Promise<void> {
    const live = sessions.get(id);
    if (live === undefined) return;
    sessions.delete(id);
    live.handle.dispose();
    await live.transport.close().catch(() => undefined);
  }

  // Open GET streams would hold the server open: every session ends before the app closes.
  app.addHook('preClose', async () => {
    clearInterval(sweep);
    await Promise.all([...sessions.keys()].map((id) => closeSession(id)));
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
  // Those answers are described to the OpenAPI document only (http-openapi.ts): no response schema on hijacked replies.
  const config = { swaggerTransform: documentMcpRoute };
  const postOptions = { config, schema: { ...schema, operationId: 'postMcpMessage', body: Type.Unknown() } };
  const getOptions = { config, schema: { ...schema, operationId: 'openMcpStream' }, exposeHeadRoute: false };
  const deleteOptions = { config, schema: { ...schema, operationId: 'endMcpSession' } };

  app.post('/mcp', postOptions, async (request, reply) => {
    const id = sessionIdOf(request);
    if (id === undefined) {
      if (!isInitializeRequest(request.body)) {
        return sendJsonRpcError(reply, 400, -32000, 'Bad Request: no Mcp-Session-Id header, and not an initialize');
      }
      if (sessions.size >= maxSessions) {
        reply.header('retry-after', '60');
        return sendJsonRpcError(
          reply,
          503,
          -32000,
          `Too many MCP sessions (${maxSessions}): end one with DELETE /mcp, or wait for an idle one to expire`,
        );
      }
      const session = new McpSession(deps(), {
        cwd: request.query.cwd,
        paths: request.query.paths ?? defaultPathsChoice(request.socket.remoteAddress),
      });
      // Before the answer starts: a refused `?cwd=` or a workspace still indexing is answered as on every route.
      await app.workspaceView(request.query.cwd);
      const handle = await createMcpServer(session);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, { transport, handle, lastUsed: Date.now(), streams: 0 });
          app.log.info({ session: sessionId, cwd: request.query.cwd }, 'MCP session opened');
        },
      });
      transport.onclose = () => {
        const sessionId = transport.sessionId;
        handle.dispose();
        if (sessionId !== undefined && sessions.get(sessionId)?.transport === transport) {
          sessions.delete(sessionId);
          app.log.info({ session: sessionId }, 'MCP session closed');
        }
      };
      await handle.server.connect(transport);
      try {
        await handOver(request, reply, transport);
      } finally {
        // An initialize the transport refused (a malformed one) opened no session: nothing may keep listening.
        const opened = transport.sessionId !== undefined && sessions.get(transport.sessionId)?.transport === transport;
        if (!opened) {
          handle.dispose();
          await transport.close().catch(() => undefined);
        }
      }
      return;
    }
    const live = sessions.get(id);
    if (live === undefined) return sendUnknownSession(reply);
    live.lastUsed = Date.now();
    return handOver(request, reply, live.transport);
  });

  app.get('/mcp', getOptions, async (request, reply) => {
    const id = sessionIdOf(request);
    const live = id === undefined ? undefined : sessions.get(id);
    if (id === undefined) return sendJsonRpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (live === undefined) return sendUnknownSession(reply);
    live.lastUsed = Date.now();
    live.streams += 1;
    reply.raw.once('close', () => {
      live.streams -= 1;
      live.lastUsed = Date.now();
    });
    return handOver(request, reply, live.transport);
  });

  app.delete('/mcp', deleteOptions, async (request, reply) => {
    const id = sessionIdOf(request);
    if (id === undefined) return sendJsonRpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const live = sessions.get(id);
    if (live === undefined) return sendUnknownSession(reply);
    return handOver(request, reply, live.transport);
  });

  app.decorate('mcpSessionCount', () => sessions.size);
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Live MCP sessions over Streamable HTTP. */
    mcpSessionCount(): number;
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
