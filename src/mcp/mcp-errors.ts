// How failures reach an MCP client (docs/mcp.md): a request about a skill:// URI that resolution refuses is invalid params
// (-32602), with exactly the message the REST face gives for the same path, so an agent sees the same words whichever
// face it uses; the REST code travels in `data.code`. A workspace still indexing is an internal error (-32603).

import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { isSkillsdError } from '../discovery/errors.js';

/**
 * A JSON-RPC error as the SDK sends it: its `code`, `message` and `data` go on the wire as they are (the SDK's own
 * McpError would prefix the message with "MCP error <code>:").
 */
export class JsonRpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'JsonRpcError';
    this.code = code;
    this.data = data;
  }
}

export function invalidParams(message: string, data?: unknown): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, message, data);
}

/** The JSON-RPC form of anything a handler threw. */
export function toJsonRpcError(error: unknown): unknown {
  if (error instanceof JsonRpcError) return error;
  if (isSkillsdError(error)) {
    const code = error.code === 'NotReady' ? ErrorCode.InternalError : ErrorCode.InvalidParams;
    return new JsonRpcError(code, error.message, { code: error.code });
  }
  return error;
}

/** Runs a handler body, turning skillsd errors into their JSON-RPC form. */
export async function answering<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw toJsonRpcError(error);
  }
}
