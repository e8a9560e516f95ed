// The MCP SDK's own client against a real skillsd: over Streamable HTTP to a test server, or over stdio to a spawned
// `skillsd mcp`. Notifications are recorded, and tests wait for the one they expect (never for a time).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { CLI } from './spawn-daemon.js';

export interface RecordedNotification {
  method: string;
  params?: Record<string, unknown>;
}

export interface McpTestClient {
  client: Client;
  notifications: RecordedNotification[];
  /** Resolves with the first recorded notification (past or future) matching `predicate`. */
  waitFor(
    predicate: (notification: RecordedNotification) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedNotification>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  headers?: Record<string, string>;
  /** `file://` roots the client offers (roots capability); none when undefined. */
  roots?: string[];
}

export const SkillsListResult = z.looseObject({
  skills: z.array(z.looseObject({ uri: z.string() })),
  nextCursor: z.string().optional(),
});
export const SkillsGetResult = z.looseObject({ skill: z.looseObject({ uri: z.string() }) });
export const DirectoryReadResult = z.looseObject({
  resources: z.array(z.looseObject({ uri: z.string() })),
  nextCursor: z.string().optional(),
});

export async function connectHttp(
  url: string,
  options: ConnectOptions = {},
): Promise<McpTestClient & { transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: options.headers ?? {} },
  });
  const recorded = await connect(transport, options);
  return { ...recorded, transport };
}

export async function connectStdio(
  args: string[],
  env: Record<string, string>,
): Promise<McpTestClient & { stderr: () => string; pid: () => number | null }> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const recorded = await connect(transport, {});
  return { ...recorded, stderr: () => stderr, pid: () => transport.pid };
}

async function connect(
  transport: StreamableHTTPClientTransport | StdioClientTransport,
  options: ConnectOptions,
): Promise<McpTestClient> {
  const client = new Client(
    { name: 'skillsd-test', version: '1.0.0' },
    { capabilities: options.roots === undefined ? {} : { roots: { listChanged: true } } },
  );
  const notifications: RecordedNotification[] = [];
  const waiters = new Set<() => void>();
  const record = (notification: RecordedNotification) => {
    notifications.push(notification);
    for (const waiter of [...waiters]) waiter();
  };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => record(n as RecordedNotification));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => record(n as RecordedNotification));
  client.setNotificationHandler(PromptListChangedNotificationSchema, (n) => record(n as RecordedNotification));
  if (options.roots !== undefined) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots.map((uri) => ({ uri, name: uri })),
    }));
  }
  await client.connect(transport);
  return {
    client,
    notifications,
    waitFor(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = notifications.find(predicate);
          if (found === undefined) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching notification; got ${JSON.stringify(notifications)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => client.close(),
  };
}
