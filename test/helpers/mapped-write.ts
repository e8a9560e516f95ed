// A write no file event reports: the bytes go through a shared memory mapping of the file (inotify reports nothing
// for writes through mmap), while its mtime moves as for any write. What a file system whose events do not reach the
// process looks like, on a local disk: only polling sees it. Node cannot map a file, so python3 does the write.

import { execFileSync } from 'node:child_process';

const SCRIPT = [
  'import mmap, sys',
  "data = sys.argv[2].encode('utf-8')",
  "with open(sys.argv[1], 'r+b') as f:",
  '    m = mmap.mmap(f.fileno(), 0)',
  '    m[0:len(data)] = data',
  '    m.flush()',
  '    m.close()',
].join('\n');

/** Whether `writeThroughMapping` can run here. */
export const canWriteThroughMapping = (() => {
  try {
    execFileSync('python3', ['-c', 'import mmap'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Overwrites the first bytes of `path` (which must be at least as long) with `text`, through a mapping. */
export function writeThroughMapping(path: string, text: string): void {
  execFileSync('python3', ['-c', SCRIPT, path, text]);
}
