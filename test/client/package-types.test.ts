// The typed client as a package consumer gets it (docs/cli.md "The client library"): `import … from 'skillsd/client'`
// resolves through the package's `exports` map to the built JavaScript and its declarations, compiles under
// `--strict` (its `@ts-expect-error` lines fail the compile if a type came out as `any`), and runs against the built
// daemon. The package is linked into a temp `node_modules`, as `npm install` would place it.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

const CONSUMER = `import { homedir } from 'node:os';
import { findDaemon, SkillsdApiError, SkillsdClient, type Skill, type SkillsAnswer } from 'skillsd/client';

const daemon = await findDaemon({ env: process.env, home: homedir(), cwd: process.argv[2] as string });
const client = new SkillsdClient({ ...daemon });
const answer: SkillsAnswer = await client.skills();
const first: Skill | undefined = answer.skills[0];
// @ts-expect-error generation is a number
const notAString: string = answer.generation;
void notAString;
// @ts-expect-error a level is user or project
const level: 'team' = first?.source.level ?? 'team';
void level;
let missing = '';
try {
  await client.skill('nope');
} catch (error) {
  if (error instanceof SkillsdApiError) missing = error.code;
}
console.log(JSON.stringify({ source: daemon.source, names: answer.skills.map((s) => s.name), missing }));
`;

describe('skillsd/client as a TypeScript package', () => {
  it('compiles a strict consumer against the built package and runs it against the daemon', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-client-package-');
    t.after(cleanup);
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    const consumer = join(dir, 'consumer');
    await writeTree(dir, {
      'home/.keep': '',
      'project/.git/HEAD': 'ref: refs/heads/main\n',
      'project/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
      'consumer/package.json': JSON.stringify({ type: 'module' }),
      'consumer/main.ts': CONSUMER,
      'consumer/tsconfig.json': JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023'],
          strict: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
          outDir: 'out',
        },
        files: ['main.ts'],
      }),
    });
    await mkdir(join(consumer, 'node_modules'));
    await symlink(ROOT, join(consumer, 'node_modules/skillsd'), 'dir');
    const compiled = await run(process.execPath, [TSC, '-p', join(consumer, 'tsconfig.json')]).catch(
      (error: { stdout?: string }) => assert.fail(`tsc refused the consumer:\n${error.stdout}`),
    );
    assert.equal(compiled.stdout, '');

    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    const { stdout } = await run(process.execPath, [join(consumer, 'out/main.js'), project], {
      env: { PATH: process.env.PATH ?? '', HOME: home },
    });
    assert.deepEqual(JSON.parse(stdout), { source: 'runtime-file', names: ['pdf'], missing: 'SkillNotFound' });
    // The command line is still the package's bin.
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    assert.deepEqual(manifest.bin, { skillsd: 'dist/skillsd.cjs' });
  });
});
