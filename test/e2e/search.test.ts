// Search (GET /search, the MCP tool search_skills, `skillsd search`) against the real daemon (`dist/cli.js serve
// --port 0`) on a realistic tree of skills over several providers, over real HTTP; the CLI with and without a daemon.

import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { waitUntil } from '../helpers/deadlines.js';
import { connectHttp } from '../helpers/mcp-client.js';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { SseClient } from '../helpers/sse-client.js';
import { makeTempDir, replaceFile, writeTree } from '../helpers/temp-tree.js';

function skill(name: string, description: string, body: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;
}

/** Six skills as people install them: user and project level, four providers, one hidden, bodies that overlap. */
const TREE = {
  'project/.git': { dir: true } as const,
  'project/.claude/skills/pdf/SKILL.md': skill(
    'pdf',
    'Fill PDF forms, merge and split PDF documents',
    '# PDF\n\nTo extract tables from a page, open it with pdfplumber and call `extract_tables()`.\n\n' +
      '## Forms\n\nFill the fields with pypdf.',
  ),
  'home/.claude/skills/xlsx/SKILL.md': skill(
    'xlsx',
    'Create, edit and analyse spreadsheets with formulas and charts',
    '# Workbooks\n\nOpen workbooks with openpyxl. Recalculate every formula before saving.',
  ),
  'project/.musepi/skills/git-bisect/SKILL.md': skill(
    'git-bisect',
    'Find the commit that introduced a regression',
    '# Bisect\n\nRun `git bisect start`, mark one good and one bad commit, then let a test script decide.',
  ),
  'project/.agents/skills/docx/SKILL.md': skill(
    'docx',
    'Create and edit Word documents',
    '# Word\n\nBuild tables, headings and tracked changes with python-docx.',
  ),
  'home/.musepi/agent/skills/release-notes/SKILL.md': skill(
    'release-notes',
    'Draft release notes from merged pull requests',
    '# Notes\n\nGroup the merged changes by label and write the changelog entry.',
    'disable-model-invocation: true\n',
  ),
  'project/.claude/skills/webapp-testing/SKILL.md': skill(
    'webapp-testing',
    'Test local web applications with Playwright',
    '# Browser tests\n\nTake screenshots and read the console logs of the page under test.',
  ),
};

interface Result {
  name: string;
  description: string;
  score: number;
  matched: string[];
  hide: boolean;
  source: { id: string };
  filePath: string;
}
interface Answer {
  query: string;
  generation: number;
  results: Result[];
}

async function tree() {
  const { dir, cleanup } = await makeTempDir('skillsd-search-');
  await writeTree(dir, TREE);
  return { dir, cleanup, home: `${dir}/home`, project: `${dir}/project` };
}

async function search(base: string, query: string): Promise<{ status: number; etag: string | null; body: unknown }> {
  const response = await fetch(`${base}/search?${query}`);
  return { status: response.status, etag: response.headers.get('etag'), body: await response.json() };
}

async function ranked(base: string, query: string): Promise<Answer> {
  const answer = await search(base, query);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as Answer;
}

/** Name and matched fields, best first; the scores strictly or equally descending. */
function ranking(answer: Answer): Array<[string, string[]]> {
  for (let i = 1; i < answer.results.length; i++) {
    assert.ok(answer.results[i - 1]!.score >= answer.results[i]!.score, JSON.stringify(answer.results));
  }
  for (const result of answer.results) assert.ok(result.score > 0);
  return answer.results.map((result) => [result.name, result.matched]);
}

