// `skillsd status`: the running daemon: pid, URL, workspace, uptime, skills (GET /health and the runtime file).

import { formatJson, inline } from '../output.js';
import { type ClientCommand, EXIT } from './command.js';

export const statusCommand: ClientCommand = {
  usage: 'status [--json]',
  summary: 'The running daemon: pid, URL, workspace, uptime, generation and skills (exit 3 when none runs).',
  options: {},
  positionals: { min: 0, max: 0 },
  inProcess: false,
  async run({ client, daemon, output, values }) {
    const health = await client.health();
    const runtime = daemon?.runtime;
    // The workspace answered for: `--cwd`, else the daemon's default (named by the runtime file, or by /skills).
    const cwd = client.cwd ?? runtime?.cwd ?? (await client.skills()).cwd;
    const status = {
      url: client.url,
      pid: runtime?.pid ?? null,
      cwd,
      startedAt: runtime?.startedAt ?? null,
      version: runtime?.version ?? null,
      ...health,
    };
    if (values.json === true) {
      output.out(formatJson(status));
      return EXIT.ok;
    }
    const lines = [
      `skillsd ${status.version ?? ''} at ${status.url}${status.pid === null ? '' : ` (pid ${status.pid})`}`.replace(
        '  ',
        ' ',
      ),
      `  workspace   ${inline(cwd)}`,
      `  status      ${health.status}, up ${uptime(health.uptimeS)}`,
      `  index       generation ${health.generation}, ${health.skills} skills`,
      `  workspaces  ${health.workspaces}, watchers ${health.watchers}`,
    ];
    output.out(`${lines.join('\n')}\n`);
    return EXIT.ok;
  },
};

function uptime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
