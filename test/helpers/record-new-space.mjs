// Loaded with `node --import` (through NODE_OPTIONS): on SIGUSR2, writes `{"first":…}` to the file
// SKILLSD_TEST_NEW_SPACE_LOG: the size in bytes of V8's new space (the young generation's semi-space) when the process
// started, before any module of its own loaded. A test compares what the process logs with it.

import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const log = process.env.SKILLSD_TEST_NEW_SPACE_LOG;
if (log !== undefined && log !== '') {
  const first = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  process.on('SIGUSR2', () => writeFileSync(log, JSON.stringify({ first })));
}
