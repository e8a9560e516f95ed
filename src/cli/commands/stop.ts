// `skillsd stop`: stops the running daemon with SIGTERM (its graceful shutdown: streams ended, watchers closed, the
// runtime file removed) and returns once the process is gone. The pid comes from a runtime file that passed every
// check (this user's file, this user's live process, started when the file says), and the signal goes only to that
// same process, checked again at the moment it is sent (docs/cli.md "Trusting only your own daemon").

import { setTimeout as sleep } from 'node:timers/promises';
import { runtimeProcessProblem } from '../../client/runtime-file.js';
import { formatJsonLine } from '../output.js';
import { type ClientCommand, EXIT } from './command.js';

/** A daemon exits within 5 s of SIGTERM (docs/api.md "Starting it"); this is the safety net beyond it. */
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
    const runtime = daemon?.runtime;
    if (runtime === undefined) {
      output.err(`skillsd: stop: no runtime file names the daemon at ${client.url}; stop it where it runs\n`);
      return EXIT.negative;
    }
    const { pid } = runtime;
    const problem = runtimeProcessProblem(runtime);
    if (problem !== undefined) {
      output.err(`skillsd: stop: not signalling pid ${pid}: ${problem.reason}\n`);
      return EXIT.negative;
    }
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + STOP_DEADLINE_MS;
    // Gone once no process of this user started at the recorded time holds the pid.
    while (runtimeProcessProblem(runtime) === undefined) {
      if (Date.now() > deadline) {
        output.err(`skillsd: stop: pid ${pid} is still running after ${STOP_DEADLINE_MS / 1000} s\n`);
        return EXIT.negative;
      }
      await sleep(POLL_MS);
    }
    if (values.json === true) output.out(formatJsonLine({ stopped: true, pid, url: client.url }));
    else output.out(`stopped skillsd (pid ${pid}) at ${client.url}\n`);
    return EXIT.ok;
  },
};
