import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { CliError } from '../../src/cli/cli-error.js';
import {
  type ConfigFileError,
  type ConfigWatcher,
  loadConfigFile,
  watchConfigFile,
} from '../../src/cli/config-file.js';
import { defaultSettings, parseSettings } from '../../src/discovery/settings.js';
import type { Settings } from '../../src/discovery/types.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { canWriteThroughMapping, writeThroughMapping } from '../helpers/mapped-write.js';
import { makeTempDir } from '../helpers/temp-tree.js';

function rejectsWith(message: string) {
  return (error: unknown) => error instanceof CliError && error.exitCode === 2 && error.message === message;
}

type WatchEvent = { settings: Settings } | { error: string };

/** Collects watcher callbacks; `next()` waits (with a deadline) for the next one. */
function eventQueue() {
  const events: WatchEvent[] = [];
  const waiters: Array<(event: WatchEvent) => void> = [];
  const push = (event: WatchEvent) => {
    const waiter = waiters.shift();
    if (waiter) waiter(event);
    else events.push(event);
  };
  return {
    onSettings: (settings: Settings) => push({ settings }),
    onError: (error: ConfigFileError) => push({ error: error.message }),
    next(deadlineMs = WAIT_MS): Promise<WatchEvent> {
      const ready = events.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no watcher event before the deadline')), deadlineMs);
        waiters.push((event) => {
          clearTimeout(timer);
          resolve(event);
        });
      });
    },
  };
}

