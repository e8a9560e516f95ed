// How `/mcp` is described in the OpenAPI document. The routes hand their reply to the MCP SDK (`reply.hijack()`), which
// writes JSON-RPC answers itself, and their own refusals are JSON-RPC errors: a Fastify response schema would be
// compiled into a serialiser and applied to those refusals (a 503 at the session cap became a 500 that way). So the
// answers are given to the document only, through @fastify/swagger's per-route `swaggerTransform`; Fastify never sees
// them. The guards' refusals (Host, Origin, token, `cwd`, not ready) are the error body of every route.

import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import {
  CwdProperty,
  ERROR_HEADERS,
  ErrorResponse,
  errorDescription,
  PathsProperty,
  RETRY_AFTER_HEADER,
} from './common.js';

/** `cwd` and `paths` of `/mcp`, read when a session opens. */
export const McpQuery = Type.Object({ cwd: Type.Optional(CwdProperty), paths: Type.Optional(PathsProperty) });

const JsonRpcMessage = Type.Object(
  { jsonrpc: Type.Literal('2.0') },
  {
    title: 'JsonRpcMessage',
    additionalProperties: true,
    description: 'A JSON-RPC 2.0 request, notification or response of the Model Context Protocol (docs/mcp.md)',
  },
);

const JsonRpcError = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    error: Type.Object({
      code: Type.Integer({ description: '-32000 for transport refusals, -32001 for an unknown session' }),
      message: Type.String(),
      data: Type.Optional(Type.Unknown()),
    }),
    id: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
  },
  { title: 'JsonRpcError', description: 'A refusal of the MCP transport, as JSON-RPC' },
);

const SESSION_HEADER = {
  type: 'string',
  description: 'The session an `initialize` opened: send it with every later request',
} as const;

/** An answer in the error body of every route. */
function errorBody(status: number) {
  return {
    description: errorDescription(status),
    ...(ERROR_HEADERS[status] === undefined ? {} : { headers: ERROR_HEADERS[status] }),
    content: { 'application/json': { schema: ErrorResponse } },
  };
}

/** An answer that is either a guard's error body or the transport's JSON-RPC error. */
function errorOrJsonRpc(description: string, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers === undefined ? {} : { headers }),
    content: { 'application/json': { schema: Type.Union([ErrorResponse, JsonRpcError]) } },
  };
}

function jsonRpcError(description: string) {
  return { description, content: { 'application/json': { schema: JsonRpcError } } };
}

const BAD_REQUEST = errorOrJsonRpc(
  'BadRequest (a query parameter that does not validate), or a JSON-RPC error: no `Mcp-Session-Id` where one is ' +
    'needed, a first request that is not an `initialize`, a malformed message',
);
const UNKNOWN_SESSION = jsonRpcError('The session ended or expired: initialize a new one');
const GUARDS = { 401: errorBody(401), 403: errorBody(403) };

const RESPONSES: Record<string, Record<number, unknown>> = {
  POST: {
    200: {
      description:
        'The JSON-RPC answer: one JSON message, or an event stream of messages (`Accept` must name both media types)',
      headers: { 'Mcp-Session-Id': SESSION_HEADER },
      content: {
        'application/json': { schema: JsonRpcMessage },
        'text/event-stream': { schema: Type.String({ description: 'Server-Sent Events, one JSON-RPC message each' }) },
      },
    },
    202: { description: 'A notification or response accepted; no body', type: 'null' },
    400: BAD_REQUEST,
    ...GUARDS,
    404: UNKNOWN_SESSION,
    406: jsonRpcError('The client does not accept both `application/json` and `text/event-stream`'),
    503: errorOrJsonRpc(
      `${errorDescription(503)}; or, as JSON-RPC, too many sessions: end one with DELETE or wait for one to expire`,
      { 'Retry-After': RETRY_AFTER_HEADER },
    ),
  },
  GET: {
    200: {
      description: "The session's notification stream",
      content: {
        'text/event-stream': { schema: Type.String({ description: 'Server-Sent Events, one JSON-RPC message each' }) },
      },
    },
    400: BAD_REQUEST,
    ...GUARDS,
    404: UNKNOWN_SESSION,
    406: jsonRpcError('The client does not accept `text/event-stream`'),
    409: jsonRpcError('The session already has its stream open'),
    503: errorBody(503),
  },
  DELETE: {
    200: { description: 'The session ended; no body', type: 'null' },
    400: BAD_REQUEST,
    ...GUARDS,
    404: UNKNOWN_SESSION,
    503: errorBody(503),
  },
};

const McpHeaders = Type.Object({
  'mcp-session-id': Type.Optional(
    Type.String({ description: 'The session, from the answer to `initialize`; absent on the `initialize` itself' }),
  ),
});

/** The per-route transform of @fastify/swagger for `/mcp`: the documented body and answers of each method. */
export function documentMcpRoute({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: { method: string | string[] };
}) {
  const method = Array.isArray(route.method) ? (route.method[0] as string) : route.method;
  const body = method === 'POST' ? { body: Type.Union([JsonRpcMessage, Type.Array(JsonRpcMessage)]) } : {};
  return { url, schema: { ...schema, ...body, headers: McpHeaders, response: RESPONSES[method] } };
}
