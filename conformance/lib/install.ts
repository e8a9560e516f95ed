// Installs the pinned agents from the npm registry into a cache folder outside the repository. Idempotent: an
// agent whose folder already holds its pinned version is not installed again. The versions live in
// conformance/agents.json alone (docs/conformance.md "Bumping an agent").

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceAgent, InstalledAgent } from './types.js';

interface PinnedAgent {
  package: string;
  version: string;
  bin: string;
}

export const PINNED: Record<ConformanceAgent, PinnedAgent> = JSON.parse(
  readFileSync(new URL('../agents.json', import.meta.url), 'utf8'),
);

export const AGENTS = Object.keys(PINNED) as ConformanceAgent[];

/** `SKILLSD_CONFORMANCE_CACHE`, else `~/.cache/skillsd-conformance`. */
export function cacheDir(): string {
  return process.env.SKILLSD_CONFORMANCE_CACHE || join(homedir(), '.cache', 'skillsd-conformance');
}

/** Where the agent is (or would be) installed, and its executable. */
export function installedAgent(agent: ConformanceAgent): InstalledAgent {
  const pin = PINNED[agent];
  const dir = join(cacheDir(), `${agent}-${pin.version}`);
  return { agent, package: pin.package, version: pin.version, dir, bin: join(dir, 'node_modules', '.bin', pin.bin) };
}

/** Installs the agent unless its folder already holds the pinned version; returns where it is. */
export function installAgent(agent: ConformanceAgent, log: (line: string) => void = () => {}): InstalledAgent {
  const installed = installedAgent(agent);
  const manifest = join(installed.dir, 'node_modules', ...installed.package.split('/'), 'package.json');
  if (existsSync(installed.bin) && readVersion(manifest) === installed.version) return installed;
  log(`installing ${installed.package}@${installed.version} into ${installed.dir}`);
  // Into a sibling folder first, renamed into place when complete: an interrupted install is never taken for one.
  const partial = `${installed.dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'package.json'), '{ "private": true }\n');
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-save',
      '--loglevel=error',
      `${installed.package}@${installed.version}`,
    ],
    { cwd: partial, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  rmSync(installed.dir, { recursive: true, force: true });
  renameSync(partial, installed.dir);
  return installed;
}

function readVersion(manifest: string): string | null {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}