describe('loadConfigFile', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('loads JSON', async () => {
    const file = join(dir, 'skillsd.json');
    const text = JSON.stringify({ profile: 'omp', skills: { ignoredSkills: ['tmp-*'] }, server: { port: 9000 } });
    await writeFile(file, text);
    const loaded = await loadConfigFile(file);
    assert.equal(loaded.file, file);
    assert.equal(loaded.text, text);
    assert.deepEqual(
      loaded.settings,
      parseSettings({ profile: 'omp', skills: { ignoredSkills: ['tmp-*'] }, server: { port: 9000 } }),
    );
  });

  for (const extension of ['.yaml', '.yml', '.YAML']) {
    it(`loads YAML (${extension})`, async () => {
      const file = join(dir, `skillsd${extension}`);
      await writeFile(
        file,
        'profile: xcsh\nsymlinks: follow\nserver:\n  allowedOrigins:\n    - http://localhost:5173\n',
      );
      const { settings } = await loadConfigFile(file);
      assert.deepEqual(
        settings,
        parseSettings({ profile: 'xcsh', symlinks: 'follow', server: { allowedOrigins: ['http://localhost:5173'] } }),
      );
    });
  }

  it('takes an empty YAML file as the defaults', async () => {
    const file = join(dir, 'skillsd.yaml');
    await writeFile(file, '');
    assert.deepEqual((await loadConfigFile(file)).settings, defaultSettings());
  });

  it('resolves a relative server.tokenFile against the config file directory', async () => {
    const file = join(dir, 'conf', 'skillsd.yaml');
    await mkdir(join(dir, 'conf'));
    await writeFile(file, 'server:\n  tokenFile: secrets/token\n');
    assert.equal((await loadConfigFile(file)).settings.server.tokenFile, join(dir, 'conf', 'secrets', 'token'));
  });

  it('resolves a relative config path against the current directory', async () => {
    const file = join(dir, 'skillsd.json');
    await writeFile(file, '{}');
    assert.equal((await loadConfigFile(relative(process.cwd(), file))).file, file);
  });

  it('refuses a missing file', async () => {
    const file = join(dir, 'missing.yaml');
    await assert.rejects(loadConfigFile(file), rejectsWith(`config file ${file}: not found`));
  });

  it('refuses a directory', async () => {
    const file = join(dir, 'conf.json');
    await mkdir(file);
    await assert.rejects(loadConfigFile(file), rejectsWith(`config file ${file}: is a directory, not a file`));
  });

  it('refuses a config linked to /dev/zero at once, naming where the link leads', async () => {
    // readFile would read the device until memory ran out: the file is fstat-ed first and only regular files read.
    const file = join(dir, 'skillsd.yaml');
    await symlink('/dev/zero', file);
    await assert.rejects(
      loadConfigFile(file),
      rejectsWith(`config file ${file}: not a regular file (it is /dev/zero)`),
    );
  });

  it('refuses a FIFO without waiting for a writer', async () => {
    const file = join(dir, 'skillsd.yaml');
    execFileSync('mkfifo', [file]);
    await assert.rejects(loadConfigFile(file), rejectsWith(`config file ${file}: not a regular file`));
  });

  it('reads a file of exactly the limit and refuses one byte more', async () => {
    const file = join(dir, 'skillsd.yaml');
    const limit = 1024 * 1024;
    await writeFile(file, `#${'x'.repeat(limit - 2)}\n`);
    assert.deepEqual((await loadConfigFile(file)).settings, defaultSettings());
    await writeFile(file, `#${'x'.repeat(limit - 1)}\n`);
    await assert.rejects(loadConfigFile(file), rejectsWith(`config file ${file}: larger than ${limit} bytes`));
  });

  it('refuses an unsupported extension', async () => {
    const file = join(dir, 'skillsd.toml');
    await writeFile(file, 'profile = "omp"\n');
    await assert.rejects(
      loadConfigFile(file),
      rejectsWith(`config file ${file}: unsupported extension ".toml" (use .json, .yaml or .yml)`),
    );
  });

  it('refuses bad JSON with the parser message', async () => {
    const file = join(dir, 'skillsd.json');
    await writeFile(file, '{"profile": omp}');
    const parserMessage = (() => {
      try {
        JSON.parse('{"profile": omp}');
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    await assert.rejects(loadConfigFile(file), rejectsWith(`config file ${file}: invalid JSON: ${parserMessage}`));
  });

  it('refuses bad YAML naming the line and column', async () => {
    const file = join(dir, 'skillsd.yaml');
    await writeFile(file, 'profile: omp: x\n');
    await assert.rejects(
      loadConfigFile(file),
      rejectsWith(
        `config file ${file}: invalid YAML: Nested mappings are not allowed in compact mappings at line 1, column 10`,
      ),
    );
  });

  it('refuses duplicate YAML keys', async () => {
    const file = join(dir, 'skillsd.yml');
    await writeFile(file, 'profile: omp\nprofile: xcsh\n');
    await assert.rejects(
      loadConfigFile(file),
      rejectsWith(`config file ${file}: invalid YAML: Map keys must be unique at line 2, column 1`),
    );
  });

  it('refuses an unknown key, naming it', async () => {
    const file = join(dir, 'skillsd.yaml');
    await writeFile(file, 'skills:\n  enablePiProjet: false\n');
    await assert.rejects(
      loadConfigFile(file),
      rejectsWith(`config file ${file}: unknown setting "skills.enablePiProjet"`),
    );
  });

  it('refuses a YAML alias bomb', async () => {
    const file = join(dir, 'skillsd.yaml');
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${'b'.repeat(i)}: &${'b'.repeat(i)} [${`*${i === 1 ? 'a' : 'b'.repeat(i - 1)}, `.repeat(10).slice(0, -2)}]`,
      );
    await writeFile(file, `${lines.join('\n')}\n`);
    await assert.rejects(loadConfigFile(file), (error: unknown) => {
      return error instanceof CliError && error.message.startsWith(`config file ${file}: invalid YAML: `);
    });
  });
});

describe('watchConfigFile', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let watcher: ConfigWatcher | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(async () => {
    watcher?.close();
    await cleanup();
  });

  async function start(name: string, text: string) {
    const file = join(dir, name);
    await writeFile(file, text);
    const queue = eventQueue();
    watcher = watchConfigFile({ file, initialText: text, onSettings: queue.onSettings, onError: queue.onError });
    return { file, queue };
  }

  it('re-applies a good edit', async () => {
    const { file, queue } = await start('skillsd.yaml', 'profile: omp\n');
    await writeFile(file, 'profile: xcsh\nskills:\n  ignoredSkills: [secret]\n');
    assert.deepEqual(await queue.next(), {
      settings: parseSettings({ profile: 'xcsh', skills: { ignoredSkills: ['secret'] } }),
    });
  });

  it('follows an editor that saves by renaming a new file over the old one, again and again', async () => {
    const { file, queue } = await start('skillsd.json', '{}');
    for (const profile of ['omp', 'xcsh', 'musepi']) {
      const temporary = join(dir, `.skillsd.json.${profile}.tmp`);
      await writeFile(temporary, JSON.stringify({ profile }));
      await rename(temporary, file);
      assert.deepEqual(await queue.next(), { settings: parseSettings({ profile }) });
    }
  });

  it('reports garbage and unknown keys, then applies the fixed file', async () => {
    const { file, queue } = await start('skillsd.yaml', 'profile: omp\n');
    await writeFile(file, '}{ not yaml\n');
    assert.deepEqual(await queue.next(), {
      error: `config file ${file}: invalid YAML: Unexpected flow-map-end token in YAML document: "}" at line 1, column 1`,
    });
    await writeFile(file, 'profil: omp\n');
    assert.deepEqual(await queue.next(), { error: `config file ${file}: unknown setting "profil"` });
    await writeFile(file, 'profile: xcsh\n');
    assert.deepEqual(await queue.next(), { settings: parseSettings({ profile: 'xcsh' }) });
  });

  it('ignores a save that does not change the content, and other files in the directory', async () => {
    const { file, queue } = await start('skillsd.yaml', 'profile: omp\n');
    await writeFile(file, 'profile: omp\n');
    await writeFile(join(dir, 'other.yaml'), 'garbage: [');
    // The first event after those must be this real change.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writeFile(file, 'profile: xcsh\n');
    assert.deepEqual(await queue.next(), { settings: parseSettings({ profile: 'xcsh' }) });
  });

  it('sees the final content of two quick writes', async () => {
    const { file, queue } = await start('skillsd.yaml', 'profile: omp\n');
    await writeFile(file, 'profile: xcsh\n');
    await writeFile(file, 'profile: musepi\nsymlinks: follow\n');
    let event = await queue.next();
    // Depending on how the writes and the debounce interleave, the first write may or may not be seen on its own.
    if ('settings' in event && event.settings.profile === 'xcsh') event = await queue.next();
    assert.deepEqual(event, { settings: parseSettings({ profile: 'musepi', symlinks: 'follow' }) });
  });

  it('applies a change made between the first read and the start of the watch', async () => {
    const file = join(dir, 'skillsd.yaml');
    await writeFile(file, 'profile: xcsh\n');
    const queue = eventQueue();
    watcher = watchConfigFile({
      file,
      initialText: 'profile: omp\n',
      onSettings: queue.onSettings,
      onError: queue.onError,
    });
    assert.deepEqual(await queue.next(), { settings: parseSettings({ profile: 'xcsh' }) });
  });

  it('polls in polling mode (--watch-mode poll): an edit no file event reports is applied', {
    skip: !canWriteThroughMapping && 'needs python3 to write through a mapping',
  }, async () => {
    const file = join(dir, 'skillsd.json');
    await writeFile(file, '{"profile":"omp" }');
    const queue = eventQueue();
    // Started from other text: the first event says the watcher's first look is done, so what follows is the poll's.
    watcher = watchConfigFile({
      file,
      initialText: '{}',
      mode: 'polling',
      pollIntervalMs: 20,
      onSettings: queue.onSettings,
      onError: queue.onError,
    });
    assert.deepEqual(await queue.next(), { settings: parseSettings({ profile: 'omp' }) });
    writeThroughMapping(file, '{"profile":"xcsh"}');
    assert.deepEqual(await queue.next(), { settings: parseSettings({ profile: 'xcsh' }) });
  });

  it('stops reporting once closed', async () => {
    const { file, queue } = await start('skillsd.yaml', 'profile: omp\n');
    watcher?.close();
    await writeFile(file, 'profile: xcsh\n');
    await assert.rejects(queue.next(300), /no watcher event before the deadline/);
  });
});
