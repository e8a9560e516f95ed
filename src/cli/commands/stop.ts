// `skillsd stop`: stops the running daemon with SIGTERM (its graceful shutdown: streams ended, watchers closed, the
// runtime file removed) and returns once the process is gone. The pid comes from the runtime file, so only a daemon
// of this user on this machine can be stopped.

import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '../../client/runtime-file.js';
import { type ClientCommand, EXIT } from './command.js';

/** API.md: a daemon exits within 5 s of SIGTERM; this is the safety net beyond it. */
const STOP_DEADLINE_MS = 15_000;
const POLL_MS = 50;

export const stopCommand: ClientCommand = {
  usage: 'stop',
  summary: 'Stops the running daemon (SIGTERM) and waits for it to exit.',
  options: {},
  positionals: { min: 0, max: 0 },
  inProcess: false,
  async run({ client, daemon, output, values }) {
    await client.health();
    const pid = daemon?.runtime?.pid;
    if (pid === undefined) {
      output.err(`skillsd: stop: no runtime file names the daemon at ${client.url}; stop it where it runs\n`);
      return EXIT.negative;
    }
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + STOP_DEADLINE_MS;
    while (isProcessAlive(pid)) {
      if (Date.now() > deadline) {
        output.err(`skillsd: stop: pid ${pid} is still running after ${STOP_DEADLINE_MS / 1000} s\n`);
        return EXIT.negative;
      }
      await sleep(POLL_MS);
    }
    if (values.json === true) output.out(`${JSON.stringify({ stopped: true, pid, url: client.url })}\n`);
    else output.out(`stopped skillsd (pid ${pid}) at ${client.url}\n`);
    return EXIT.ok;
  },
};
