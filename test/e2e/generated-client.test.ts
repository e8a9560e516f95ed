// What an editor-plugin author does with the OpenAPI document: generate types with openapi-typescript, write a client
// against them with plain fetch, compile it with tsc (strict), run it against the built daemon. The program uses the
// named schemas, the operations by their ids, the declared headers and the event types; its `@ts-expect-error` lines
// fail the compile if any of them came out as `unknown` or `any`.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OPENAPI_TS = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

const PROGRAM = `import { mkdirSync, writeFileSync } from 'node:fs';
import type { components, operations, paths } from './openapi-types.js';

type Skill = components['schemas']['Skill'];
type ErrorBody = components['schemas']['ErrorBody'];
type Health = components['schemas']['Health'];
type ServerSentEvent = components['schemas']['ServerSentEvent'];
type IndexEvent = components['schemas']['IndexEvent'];
type HelloEvent = components['schemas']['HelloEvent'];
type Finding = components['schemas']['Finding'];
type ListSkills = operations['listSkills'];
type SkillIndex = ListSkills['responses'][200]['content']['application/json'];
type ListSkillsHeaders = NonNullable<ListSkills['parameters']['header']>;
type ListSkillsQuery = NonNullable<ListSkills['parameters']['query']>;
type ETag = ListSkills['responses'][200]['headers']['ETag'];
type Unauthorized = ListSkills['responses'][401];
type NotFound = paths['/skills/{name}']['get']['responses'][404]['content']['application/json'];
type EventsHeaders = NonNullable<operations['streamEvents']['parameters']['header']>;

const [base, token, skillsDir] = process.argv.slice(2) as [string, string, string];
const auth = { authorization: 'Bearer ' + token };

async function listSkills(query: ListSkillsQuery, headers: ListSkillsHeaders = {}) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const response = await fetch(base + '/skills?' + search, { headers: { ...auth, ...headers } });
  const etag: ETag = response.headers.get('etag') ?? '';
  const body = response.status === 200 ? ((await response.json()) as SkillIndex) : undefined;
  return { status: response.status, etag, body };
}

const first = await listSkills({ hidden: false });
const index = first.body as SkillIndex;
const skill: Skill = index.skills[0] as Skill;
// @ts-expect-error generation is a number, not unknown
const notAString: string = index.generation;
void notAString;
// @ts-expect-error the ETag header is a string
const notANumber: number = first.etag;
void notANumber;
// @ts-expect-error a level is user or project
const badQuery: ListSkillsQuery = { level: 'system' };
void badQuery;
const again = await listSkills({ hidden: false }, { 'if-none-match': first.etag });

const missing = await fetch(base + '/skills/nope', { headers: auth });
const error: ErrorBody = (await missing.json()) as NotFound;
const refused = await fetch(base + '/skills');
const challenge: Unauthorized['headers']['WWW-Authenticate'] = refused.headers.get('www-authenticate') ?? '';
const refusal = (await refused.json()) as ErrorBody;
const health = (await (await fetch(base + '/health')).json()) as Health;

// The event stream, read by hand as an EventSource would, each frame typed by its event name.
const resume: EventsHeaders = {};
const stream = await fetch(base + '/events?types=index', { headers: { ...auth, ...resume } });
const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
const decoder = new TextDecoder();
let buffer = '';
const seen: string[] = [];
let hello: HelloEvent | undefined;
let change: IndexEvent | undefined;
let finding: Finding | undefined;
while (change === undefined) {
  const { value, done } = await reader.read();
  if (done) throw new Error('stream ended');
  buffer += decoder.decode(value, { stream: true });
  let end = buffer.indexOf('\\n\\n');
  while (end >= 0) {
    const fields = new Map<string, string>();
    for (const line of buffer.slice(0, end).split('\\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
    }
    buffer = buffer.slice(end + 2);
    end = buffer.indexOf('\\n\\n');
    if (!fields.has('event')) continue;
    const event = {
      id: fields.get('id'),
      event: fields.get('event'),
      data: JSON.parse(fields.get('data') ?? 'null'),
    } as ServerSentEvent;
    seen.push(event.event);
    switch (event.event) {
      case 'hello':
        hello = event.data;
        // The first event seen: make the index change.
        mkdirSync(skillsDir + '/added', { recursive: true });
        writeFileSync(skillsDir + '/added/SKILL.md', '---\\ndescription: Added\\n---\\n');
        break;
      case 'index':
        change = event.data;
        // @ts-expect-error an index event has no collision field
        void event.data.collision;
        break;
      case 'diagnostic':
        finding = event.data.finding;
        break;
    }
  }
}
await reader.cancel();

console.log(JSON.stringify({
  first: {
    status: first.status,
    etagIsQuoted: /^(W\\/)?"/.test(first.etag),
    names: index.skills.map((s) => s.name),
    source: skill.source.id,
  },
  again: { status: again.status, body: again.body ?? null },
  error,
  refused: { status: refused.status, challenge, code: refusal.code },
  health: { status: health.status, skills: health.skills },
  events: { seen, hello, change, finding: finding ?? null },
}));
`;

