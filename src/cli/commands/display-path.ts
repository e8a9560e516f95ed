// Paths as the agent-view commands print them: `./…` under the workspace, `~/…` under HOME, else absolute.

export function displayPath(path: string, cwd: string, home: string): string {
  if (path === cwd || path.startsWith(`${cwd}/`)) return `./${path.slice(cwd.length + 1)}`.replace(/\/$/, '');
  if (path === home || path.startsWith(`${home}/`)) return `~/${path.slice(home.length + 1)}`.replace(/\/$/, '');
  return path;
}
