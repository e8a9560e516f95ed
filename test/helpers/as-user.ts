// Requests made by another local user: `setpriv` (util-linux) runs curl under the given uid and gid, so the client's
// socket really belongs to that user in the kernel's tables. Switching users needs root.

import { spawn } from 'node:child_process';

export interface UserAnswer {
  status: number;
  body: string;
}

/** True when this process can run clients as other users (root, with setpriv and curl installed). */
export const canSwitchUsers = process.getuid?.() === 0;

/**
 * `curl` as `uid` (its own group, no supplementary groups); the status and body of the answer. A 503 `Overloaded`
 * (a loaded test machine lags the daemon's event loop past its bound) is retried until the daemon answers.
 */
export async function requestAs(uid: number, url: string, headers: string[] = [], method = 'GET'): Promise<UserAnswer> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await curlAs(uid, url, headers, method);
    if (!isOverloaded(answer.status, answer.body) || Date.now() > deadline) return answer;
  }
}

/** True for the daemon's load-shedding answer. */
export function isOverloaded(status: number, body: string): boolean {
  return status === 503 && body.includes('"code":"Overloaded"');
}

function curlAs(uid: number, url: string, headers: string[], method: string): Promise<UserAnswer> {
  const args = [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', 'curl', '--silent', '--globoff'];
  args.push('--max-time', '20', '--request', method, '--output', '-', '--write-out', '\n%{http_code}');
  for (const header of headers) args.push('--header', header);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('setpriv', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const split = out.lastIndexOf('\n');
      const status = Number(out.slice(split + 1));
      if (code !== 0 || !(status > 0)) {
        reject(new Error(`curl as uid ${uid} failed (exit ${code}): ${err}${out}`));
        return;
      }
      resolve({ status, body: out.slice(0, split) });
    });
  });
}