describe('a client generated from the OpenAPI document (openapi-typescript + tsc), against the built daemon', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;
  let project: string;

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('skillsd-generated-client-'));
    project = join(root, 'project');
    await writeTree(root, {
      'home/.keep': '',
      'project/.git/HEAD': 'ref: refs/heads/main\n',
      'project/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    });
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', project, '--token-file', join(root, 'token')], {
      home: join(root, 'home'),
    });
  });

  after(async () => {
    await daemon?.process.kill();
    await cleanup?.();
  });

  it('compiles in strict mode and reads skills, headers, errors and typed events', async () => {
    const client = join(root, 'client');
    await writeTree(client, {
      'package.json': JSON.stringify({ type: 'module' }),
      'client.ts': PROGRAM,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
          outDir: 'out',
        },
        files: ['client.ts', 'openapi-types.ts'],
      }),
    });
    await run(process.execPath, [
      OPENAPI_TS,
      join(ROOT, 'openapi/openapi.json'),
      '-o',
      join(client, 'openapi-types.ts'),
    ]);
    const types = await readFile(join(client, 'openapi-types.ts'), 'utf8');
    for (const name of ['Skill', 'Warning', 'Collision', 'Diagnostic', 'ErrorBody', 'IndexEvent', 'DiagnosticEvent']) {
      assert.match(types, new RegExp(`\\n {8}${name}: \\{`), `components.schemas.${name}`);
    }
    await run(process.execPath, [TSC, '-p', join(client, 'tsconfig.json')]).catch((error: { stdout?: string }) => {
      assert.fail(`tsc refused the client:\n${error.stdout}`);
    });

    const token = (await readFile(join(root, 'token'), 'utf8')).trim();
    const skillsDir = join(project, '.musepi/skills');
    await writeFile(join(client, 'out/package.json'), JSON.stringify({ type: 'module' }));
    const { stdout } = await run(process.execPath, [join(client, 'out/client.js'), daemon.url, token, skillsDir]);
    assert.deepEqual(JSON.parse(stdout), {
      first: { status: 200, etagIsQuoted: true, names: ['pdf'], source: 'native:project' },
      again: { status: 304, body: null },
      error: {
        statusCode: 404,
        code: 'SkillNotFound',
        error: 'Not Found',
        message: 'Unknown skill: nope\nNo close name (1 skill loaded)',
      },
      refused: { status: 401, challenge: 'Bearer', code: 'Unauthorized' },
      health: { status: 'ok', skills: 1 },
      events: {
        seen: ['hello', 'index'],
        hello: { generation: 1, skills: 1 },
        change: { generation: 2, added: ['added'], removed: [], changed: [] },
        finding: null,
      },
    });
  });
});
