// Loaded with `node --import` (through NODE_OPTIONS): on SIGUSR2, writes `{"first":…,"now":…}` to the file
// SKILLSD_TEST_NEW_SPACE_LOG: the size in bytes of V8's new space (the young generation's semi-space) when the process
// started, and at the signal. A test can so ask a running process whether its young generation is back where it began.

import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const log = process.env.SKILLSD_TEST_NEW_SPACE_LOG;
if (log !== undefined && log !== '') {
  const size = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  const first = size();
  process.on('SIGUSR2', () => writeFileSync(log, JSON.stringify({ first, now: size() })));
}
