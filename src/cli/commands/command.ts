// The shape of one client command: its usage, its flags (node:util parseArgs), whether it may answer in-process
// when no daemon runs, and what it does with a connected client.

import type { ParseArgsConfig } from 'node:util';
import { SkillsdApiError } from '../../client/errors.js';
import type { DaemonLocation } from '../../client/find-daemon.js';
import type { SkillsdClient } from '../../client/skillsd-client.js';
import type { Output } from '../output.js';

export type OptionValues = Record<string, string | boolean | undefined>;

export interface CommandContext {
  client: SkillsdClient;
  /** The daemon found, or undefined when answering in-process. */
  daemon: DaemonLocation | undefined;
  /** True when the answer is computed in-process (no daemon). */
  local: boolean;
  output: Output;
  values: OptionValues;
  positionals: string[];
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Looks the daemon up again (runtime file first) after a lost connection; absent when the address was given
   * (`--url`, `SKILLSD_URL`) or the answer is in-process.
   */
  relocate?: () => Promise<DaemonLocation | undefined>;
}

export interface ClientCommand {
  /** `ls [--json] …`: the usage line after `skillsd `. */
  usage: string;
  /** What it does, for `--help`. */
  summary: string;
  /** Flags of this command besides the common ones. */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Help lines for those flags. */
  optionHelp?: string[];
  positionals: { min: number; max: number };
  /** May answer in-process for `--cwd` when no daemon runs (the read-only commands). */
  inProcess: boolean;
  /** Returns the exit code (docs/cli.md). */
  run(context: CommandContext): Promise<number>;
}

/** Exit codes of docs/cli.md. */
export const EXIT = { ok: 0, negative: 1, usage: 2, noDaemon: 3, timeout: 124 } as const;

/**
 * An error answer of the daemon that no reconnection will change (a wrong token, a bad parameter, a workspace it
 * refuses): `watch` and `wait` end with it instead of retrying. A 503 passes by itself and is retried.
 */
export function refusal(error: unknown): error is SkillsdApiError {
  return error instanceof SkillsdApiError && error.status >= 400 && error.status < 500;
}