describe('GET /search on the real daemon', () => {
  let daemon: RunningDaemon;
  let dirs: Awaited<ReturnType<typeof tree>>;
  const cleanups: Array<() => Promise<void>> = [];
  before(async () => {
    dirs = await tree();
    cleanups.push(dirs.cleanup);
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', dirs.project], { home: dirs.home });
  });
  after(async () => {
    await daemon.process.kill();
    for (const cleanup of cleanups) await cleanup();
  });

  it('finds a term that only the body holds, and says it matched there', async () => {
    const answer = await ranked(daemon.url, 'q=pdfplumber');
    assert.deepEqual(ranking(answer), [['pdf', ['body']]]);
    const [pdf] = answer.results;
    assert.deepEqual(
      { ...pdf, score: undefined },
      {
        name: 'pdf',
        description: 'Fill PDF forms, merge and split PDF documents',
        score: undefined,
        matched: ['body'],
        hide: false,
        source: {
          id: 'claude:project',
          provider: 'claude',
          providerName: 'Claude Code',
          level: 'project',
          path: `${dirs.project}/.claude/skills/pdf/SKILL.md`,
        },
        filePath: `${dirs.project}/.claude/skills/pdf/SKILL.md`,
      },
    );
    assert.equal(answer.query, 'pdfplumber');
    const skills = (await (await fetch(`${daemon.url}/skills`)).json()) as { generation: number };
    assert.equal(answer.generation, skills.generation);
  });

  it('ranks a phrase over name, description and body: the name first', async () => {
    const answer = await ranked(daemon.url, `q=${encodeURIComponent('extract tables from pdf')}`);
    assert.deepEqual(ranking(answer), [
      ['pdf', ['name', 'description', 'body']],
      ['docx', ['body']],
    ]);
  });

  it('matches a prefix (bisec → git-bisect) and one typo (spredsheet → spreadsheets)', async () => {
    assert.deepEqual(ranking(await ranked(daemon.url, 'q=bisec')), [['git-bisect', ['name', 'body']]]);
    assert.deepEqual(ranking(await ranked(daemon.url, 'q=spredsheet')), [['xlsx', ['description']]]);
    // Two edits away is not a match.
    assert.deepEqual((await ranked(daemon.url, 'q=sprdshet')).results, []);
  });

  it('keeps the best `limit` (default 10, at most 100)', async () => {
    const all = await ranked(daemon.url, 'q=create+edit+test');
    assert.deepEqual(
      all.results.map((result) => result.name),
      ['webapp-testing', 'docx', 'xlsx', 'git-bisect'],
    );
    const one = await ranked(daemon.url, 'q=create+edit+test&limit=1');
    assert.deepEqual(one.results, all.results.slice(0, 1));
    assert.deepEqual((await ranked(daemon.url, 'q=create+edit+test&limit=100')).results, all.results);
    for (const limit of ['0', '101', 'many']) {
      const refused = await search(daemon.url, `q=pdf&limit=${limit}`);
      assert.equal(refused.status, 400, limit);
      assert.equal((refused.body as { code: string }).code, 'BadRequest');
    }
  });

  it('answers 400 BadRequest to a missing, empty or blank q', async () => {
    for (const query of ['', 'q=', 'q=%20%20']) {
      assert.deepEqual(await search(daemon.url, query), {
        status: 400,
        etag: null,
        body: {
          statusCode: 400,
          code: 'BadRequest',
          error: 'Bad Request',
          message: 'q: the search text is missing or blank (GET /search?q=TEXT)',
        },
      });
    }
  });

  it('searches hidden skills too, marked with hide', async () => {
    const answer = await ranked(daemon.url, 'q=changelog');
    assert.deepEqual(ranking(answer), [['release-notes', ['body']]]);
    assert.equal(answer.results[0]!.hide, true);
    assert.equal(answer.results[0]!.source.id, 'native:user');
  });

  it('tags the answer: If-None-Match with the tag answers 304; another query has another tag', async () => {
    const first = await search(daemon.url, 'q=pdf');
    assert.match(first.etag ?? '', /^"\d+-[0-9a-f]{20}-s\d+-[0-9a-f]{12}"$/);
    const again = await fetch(`${daemon.url}/search?q=pdf`, { headers: { 'if-none-match': first.etag ?? '' } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    assert.notEqual((await search(daemon.url, 'q=pdf&limit=1')).etag, first.etag);
    assert.notEqual((await search(daemon.url, 'q=docx')).etag, first.etag);
  });

  it('answers for the workspace named by ?cwd=', async () => {
    const other = await makeTempDir('skillsd-search-other-');
    cleanups.push(other.cleanup);
    await writeTree(other.dir, {
      '.git': { dir: true },
      '.claude/skills/terraform/SKILL.md': skill('terraform', 'Plan and apply infrastructure', 'Run terraform plan.'),
    });
    const answer = await ranked(daemon.url, `q=infrastructure&cwd=${encodeURIComponent(other.dir)}`);
    assert.deepEqual(ranking(answer), [['terraform', ['description']]]);
    assert.deepEqual((await ranked(daemon.url, 'q=infrastructure')).results, []);
  });

  it('is the MCP tool search_skills: lines of text, and the JSON as structured content', async (t) => {
    const mcp = await connectHttp(`${daemon.url}/mcp`);
    t.after(() => mcp.close());
    const tool = (await mcp.client.listTools()).tools.find((candidate) => candidate.name === 'search_skills');
    assert.deepEqual(tool?.inputSchema.required, ['query']);
    const rest = await ranked(daemon.url, `q=${encodeURIComponent('extract tables from pdf')}&limit=2`);
    const called = await mcp.client.callTool({
      name: 'search_skills',
      arguments: { query: 'extract tables from pdf', limit: 2 },
    });
    assert.equal(called.isError, undefined);
    assert.deepEqual(called.content, [
      {
        type: 'text',
        text: rest.results
          .map((result) => `${result.name}\t${result.score}\t${result.description}\tskill://${result.name}`)
          .join('\n'),
      },
    ]);
    assert.deepEqual(called.structuredContent, rest);
    const none = await mcp.client.callTool({ name: 'search_skills', arguments: { query: 'zzzzqqq' } });
    assert.deepEqual(none.content, [{ type: 'text', text: 'No skill matches.' }]);
    const blank = await mcp.client.callTool({ name: 'search_skills', arguments: { query: ' ' } });
    assert.deepEqual(blank, {
      isError: true,
      content: [{ type: 'text', text: 'arguments.query: the search text is blank' }],
    });
    const badLimit = await mcp.client.callTool({ name: 'search_skills', arguments: { query: 'pdf', limit: 0 } });
    assert.deepEqual(badLimit, {
      isError: true,
      content: [{ type: 'text', text: 'arguments.limit must be an integer from 1 to 100' }],
    });
  });

  it('is `skillsd search` against the running daemon (found through its runtime file)', async () => {
    const run = await runClient(['search', 'extract', 'tables', 'from', 'pdf', '--limit', '2'], {
      home: dirs.home,
      cwd: dirs.project,
    });
    assert.equal(run.stderr, '');
    assert.equal(run.code, 0);
    const rest = await ranked(daemon.url, `q=${encodeURIComponent('extract tables from pdf')}&limit=2`);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^NAME +SCORE +HIDDEN +DESCRIPTION$/);
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(/ {2,}/)),
      rest.results.map((result) => [
        result.name,
        result.score.toFixed(2),
        result.hide ? 'yes' : 'no',
        result.description,
      ]),
    );
    const json = await runClient(['search', 'bisec', '--json'], { home: dirs.home, cwd: dirs.project });
    assert.equal(json.code, 0);
    assert.deepEqual(JSON.parse(json.stdout), await ranked(daemon.url, 'q=bisec'));
    const none = await runClient(['search', 'zzzzqqq'], { home: dirs.home, cwd: dirs.project });
    assert.deepEqual(none, { code: 1, stdout: '', stderr: 'skillsd: search: no skill matches "zzzzqqq"\n' });
    const badLimit = await runClient(['search', 'pdf', '--limit', '0'], { home: dirs.home, cwd: dirs.project });
    assert.equal(badLimit.code, 2);
    assert.match(badLimit.stderr, /option --limit: expected an integer from 1 to 100, got "0"/);
  });

  it('is `skillsd search` with no daemon: the same answer, computed in-process and said so', async (t) => {
    const url = await deadUrl(t);
    const run = await runClient(['search', 'spredsheet', '--json'], {
      home: dirs.home,
      cwd: dirs.project,
      env: { SKILLSD_URL: url },
    });
    assert.equal(
      run.stderr,
      `skillsd: no daemon running (nothing answers at ${url}); answered in-process for ${dirs.project}\n`,
    );
    assert.equal(run.code, 0);
    assert.deepEqual(JSON.parse(run.stdout), await ranked(daemon.url, 'q=spredsheet'));
  });
});

