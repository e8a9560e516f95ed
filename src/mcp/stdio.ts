// `skillsd mcp`: the MCP face on stdin/stdout (docs/mcp.md §Transports), for hosts that launch their servers as processes.
// One session for the life of the process; stdout carries protocol bytes and nothing else (logs go to stderr).

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './create-mcp-server.js';
import { type McpDependencies, McpSession } from './mcp-session.js';

export interface StdioMcpOptions {
  /** `--cwd`: the workspace for the whole session; without it the client's first `file://` root, else the default. */
  cwd?: string;
}

export interface RunningStdioMcp {
  /** Resolves when the client closes stdin (or `close` is called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveMcpOverStdio(deps: McpDependencies, options: StdioMcpOptions): Promise<RunningStdioMcp> {
  // The client runs on this machine (it launched the process): local paths are its paths.
  const session = new McpSession(deps, { cwd: options.cwd, paths: 'local' });
  const handle = await createMcpServer(session);
  const transport = new StdioServerTransport();
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  handle.server.onclose = () => {
    handle.dispose();
    resolveClosed();
  };
  // The SDK's stdio transport does not notice the end of stdin by itself: the host closing the pipe ends the session.
  process.stdin.once('end', () => {
    void handle.server.close();
  });
  await handle.server.connect(transport);
  return {
    closed,
    close: async () => {
      await handle.server.close();
      await closed;
    },
  };
}
