// `GET /ui/render/{name}` rendered once per content and off the event loop (docs/api.md "GET /ui — the page",
// SECURITY.md "The views"): a MiB of markdown took markdown-it 1–5 s on the daemon's own thread, on every request.
// - Each body is rendered in a worker thread (render-worker.ts), one job at a time; the thread starts with the first
//   render and ends after WORKER_IDLE_MS without one, so a daemon whose page nobody opens holds no markdown-it.
// - The HTML is kept, already escaped as a JSON string, by the hash of the body, the skill's name and the workspace
//   (all the renderer reads), at most MAX_RENDERED_BODIES bodies and MAX_RENDERED_BYTES, least recently used out
//   first: a request for a kept body copies bytes, it neither renders nor serialises.
// - Concurrent requests for the same body share one render, and at most MAX_PENDING_RENDERS distinct bodies wait for
//   theirs: one more is answered 503 `Overloaded` at once, rather than queue its MiB behind them.

import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SkillsdError } from '../discovery/errors.js';
import { ByteBoundedLru } from '../live-index/byte-bounded-lru.js';
import type { RenderTarget } from './render-skill-markdown.js';
import type { RenderJob, RenderResult } from './render-worker.js';

export const MAX_RENDERED_BODIES = 64;
/** Bytes of kept HTML (UTF-8, escaped as JSON). */
export const MAX_RENDERED_BYTES = 32 * 1024 * 1024;
/** Distinct bodies rendered or waiting for the thread at once: a 1 MiB body takes 1–5 s. */
export const MAX_PENDING_RENDERS = 8;
const WORKER_IDLE_MS = 30_000;
/** The build runs as `.js`, the sources as `.ts` (tests and benchmarks, through tsx): the thread's file is beside. */
const WORKER_FILE = new URL(`./render-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

interface RenderThread {
  worker: Worker;
  jobs: Map<number, { resolve: (json: string) => void; reject: (error: Error) => void }>;
  idle: NodeJS.Timeout | undefined;
}

const kept = new ByteBoundedLru<Buffer>(
  { maxEntries: MAX_RENDERED_BODIES, maxBytes: MAX_RENDERED_BYTES },
  (json) => json.length,
);
const inFlight = new Map<string, Promise<Buffer>>();
let thread: RenderThread | undefined;
let nextJob = 0;
let renders = 0;

/** Renders started so far in this process: a body served from the cache, or joining a render under way, starts none. */
export function renderCount(): number {
  return renders;
}

/** Bytes of rendered bodies kept now. */
export function renderedBytes(): number {
  return kept.bytes;
}

/**
 * The body (frontmatter already removed) as sanitised HTML (render-skill-markdown.ts), as a JSON string literal in
 * UTF-8: the `html` of the answer. The buffer is shared: it is copied, never written to.
 */
export function renderedHtmlJson(body: string, target: RenderTarget): Promise<Buffer> {
  const key = createHash('sha256')
    .update(JSON.stringify([target.name, target.cwd ?? null]))
    .update('\n')
    .update(body)
    .digest('base64url');
  const json = kept.get(key);
  if (json !== undefined) return Promise.resolve(json);
  let pending = inFlight.get(key);
  if (pending === undefined) {
    if (inFlight.size >= MAX_PENDING_RENDERS) {
      return Promise.reject(
        new SkillsdError(
          'Overloaded',
          `${MAX_PENDING_RENDERS} skill bodies are being rendered; retry in a few seconds`,
        ),
      );
    }
    renders++;
    pending = renderInThread(body, target)
      .then((rendered) => {
        const bytes = Buffer.from(rendered, 'utf8');
        kept.set(key, bytes);
        return bytes;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

function renderInThread(body: string, target: RenderTarget): Promise<string> {
  const current = thread ?? startThread();
  clearTimeout(current.idle);
  const id = nextJob++;
  return new Promise((resolve, reject) => {
    current.jobs.set(id, { resolve, reject });
    current.worker.postMessage({ id, body, target } satisfies RenderJob);
  });
}

function startThread(): RenderThread {
  const worker = WORKER_FILE.pathname.endsWith('.ts')
    ? new Worker(tsxBootstrap(WORKER_FILE), { eval: true })
    : new Worker(WORKER_FILE);
  const current: RenderThread = { worker, jobs: new Map(), idle: undefined };
  worker.on('message', (result: RenderResult) => {
    const job = current.jobs.get(result.id);
    current.jobs.delete(result.id);
    if ('json' in result) job?.resolve(result.json);
    else job?.reject(new Error(`Rendering the body failed: ${result.error}`));
    if (current.jobs.size === 0) current.idle = setTimeout(() => stopThread(current), WORKER_IDLE_MS).unref();
  });
  // A thread that failed is replaced by the next render; the renders it held fail with it.
  const fail = (error: Error) => {
    if (thread === current) thread = undefined;
    for (const job of current.jobs.values()) job.reject(error);
    current.jobs.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The render thread exited with code ${code}`)));
  // Waiting renders keep their requests, not the process, alive (after the listeners: adding one refs the thread).
  worker.unref();
  thread = current;
  return current;
}

function stopThread(current: RenderThread): void {
  if (thread === current) thread = undefined;
  void current.worker.terminate();
}

/**
 * Node 20 runs `--import` preloads in the main thread only, so a thread started from the sources has no loader for
 * `.ts` files: it registers tsx's, as the process did, before it loads the thread's file.
 */
function tsxBootstrap(file: URL): string {
  return `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file.href)}); });`;
}
