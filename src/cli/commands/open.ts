// `skillsd open`: the running daemon's page (`/ui`, docs/api.md "GET /ui") in the browser when one can be started
// (stdout is a terminal and `xdg-open`, or `open` on macOS, is on the PATH), else its URL on stdout. A token the
// client holds goes in the URL's fragment, which the browser never sends: the page keeps it for the tab.

import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { type ClientCommand, EXIT } from './command.js';

/** An opener still running after this long has handed the URL to a browser that stays in the foreground. */
const OPENER_WAIT_MS = 5000;

export const openCommand: ClientCommand = {
  usage: 'open [--print]',
  summary: 'Opens the daemon’s page (/ui) in the browser; prints its URL when no browser can be started.',
  options: { print: { type: 'boolean' } },
  optionHelp: ['--print            print the URL only (it carries the token, if any, in its #fragment)'],
  positionals: { min: 0, max: 0 },
  inProcess: false,
  async run({ client, daemon, output, values, env }) {
    // A page with nothing behind it helps nobody: no daemon is exit 3, as for status.
    await client.health();
    const page = new URL('/ui', client.url);
    if (client.cwd !== undefined) page.searchParams.set('cwd', client.cwd);
    const token = daemon?.token;
    const withToken = token === undefined ? page.href : `${page.href}#token=${encodeURIComponent(token)}`;
    if (values.print !== true && output.isTTY) {
      const opener = await findOpener(env);
      if (opener !== undefined && (await startOpener(opener, withToken))) {
        output.out(`Opened ${page.href} in the browser\n`);
        return EXIT.ok;
      }
    }
    output.out(`${withToken}\n`);
    return EXIT.ok;
  },
};

async function findOpener(env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  const name = process.platform === 'darwin' ? 'open' : 'xdg-open';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/** True when the opener took the URL: it exited 0, or is still running (a browser in the foreground). */
function startOpener(opener: string, url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      child.unref();
      resolve(true);
    }, OPENER_WAIT_MS);
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
