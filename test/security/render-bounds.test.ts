// `GET /ui/render/{name}` is bounded (SECURITY.md "The views", docs/api.md "GET /ui — the page"): a SKILL.md body of
// 1 MiB used to be rendered by markdown-it on the daemon's own thread on every request, uncached: 1–5 s each, with
// `/health` unanswered meanwhile. Now bodies render in a worker thread, once per content; concurrent requests for the
// same body share the render, and the kept HTML is bounded in bodies and bytes, least recently used out first.

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import {
  MAX_PENDING_RENDERS,
  MAX_RENDERED_BYTES,
  renderCount,
  renderedBytes,
  renderedHtmlJson,
} from '../../src/server/render-cache.js';
import type { JsonBody, TestServer } from '../helpers/app-server.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { type SuiteServer, startSuiteServer } from '../helpers/suite-server.js';

const MiB = 1024 * 1024;
/**
 * A `/health` this late means the event loop was held by a render, whatever the machine's load: the test fails at
 * once. That the renders leave the event loop free is shown without a clock: `/health` is answered again and again
 * while they run (a render of 1 MiB takes a second or more), in some round of new bodies, three rounds at most.
 */
const HELD_MS = 5000;
/**
 * In one round, `/health` answered this many times while the renders ran, each wait under RENDER_SHARE of the time
 * the renders took: a render on the event loop would hold each wait for a whole render, a fifth of the round or more.
 * Both are measured in the same round, so a loaded machine stretches them alike.
 */
const ANSWERS_DURING_RENDERS = 3;
const RENDER_SHARE = 0.1;
const ROUNDS = 3;
const RENDERS = 5;

/**
 * A SKILL.md of exactly 1 MiB of what markdown-it is slow at: lists nested 40 deep, each item with a link and
 * emphasis (about a second to render on a quiet machine). `seed` makes each body distinct.
 */
function heavySkill(seed: string): string {
  let text = `---\nname: ${seed}\ndescription: heavy\n---\n\n# ${seed}\n\n`;
  for (let i = 0; text.length < MiB; i++) text += `${'  '.repeat(i % 40)}- item [l${i}](refs/${i}.md) **b** _c_\n`;
  return text.slice(0, MiB);
}

/** A SKILL.md of 1 MiB of `"`: quick to render, and 6 MiB of HTML (`&quot;` each). */
function quotesSkill(seed: string): string {
  const head = `---\nname: ${seed}\ndescription: quotes\n---\n\n`;
  return head + '"'.repeat(MiB - head.length);
}

const heavyName = (round: number, i: number) => `heavy-${round}-${i}`;
const quotesName = (i: number) => `quotes-${i}`;

/** One tree for the suite: every skill is rendered by one test only, or said to be rendered already. */
function skillsTree(): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < RENDERS; i++) {
      tree[`home/.claude/skills/${heavyName(round, i)}/SKILL.md`] = heavySkill(heavyName(round, i));
    }
  }
  tree['home/.claude/skills/heavy-shared/SKILL.md'] = heavySkill('heavy-shared');
  for (let i = 0; i < 7; i++) tree[`home/.claude/skills/${quotesName(i)}/SKILL.md`] = quotesSkill(quotesName(i));
  tree['home/.claude/skills/pdf/SKILL.md'] =
    '---\nname: pdf\ndescription: PDF tools\n---\n\n# PDF\n\nSee [forms](forms.md).\n';
  tree['home/.claude/skills/pdf-copy/SKILL.md'] =
    '---\nname: pdf-copy\ndescription: PDF tools\n---\n\n# PDF\n\nSee [forms](forms.md).\n';
  return tree;
}

