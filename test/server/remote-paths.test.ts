import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { describe, it } from 'node:test';
import { type JsonBody, startServer as startAppServer, type TestServerOptions } from '../helpers/app-server.js';
import { rawRequest } from '../helpers/raw-http.js';
import { SK } from '../helpers/temp-tree.js';

/** The real app, with load shedding out of the way: a loaded test machine must not turn these answers into 503s. */
function startServer(t: Parameters<typeof startAppServer>[0], options: TestServerOptions = {}) {
  return startAppServer(t, { ...options, app: { pressure: { maxEventLoopDelayMs: 60_000 }, ...options.app } });
}

const BODY = '---\nname: pdf\ndescription: PDF tools\n---\n\nRun `scripts/run.sh` on the file.\n';
const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': BODY,
  'work/.musepi/skills/pdf/scripts/run.sh': '#!/bin/sh\necho hi\n',
  'work/.musepi/skills/odd name/SKILL.md': SK({ name: 'odd name', description: 'Spaces' }),
};
const HINT =
  'Resolve relative paths in this skill (e.g. `scripts/foo.js`, `templates/config.yaml`) against this absolute directory; read referenced assets and templates; run scripts with the terminal tool when skill instructions call for it.';

/** An address of this machine that is not loopback: a client connecting to it is not a loopback client. */
const LAN_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;

async function invoke(base: string, text: string, query = '') {
  const response = await fetch(`${base}/invocations${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  return { status: response.status, body: (await response.json()) as JsonBody };
}

function skillDirectoryOf(message: string): string {
  const match = /^\[Skill directory: (.*)\]$/m.exec(message);
  assert.ok(match, message);
  return match[1] as string;
}

describe('paths=local|url', () => {
  it('POST /invocations names the skill by its URL with paths=url, by its directory with paths=local', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const url = await invoke(s.base, '/skill:pdf tables', '?paths=url');
    assert.equal(url.status, 200);
    assert.equal(
      url.body.message,
      [
        '[IMPORTANT: User invoked the "pdf" skill; follow its instructions. Full skill below.]',
        '',
        'Run `scripts/run.sh` on the file.',
        '',
        '---',
        '',
        `[Skill directory: ${s.base}/skill/pdf/]`,
        HINT,
        'User: tables',
      ].join('\n'),
    );
    // The details stay the record's: the SKILL.md path.
    assert.equal(url.body.details.path, `${s.cwd}/.musepi/skills/pdf/SKILL.md`);
    const local = await invoke(s.base, '/skill:pdf tables', '?paths=local');
    assert.equal(skillDirectoryOf(local.body.message), `${s.cwd}/.musepi/skills/pdf`);
    // A loopback client gets local paths by default.
    assert.equal(skillDirectoryOf((await invoke(s.base, '/skill:pdf')).body.message), `${s.cwd}/.musepi/skills/pdf`);
    // The base is the Host the client used (within the allow-list).
    const body = JSON.stringify({ text: '/skill:pdf' });
    const localhost = await rawRequest(
      s.port,
      [
        'POST /invocations?paths=url HTTP/1.1',
        `Host: localhost:${s.port}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ],
      body,
    );
    assert.equal(skillDirectoryOf(JSON.parse(localhost.body).message), `http://localhost:${s.port}/skill/pdf/`);
  });

  it('uses server.publicUrl when set', async (t) => {
    const s = await startServer(t, { tree: TREE, settings: { server: { publicUrl: 'https://skills.example/' } } });
    const url = await invoke(s.base, '/skill:pdf', '?paths=url');
    assert.equal(skillDirectoryOf(url.body.message), 'https://skills.example/skill/pdf/');
    const prompt = await fetch(`${s.base}/prompt?format=xml&paths=url`);
    assert.match(await prompt.text(), /<location>https:\/\/skills\.example\/skill\/pdf\/SKILL\.md<\/location>/);
  });

  it('GET /prompt?format=xml names each SKILL.md by URL or path', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const url = await (await fetch(`${s.base}/prompt?format=xml&paths=url`)).text();
    assert.equal(
      url,
      [
        '<available_skills>',
        '  <skill>',
        '    <name>odd name</name>',
        '    <description>Spaces</description>',
        `    <location>${s.base}/skill/odd%20name/SKILL.md</location>`,
        '  </skill>',
        '  <skill>',
        '    <name>pdf</name>',
        '    <description>PDF tools</description>',
        `    <location>${s.base}/skill/pdf/SKILL.md</location>`,
        '  </skill>',
        '</available_skills>',
      ].join('\n'),
    );
    const local = await (await fetch(`${s.base}/prompt?format=xml&paths=local`)).text();
    assert.match(local, new RegExp(`<location>${s.cwd}/\\.musepi/skills/pdf/SKILL\\.md</location>`));
    const bad = await fetch(`${s.base}/prompt?paths=remote`);
    assert.equal(bad.status, 400);
  });

  it('an agent on another address gets URLs by default and follows a relative reference through them', {
    skip: LAN_ADDRESS === undefined ? 'no non-loopback IPv4 address on this machine' : false,
  }, async (t) => {
    const s = await startServer(t, { tree: TREE, listenHost: '0.0.0.0' });
    const base = `http://${LAN_ADDRESS}:${s.port}`;
    const { body } = await invoke(base, '/skill:pdf');
    const directory = skillDirectoryOf(body.message);
    assert.equal(directory, `${base}/skill/pdf/`);
    // What an agent does with "resolve relative paths against this directory": the reference in the body.
    const reference = /`([^`]+)`/.exec(body.message.split('\n')[2] as string)?.[1] as string;
    const file = await fetch(new URL(reference, directory));
    assert.equal(file.status, 200);
    assert.equal(await file.text(), await readFile(`${s.cwd}/.musepi/skills/pdf/scripts/run.sh`, 'utf8'));
    // The whole skill in one request, from the same base.
    const archive = await fetch(new URL('?archive=tar.gz', directory.replace(/\/$/, '')));
    assert.equal(archive.status, 200);
    // Asking for local paths still works from afar.
    const local = await invoke(base, '/skill:pdf', '?paths=local');
    assert.equal(skillDirectoryOf(local.body.message), `${s.cwd}/.musepi/skills/pdf`);
  });
});
