// Runs a client command of the built CLI (`node dist/cli.js ls …`) to completion, as a user would from a shell.

import { createServer } from 'node:net';
import { DaemonProcess, type SpawnOptions } from './spawn-daemon.js';

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A client that loads the server to answer in-process takes a few seconds on a loaded machine: a generous bound. */
const CLIENT_DEADLINE_MS = 60_000;

export async function runClient(args: string[], options: SpawnOptions): Promise<ClientRun> {
  const child = new DaemonProcess(args, options);
  try {
    const exit = await child.waitForExit(CLIENT_DEADLINE_MS);
    return { code: exit.code, stdout: child.stdout, stderr: child.stderr };
  } finally {
    await child.kill();
  }
}

/**
 * A loopback URL where no daemon answers: a socket that resets every connection at once (a reset, as from a closed
 * port; undici leaves a fetch pending forever on a connection closed without one). Held for the test (closed in
 * `t.after`), so that no daemon started meanwhile by another test can take the port, as it could a released one.
 */
export async function deadUrl(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const server = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}
