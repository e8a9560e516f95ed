// The CPU time a process's main thread has used, read from /proc (Linux): how long a test's wait was spent running
// that thread's event loop, apart from the time a loaded machine left it waiting for a core. A wait that held the event
// loop is CPU time of the main thread; a process preempted for as long uses none. Other threads (V8's helpers, the
// thread pool) are not counted.

import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Milliseconds of CPU the main thread of `pid` has used (user and system); undefined without /proc. */
export function mainThreadCpuMs(pid: number = process.pid): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // `pid (comm) state …`: the name may hold spaces and parentheses, so fields are counted after the last `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the state.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
