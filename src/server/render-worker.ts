// The thread that renders SKILL.md bodies for `GET /ui/render/{name}` (render-cache.ts starts it): markdown-it takes
// seconds over a MiB of tables, links or brackets, and escaping its HTML into JSON tens of milliseconds, which on the
// daemon's own thread would hold every other request. The renderer is a pure function of the body, the skill's name
// and the workspace, so a thread of its own gives the same HTML.

import { parentPort } from 'node:worker_threads';
import { type RenderTarget, renderSkillMarkdown } from './render-skill-markdown.js';

export interface RenderJob {
  id: number;
  body: string;
  target: RenderTarget;
}

/** `json`: the HTML as a JSON string literal, what the answer's `html` field holds. */
export type RenderResult = { id: number; json: string } | { id: number; error: string };

// One job at a time: each render runs to its end before the next message is read.
parentPort?.on('message', (job: RenderJob) => {
  renderSkillMarkdown(job.body, job.target).then(
    (html) => parentPort?.postMessage({ id: job.id, json: JSON.stringify(html) } satisfies RenderResult),
    (error: unknown) => parentPort?.postMessage({ id: job.id, error: String(error) } satisfies RenderResult),
  );
});
