// The `--config FILE` of docs/api.md §Starting it: JSON or YAML by extension, validated by parseSettings (unknown keys
// are errors), and watched so that an edit re-applies without a restart while a bad edit keeps the last good settings.

import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isSkillsdError } from '../discovery/errors.js';
import { parseSettings } from '../discovery/settings.js';
import type { Settings } from '../discovery/types.js';
import { DEFAULT_POLL_INTERVAL_MS, PresenceWatcher, type WatchMode } from '../watch/watch-presence.js';
import { CliError } from './cli-error.js';
import { BoundedReadError, nameWithRealPath, readBoundedFile } from './read-bounded-file.js';

/** A settings file is small; anything bigger is a mistake (or an attack on the parser), not a config. */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** Editors write in bursts (truncate, write, rename): wait this long after the last event before re-reading. */
const DEFAULT_DEBOUNCE_MS = 75;

/** A config file problem: `problem` is what is wrong, `message` also names the file. */
export class ConfigFileError extends Error {
  readonly file: string;
  readonly problem: string;

  constructor(file: string, problem: string) {
    super(`config file ${file}: ${problem}`);
    this.name = 'ConfigFileError';
    this.file = file;
    this.problem = problem;
  }
}

export interface LoadedConfig {
  /** Absolute path of the file. */
  file: string;
  settings: Settings;
  /** The text the settings came from: the watcher's starting point. */
  text: string;
}

/** Loads and validates the file at start. Throws `CliError` (exit 2) with a one-line message naming the file. */
export async function loadConfigFile(path: string): Promise<LoadedConfig> {
  const file = resolve(path);
  try {
    const text = await readConfigText(file);
    return { file, settings: parseConfigText(file, text), text };
  } catch (error) {
    if (error instanceof ConfigFileError) throw new CliError(error.message);
    throw error;
  }
}

/** Parses and validates config text; `file` (absolute) decides the format and anchors a relative `tokenFile`. */
export function parseConfigText(file: string, text: string): Settings {
  const extension = extname(file).toLowerCase();
  let data: unknown;
  if (extension === '.json') {
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ConfigFileError(file, `invalid JSON: ${(error as Error).message}`);
    }
  } else if (extension === '.yaml' || extension === '.yml') {
    try {
      // An empty YAML file is an empty document: the defaults.
      data = parseYaml(text, { maxAliasCount: 100, prettyErrors: true });
    } catch (error) {
      throw new ConfigFileError(file, `invalid YAML: ${firstLine((error as Error).message).replace(/:$/, '')}`);
    }
  } else {
    throw new ConfigFileError(file, `unsupported extension "${extension}" (use .json, .yaml or .yml)`);
  }
  let settings: Settings;
  try {
    settings = parseSettings(data);
  } catch (error) {
    if (isSkillsdError(error)) throw new ConfigFileError(file, error.message);
    throw error;
  }
  const tokenFile = settings.server.tokenFile;
  if (tokenFile !== undefined && !isAbsolute(tokenFile)) {
    settings.server.tokenFile = resolve(dirname(file), tokenFile);
  }
  return settings;
}

async function readConfigText(file: string): Promise<string> {
  try {
    return (await readBoundedFile(file, MAX_CONFIG_BYTES)).bytes.toString('utf8');
  } catch (error) {
    if (!(error instanceof BoundedReadError)) throw error;
    if (error.code === 'ENOENT') throw new ConfigFileError(file, error.problem);
    // A link to a device or an oversized file: name where it leads, that is the file to fix.
    const named = await nameWithRealPath(file);
    const problem = named === file ? error.problem : `${error.problem} (it is ${named.slice(file.length + 2, -1)})`;
    throw new ConfigFileError(file, problem);
  }
}

export interface ConfigWatchOptions {
  /** The config file; resolved to an absolute path. */
  file: string;
  /** The content already applied (the text read at start), so an event that changes nothing is ignored. */
  initialText?: string;
  onSettings: (settings: Settings) => void;
  onError: (error: ConfigFileError) => void;
  debounceMs?: number;
  /** `polling` (`--watch-mode poll`) stats the file each `pollIntervalMs` instead of waiting for events. */
  mode?: WatchMode;
  pollIntervalMs?: number;
}

export interface ConfigWatcher {
  close(): void;
}

/**
 * Watches the config file's name in its directory, not the file (a PresenceWatcher): editors that save by writing a
 * temporary file and renaming it over the original replace the inode, and a watch on the old inode would go quiet.
 * Out of kernel watches, it polls, as the skill watcher does (docs/index-and-events.md). Each burst of events is
 * debounced, the file re-read, and acted on only when its content changed (compared with `initialText` at first,
 * which is also checked once right after the watch starts).
 */
export function watchConfigFile(options: ConfigWatchOptions): ConfigWatcher {
  const file = resolve(options.file);
  const name = basename(file);
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  let lastText = options.initialText;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let checking: Promise<void> = Promise.resolve();

  const check = async (): Promise<void> => {
    let text: string;
    try {
      text = await readConfigText(file);
    } catch (error) {
      // Mid-replace the file can be briefly absent: the rename that completes the save fires another event.
      if (error instanceof ConfigFileError && error.problem === 'not found') return;
      if (!closed && error instanceof ConfigFileError) options.onError(error);
      return;
    }
    // A zero-length read is a save in progress (truncate, then write); its write fires another event.
    if (closed || text === lastText || text === '') return;
    lastText = text;
    let settings: Settings;
    try {
      settings = parseConfigText(file, text);
    } catch (error) {
      options.onError(error instanceof ConfigFileError ? error : new ConfigFileError(file, String(error)));
      return;
    }
    try {
      options.onSettings(settings);
    } catch (error) {
      options.onError(new ConfigFileError(file, `could not apply the settings: ${(error as Error).message}`));
    }
  };

  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      // Checks run one after another so a slow read never applies older content after newer.
      checking = checking.then(check);
    }, debounceMs);
  };

  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const follow = (mode: WatchMode): PresenceWatcher => {
    const watcher: PresenceWatcher = new PresenceWatcher({
      mode,
      pollIntervalMs,
      persistent: false,
      onError: (error) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (mode === 'polling' || (code !== 'ENOSPC' && code !== 'EMFILE')) return;
        // After `follow` has returned (the error may come from inside it): the polling watch replaces this one.
        queueMicrotask(() => {
          if (closed || presence !== watcher) return;
          watcher.close();
          presence = follow('polling');
        });
      },
    });
    // A gone directory ends the watch: the check finds the file missing, and nothing more can be watched there.
    watcher.watch(dirname(file), name, schedule);
    return watcher;
  };
  let presence = follow(options.mode ?? 'events');
  // The file may have changed between the read that produced `initialText` and the start of the watch.
  schedule();

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      presence.close();
    },
  };
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