async function render(server: TestServer, name: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.base}/ui/render/${name}`, { signal: AbortSignal.timeout(WAIT_MS * 4) });
  return { status: response.status, text: await response.text() };
}

/** Renders `names` at once and polls `/health` until every render has come: the answers and each `/health`'s time. */
async function healthDuringRenders(server: TestServer, names: readonly string[]) {
  let inFlight = true;
  const started = performance.now();
  let renderMs = 0;
  const renders = Promise.all(names.map((name) => render(server, name))).finally(() => {
    inFlight = false;
    renderMs = performance.now() - started;
  });
  const delays: number[] = [];
  do {
    const start = performance.now();
    const health = await fetch(`${server.base}/health`, { signal: AbortSignal.timeout(WAIT_MS) });
    await health.arrayBuffer();
    delays.push(performance.now() - start);
    assert.equal(health.status, 200);
    assert.ok(delays.at(-1)! < HELD_MS, `/health took ${Math.round(delays.at(-1)!)} ms while bodies were rendered`);
  } while (inFlight);
  const answers = await renders;
  return { answers, delays, renderMs };
}

describe('GET /ui/render/{name} bounds', () => {
  let suite: SuiteServer;
  let server: TestServer;
  before(async () => {
    suite = await startSuiteServer({ tree: skillsTree() });
    server = suite.server;
  });
  after(() => suite.close());

  it('/health is answered again and again while five 1 MiB bodies render', async (t) => {
    const rounds: Array<{ delays: number[]; renderMs: number }> = [];
    const free = ({ delays, renderMs }: { delays: number[]; renderMs: number }) =>
      delays.length - 1 >= ANSWERS_DURING_RENDERS && Math.max(...delays) < renderMs * RENDER_SHARE;
    for (let round = 0; round < ROUNDS; round++) {
      const names = Array.from({ length: RENDERS }, (_, i) => heavyName(round, i));
      const before = renderCount();
      const { answers, delays, renderMs } = await healthDuringRenders(server, names);
      rounds.push({ delays, renderMs });
      assert.equal(renderCount() - before, RENDERS);
      answers.forEach((answer, i) => {
        assert.equal(answer.status, 200, answer.text.slice(0, 200));
        const body = JSON.parse(answer.text) as JsonBody;
        assert.deepEqual(Object.keys(body), ['name', 'generation', 'html', 'truncated']);
        assert.deepEqual([body.name, body.generation, body.truncated], [names[i], 1, false]);
        const link = `<a href="/skill/${names[i]}/refs/0.md" data-skill-file="refs/0.md">l0</a>`;
        assert.ok(
          body.html.startsWith(`<h1>${names[i]}</h1>\n<ul>\n<li>item ${link} <strong>b</strong> <em>c</em>\n<ul>`),
        );
      });
      if (free(rounds.at(-1)!)) break;
    }
    const shown = rounds.map(({ delays, renderMs }) => ({
      answers: delays.length,
      longest: Math.round(Math.max(...delays)),
      renders: Math.round(renderMs),
    }));
    t.diagnostic(`/health while bodies rendered, per round: ${JSON.stringify(shown)}`);
    // The loop asks once more after the renders are in: the answers before that one came while they ran.
    assert.ok(rounds.some(free), `the renders held /health back in every round: ${JSON.stringify(shown)}`);
  });

  it('renders a content once: again, or at once, it is served from the cache', async () => {
    const start = renderCount();
    const first = await render(server, 'pdf');
    assert.equal(first.status, 200);
    assert.deepEqual(JSON.parse(first.text), {
      name: 'pdf',
      generation: 1,
      html: '<h1>PDF</h1>\n<p>See <a href="/skill/pdf/forms.md" data-skill-file="forms.md">forms</a>.</p>\n',
      truncated: false,
    });
    assert.equal(renderCount(), start + 1);
    assert.deepEqual(await render(server, 'pdf'), first);
    assert.equal(renderCount(), start + 1);

    // Concurrent requests for a body not rendered yet share its render.
    const together = await Promise.all(Array.from({ length: 4 }, () => render(server, 'heavy-shared')));
    assert.equal(renderCount(), start + 2);
    for (const answer of together) assert.deepEqual(answer, together[0]);
    assert.equal(together[0]!.status, 200);

    // The same text under another name is another render: its links point into that skill.
    const copy = JSON.parse((await render(server, 'pdf-copy')).text) as JsonBody;
    assert.equal(renderCount(), start + 3);
    assert.equal(
      copy.html,
      '<h1>PDF</h1>\n<p>See <a href="/skill/pdf-copy/forms.md" data-skill-file="forms.md">forms</a>.</p>\n',
    );
  });

  it('keeps at most 32 MiB of rendered bodies, the most recently used', async () => {
    let size = 0;
    for (let i = 0; i < 7; i++) {
      const answer = await render(server, quotesName(i));
      assert.equal(answer.status, 200);
      const html = (JSON.parse(answer.text) as JsonBody).html as string;
      assert.ok(html.startsWith('<p>&quot;&quot;'));
      size = Buffer.byteLength(JSON.stringify(html));
    }
    // 6 MiB each: five fit in 32 MiB, the two oldest went (and every body other tests kept before them).
    const kept = Math.floor(MAX_RENDERED_BYTES / size);
    assert.equal(kept, 5);
    assert.equal(renderedBytes(), kept * size);
    const count = renderCount();
    await render(server, quotesName(6));
    assert.equal(renderCount(), count);
    await render(server, quotesName(0));
    assert.equal(renderCount(), count + 1);
    assert.equal(renderedBytes(), kept * size);
  });

  it('lets 8 distinct bodies wait for their render; one more is refused at once as Overloaded', async () => {
    assert.equal(MAX_PENDING_RENDERS, 8);
    const target = { name: 'pending', cwd: undefined };
    const start = renderCount();
    // Asked in one synchronous step: none can have finished before the ninth is asked for.
    const waiting = Array.from({ length: MAX_PENDING_RENDERS }, (_, i) => renderedHtmlJson(`# pending ${i}`, target));
    const joined = renderedHtmlJson('# pending 0', target);
    const refused = renderedHtmlJson('# one more', target);
    await assert.rejects(refused, {
      name: 'SkillsdError',
      code: 'Overloaded',
      message: '8 skill bodies are being rendered; retry in a few seconds',
    });
    const rendered = await Promise.all(waiting);
    assert.equal(await joined, rendered[0]);
    assert.equal(rendered[3]!.toString(), JSON.stringify('<h1>pending 3</h1>\n'));
    assert.equal(renderCount(), start + MAX_PENDING_RENDERS);
    assert.equal((await renderedHtmlJson('# one more', target)).toString(), JSON.stringify('<h1>one more</h1>\n'));
  });
});
