// One core kept busy next to a measurement, as on a machine that also runs a build: a `node -e 'for(;;){}'` child,
// registered with processes.ts so an error or Ctrl-C stops it too, and stopped by its pid.

import { type ChildProcess, spawn } from 'node:child_process';
import { stopChild, track } from './processes.js';

export interface BusyLoop {
  pid: number;
  stop(): Promise<void>;
}

export function startBusyLoop(): BusyLoop {
  const child: ChildProcess = track(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  if (child.pid === undefined) throw new Error('the busy loop did not start');
  return { pid: child.pid, stop: () => stopChild(child, 1000) };
}
