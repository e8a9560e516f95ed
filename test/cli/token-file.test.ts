import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { CliError } from '../../src/cli/cli-error.js';
import { assertPrivateConfigFile, loadTokenFile } from '../../src/cli/token-file.js';
import { makeTempDir } from '../helpers/temp-tree.js';

interface LogLine {
  fields: Record<string, unknown>;
  message: string;
}

function recordingLogger() {
  const lines: LogLine[] = [];
  return { lines, info: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) };
}

const LONG_TOKEN = 's3cret-token_value-0123456789abcdefghij';

function rejectsWith(message: string) {
  return (error: unknown) => error instanceof CliError && error.exitCode === 2 && error.message === message;
}

describe('loadTokenFile', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('creates a missing file with a fresh 32-byte base64url token, 0600 in a new 0700 directory', async () => {
    const file = join(dir, 'state', 'skillsd', 'token');
    const logger = recordingLogger();
    const token = await loadTokenFile(file, logger);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.equal(await readFile(file, 'utf8'), `${token}\n`);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'state', 'skillsd'))).mode & 0o777, 0o700);
    assert.deepEqual(logger.lines, [
      { fields: { tokenFile: file }, message: `generated a new bearer token in ${file}` },
    ]);
    assert.equal(JSON.stringify(logger.lines).includes(token), false);
  });

  it('reads the same token back, without logging', async () => {
    const file = join(dir, 'token');
    const first = await loadTokenFile(file, recordingLogger());
    const logger = recordingLogger();
    assert.equal(await loadTokenFile(file, logger), first);
    assert.deepEqual(logger.lines, []);
  });

  it('makes a fresh token each time a file is created', async () => {
    const a = await loadTokenFile(join(dir, 'a'), recordingLogger());
    const b = await loadTokenFile(join(dir, 'b'), recordingLogger());
    assert.notEqual(a, b);
  });

  it('leaves the mode of an existing parent directory alone', async () => {
    const parent = join(dir, 'shared');
    await mkdir(parent);
    await chmod(parent, 0o755);
    await loadTokenFile(join(parent, 'token'), recordingLogger());
    assert.equal((await stat(parent)).mode & 0o777, 0o755);
  });

  it('reads a 0600 file and trims it', async () => {
    const file = join(dir, 'token');
    await writeFile(file, `  ${LONG_TOKEN} \n\n`, { mode: 0o600 });
    assert.equal(await loadTokenFile(file, recordingLogger()), LONG_TOKEN);
  });

  it('refuses a token shorter than 32 characters', async () => {
    const file = join(dir, 'token');
    await writeFile(file, `${LONG_TOKEN.slice(0, 31)}\n`, { mode: 0o600 });
    await assert.rejects(
      loadTokenFile(file, recordingLogger()),
      rejectsWith(
        `token file ${file} holds a token of 31 characters: use at least 32 (or delete the token file and let skillsd generate one)`,
      ),
    );
    await writeFile(file, `${LONG_TOKEN.slice(0, 32)}\n`, { mode: 0o600 });
    assert.equal(await loadTokenFile(file, recordingLogger()), LONG_TOKEN.slice(0, 32));
  });

  it("refuses a file owned by another user than the daemon's", async () => {
    const file = join(dir, 'token');
    await writeFile(file, `${LONG_TOKEN}\n`, { mode: 0o600 });
    const owner = process.getuid?.() ?? 0;
    await assert.rejects(
      loadTokenFile(file, recordingLogger(), owner + 1),
      rejectsWith(`token file ${file} is owned by uid ${owner}, not by the daemon's user (uid ${owner + 1})`),
    );
  });

  it('refuses a file in a directory that others may write, unless it is sticky', async () => {
    const parent = join(dir, 'shared');
    await mkdir(parent);
    const file = join(parent, 'token');
    await writeFile(file, `${LONG_TOKEN}\n`, { mode: 0o600 });
    for (const mode of [0o777, 0o775, 0o757]) {
      await chmod(parent, mode);
      const octal = mode.toString(8).padStart(4, '0');
      await assert.rejects(
        loadTokenFile(file, recordingLogger()),
        rejectsWith(
          `token file ${file} is in ${parent}, which group or others may write (mode ${octal}): run chmod go-w ${parent}`,
        ),
      );
    }
    await chmod(parent, 0o1777);
    assert.equal(await loadTokenFile(file, recordingLogger()), LONG_TOKEN);
  });

  it('names the real file when the path is a link, and reads no device', async () => {
    const real = join(dir, 'real-token');
    await writeFile(real, 'short\n', { mode: 0o600 });
    const link = join(dir, 'token');
    await symlink(real, link);
    await assert.rejects(
      loadTokenFile(link, recordingLogger()),
      rejectsWith(
        `token file ${link} (${real}) holds a token of 5 characters: use at least 32 (or delete the token file and let skillsd generate one)`,
      ),
    );
    const device = join(dir, 'zero');
    await symlink('/dev/zero', device);
    await assert.rejects(
      loadTokenFile(device, recordingLogger()),
      rejectsWith(`token file ${device} (/dev/zero): not a regular file`),
    );
  });

  it('refuses a file larger than a token file can be', async () => {
    const file = join(dir, 'token');
    await writeFile(file, `${'x'.repeat(5000)}\n`, { mode: 0o600 });
    await assert.rejects(
      loadTokenFile(file, recordingLogger()),
      rejectsWith(`token file ${file}: larger than 4096 bytes`),
    );
  });

  for (const mode of [0o644, 0o640, 0o604, 0o620, 0o601]) {
    const octal = mode.toString(8).padStart(4, '0');
    it(`refuses a file with mode ${octal}`, async () => {
      const file = join(dir, 'token');
      await writeFile(file, 'secret\n');
      await chmod(file, mode);
      await assert.rejects(
        loadTokenFile(file, recordingLogger()),
        rejectsWith(`token file ${file} is accessible by group or others (mode ${octal}): run chmod 600 ${file}`),
      );
    });
  }

  it('refuses an empty file', async () => {
    const file = join(dir, 'token');
    await writeFile(file, ' \n\t\n', { mode: 0o600 });
    await assert.rejects(loadTokenFile(file, recordingLogger()), rejectsWith(`token file ${file} is empty`));
  });

  it('refuses a file holding more than one word', async () => {
    const file = join(dir, 'token');
    await writeFile(file, 'two words\n', { mode: 0o600 });
    await assert.rejects(
      loadTokenFile(file, recordingLogger()),
      rejectsWith(`token file ${file} must hold one token of printable ASCII characters without spaces`),
    );
  });

  it('refuses a directory', async () => {
    const file = join(dir, 'token');
    await mkdir(file, { mode: 0o700 });
    await assert.rejects(loadTokenFile(file, recordingLogger()), rejectsWith(`token file ${file}: not a regular file`));
  });

  it('refuses a path through a file', async () => {
    await writeFile(join(dir, 'plain'), 'x');
    const file = join(dir, 'plain', 'token');
    await assert.rejects(
      loadTokenFile(file, recordingLogger()),
      rejectsWith(`token file ${file}: a parent path is not a directory`),
    );
  });
});

describe('assertPrivateConfigFile', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('accepts a 0600 config file', async () => {
    const file = join(dir, 'skillsd.yaml');
    await writeFile(file, 'server:\n  token: abc\n', { mode: 0o600 });
    await assertPrivateConfigFile(file);
  });

  it('refuses a config file holding a token that others can read', async () => {
    const file = join(dir, 'skillsd.yaml');
    await writeFile(file, 'server:\n  token: abc\n');
    await chmod(file, 0o644);
    await assert.rejects(
      assertPrivateConfigFile(file),
      rejectsWith(
        `config file ${file} holds server.token but is accessible by group or others (mode 0644): run chmod 600 ${file}`,
      ),
    );
  });
});