describe('GET /search follows the live index', () => {
  it('finds an added skill after its index event, not a removed one; an edit re-ranks', async (t) => {
    const dirs = await tree();
    t.after(dirs.cleanup);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', dirs.project], { home: dirs.home });
    t.after(() => daemon.process.kill());
    const events = await SseClient.connect(`${daemon.url}/events?types=index`);
    t.after(() => events.close());
    await events.next((event) => event.event === 'hello');
    assert.deepEqual((await ranked(daemon.url, 'q=kubernetes')).results, []);

    const added = `${dirs.project}/.claude/skills/k8s/SKILL.md`;
    await writeTree(dirs.project, {
      '.claude/skills/k8s/SKILL.md': skill('k8s', 'Deploy services', 'Write Kubernetes manifests and apply them.'),
    });
    await events.next((event) => event.event === 'index' && JSON.parse(event.data).added.includes('k8s'));
    assert.deepEqual(ranking(await ranked(daemon.url, 'q=kubernetes')), [['k8s', ['body']]]);

    // A description edit moves the other skill above it (the description weighs more than the body).
    const webapp = `${dirs.project}/.claude/skills/webapp-testing/SKILL.md`;
    await replaceFile(
      webapp,
      skill('webapp-testing', 'Test web applications on Kubernetes', 'Take screenshots of the page under test.'),
      dirs.dir,
    );
    await events.next((event) => event.event === 'index' && JSON.parse(event.data).changed.includes('webapp-testing'));
    assert.deepEqual(ranking(await ranked(daemon.url, 'q=kubernetes')), [
      ['webapp-testing', ['description']],
      ['k8s', ['body']],
    ]);

    // A body-only edit changes no `/skills` answer (no event, same generation), and is still found.
    const before = await search(daemon.url, 'q=helm');
    assert.deepEqual((before.body as Answer).results, []);
    await replaceFile(
      added,
      skill('k8s', 'Deploy services', 'Write Kubernetes manifests; package them with Helm.'),
      dirs.dir,
    );
    await waitUntil('the body edit is searchable', async () => (await ranked(daemon.url, 'q=helm')).results.length > 0);
    const afterEdit = await search(daemon.url, 'q=helm');
    assert.deepEqual(ranking(afterEdit.body as Answer), [['k8s', ['body']]]);
    assert.equal((afterEdit.body as Answer).generation, (before.body as Answer).generation);
    assert.notEqual(afterEdit.etag, before.etag);

    await rm(`${dirs.project}/.claude/skills/k8s`, { recursive: true });
    await events.next((event) => event.event === 'index' && JSON.parse(event.data).removed.includes('k8s'));
    assert.deepEqual(ranking(await ranked(daemon.url, 'q=kubernetes')), [['webapp-testing', ['description']]]);
    assert.deepEqual((await ranked(daemon.url, 'q=helm')).results, []);
  });
});
