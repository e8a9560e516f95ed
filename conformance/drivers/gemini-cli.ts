// Gemini CLI (@google/gemini-cli): two commands, each run in the scenario's workspace with its HOME.
// - Loaded skills: `gemini skills list` (the CLI's own settings, trust, .env loading and discovery). Its output is
//   one block per skill, `<name> [Enabled]|[Disabled]`, `  Description: <text>`, `  Location:    <path>`, and a
//   blank line; built-in skills are left out by the command itself (they need `--all`). A `[Disabled]` skill
//   (`skills.disabled` in a settings file) is discovered but kept from the model: it is not loaded, and is named in
//   `notes`. Conflict warnings ("Skill conflict detected: …") and fatal errors (an unparsable settings or trust
//   file) come on stderr and go to `notes`.
// - Catalog: `gemini -p hi` with GEMINI_WRITE_SYSTEM_MD=<scratch>/system.md writes the system prompt it builds to
//   that file. The catalog is its skills section: from `# Available Agent Skills` (its first byte) to the last
//   `</available_skills>` (its last byte), with the `<skill>` entries of the CLI's own built-in skills (those located
//   in the package's `bundle/builtin/`) taken out, as views leave built-in skills out; a section left with no entry
//   is reported as "" (the view's "no skill"). A file skill that took a built-in skill's place keeps that place.
//   The model request goes to a small endpoint of this file (see startGeminiEndpoint); the first main request
//   (streamGenerateContent) comes after the prompt file is written, so the run is stopped there.
// Headless Gemini CLI refuses to start in an untrusted folder (exit 55, "not running in a trusted directory"), so
// untrusted scenarios cannot have a catalog: `catalog` is null and a note says why.
// Auth, telemetry and update checks are set in a system-defaults file (the lowest settings scope, so every
// scenario's settings still win); Gemini CLI reads such a file only where it and every parent directory are owned
// by root and not writable by others, hence the installed agent's folder rather than the scratch directory.

import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { runProcess } from '../lib/process.js';
import type { AgentDriver, Answer, DriverContext, InstalledAgent, LoadedSkill } from '../lib/types.js';

const SYSTEM_DEFAULTS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  telemetry: { enabled: false },
  privacy: { usageStatisticsEnabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};
const CATALOG_START = '# Available Agent Skills';
const CATALOG_END = '</available_skills>';
/** The answer of `skills list` when nothing (or only built-in skills) was found. */
const NO_SKILLS = 'No skills discovered.\n';
const LIST_HEADER = 'Discovered Agent Skills:\n\n';
/** One skill block of `skills list`; a description may span lines. */
const LIST_ENTRY = /^(.*) \[(Enabled|Disabled)\]\n {2}Description: ([\s\S]*?)\n {2}Location: {4}(.*)\n\n/;

export const driver: AgentDriver = {
  agent: 'gemini-cli',
  timeoutS: 60,
  async prepare(install) {
    systemDefaultsFile(install);
  },
  async ask(ctx) {
    const env: Record<string, string> = {
      ...ctx.env,
      TMPDIR: ctx.scratch,
      GEMINI_CLI_SYSTEM_DEFAULTS_PATH: systemDefaultsFile(ctx.install),
      GEMINI_API_KEY: 'conformance-fake-key',
      // The relaunched child gets this too; skipping the relaunch saves a second Node start.
      GEMINI_CLI_NO_RELAUNCH: 'true',
      NO_COLOR: '1',
      NO_BROWSER: 'true',
      // A closed port: nothing is asked of a model while listing.
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9',
    };
    const timeoutMs = driver.timeoutS * 1000;
    const listed = await runProcess(ctx.install.bin, ['skills', 'list'], {
      cwd: ctx.scenario.cwd,
      env,
      timeoutMs,
      signal: ctx.signal,
    });
    const answer: Answer = { ...parseList(listed.stdout), catalog: null };
    answer.notes = [...(answer.notes ?? []), ...stderrNotes(listed.stderr)];
    if (listed.code !== 0) answer.notes.push(`skills list exited with ${listed.code ?? listed.signal}`);
    if (ctx.catalog !== false) answer.catalog = await askCatalog(ctx, env, answer.notes);
    return answer;
  },
};

/** Parses `gemini skills list`; enabled skills are loaded, disabled ones are noted. */
function parseList(stdout: string): { skills: LoadedSkill[]; notes: string[] } {
  const skills: LoadedSkill[] = [];
  const notes: string[] = [];
  if (stdout === '' || stdout === NO_SKILLS) return { skills, notes };
  if (!stdout.startsWith(LIST_HEADER)) throw new Error(`unexpected output of gemini skills list:\n${stdout}`);
  let rest = stdout.slice(LIST_HEADER.length);
  while (rest !== '') {
    const entry = LIST_ENTRY.exec(rest);
    if (entry === null) throw new Error(`unexpected entry in gemini skills list:\n${rest}`);
    const [whole, name, state, description, path] = entry as unknown as [string, string, string, string, string];
    if (state === 'Enabled') skills.push({ name, path, description });
    else notes.push(`disabled (skills.disabled): ${name} ${path}`);
    rest = rest.slice(whole.length);
  }
  return { skills, notes };
}

/** Runs `gemini -p hi` and returns the skills section of the system prompt it wrote. */
async function askCatalog(ctx: DriverContext, base: Record<string, string>, notes: string[]): Promise<string | null> {
  const catalog = ctx.catalog as { model?: string };
  const stop = new AbortController();
  ctx.signal.addEventListener('abort', () => stop.abort(), { once: true });
  const endpoint = await startGeminiEndpoint(() => stop.abort());
  const promptFile = join(ctx.scratch, 'system.md');
  try {
    const env: Record<string, string> = {
      ...base,
      GOOGLE_GEMINI_BASE_URL: endpoint.url,
      GEMINI_WRITE_SYSTEM_MD: promptFile,
    };
    if (catalog.model !== undefined) env.GEMINI_MODEL = catalog.model;
    const run = await runProcess(ctx.install.bin, ['-p', 'hi'], {
      cwd: ctx.scenario.cwd,
      env,
      timeoutMs: driver.timeoutS * 1000,
      signal: stop.signal,
    });
    if (!existsSync(promptFile)) {
      notes.push(`gemini -p wrote no system prompt (exit ${run.code ?? run.signal}): ${lastLine(run.stderr)}`);
      return null;
    }
    return skillsSection(readFileSync(promptFile, 'utf8'), builtinDir(ctx.install));
  } finally {
    await endpoint.close();
  }
}

/** The catalog inside the whole system prompt, built-in entries taken out (see the head of this file). */
function skillsSection(prompt: string, builtin: string): string {
  const start = prompt.indexOf(CATALOG_START);
  const end = prompt.lastIndexOf(CATALOG_END);
  if (start === -1 || end < start) return '';
  // Built-in entries have one-line descriptions and a location in the package; the `\n` before each joins entries.
  const entry = new RegExp(
    `\\n {2}<skill>\\n {4}<name>[^\\n]*</name>\\n {4}<description>[^\\n]*</description>\\n {4}<location>` +
      `${escapeRegExp(builtin)}/[^\\n]*</location>\\n {2}</skill>`,
    'g',
  );
  const section = prompt.slice(start, end + CATALOG_END.length).replace(entry, '');
  return section.includes('\n  <skill>\n') ? section : '';
}

/** Where the package's built-in skills are (the CLI locates them from its real path). */
function builtinDir(install: InstalledAgent): string {
  return join(dirname(realpathSync(install.bin)), 'builtin');
}

/** Writes the system-defaults settings file once, in the installed agent's folder (see the head of this file). */
function systemDefaultsFile(install: InstalledAgent): string {
  const file = join(install.dir, 'conformance-system-defaults.json');
  const text = `${JSON.stringify(SYSTEM_DEFAULTS, null, 2)}\n`;
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text, { mode: 0o644 });
  return file;
}

/**
 * A Gemini API endpoint on 127.0.0.1: a plain `generateContent` (the model router's classifier) gets a valid
 * classification, so the CLI does not retry for a minute; the first `streamGenerateContent` (the main turn, sent
 * after the system prompt was written) calls `onTurn`.
 */
async function startGeminiEndpoint(onTurn: () => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = request.url ?? '';
      if (path.includes(':streamGenerateContent')) {
        onTurn();
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`data: ${JSON.stringify(reply('ok'))}\n\n`);
        return;
      }
      const text = JSON.stringify({ complexity_reasoning: 'A greeting.', complexity_score: 1 });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply(text)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(text: string): unknown {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  };
}

/** stderr lines worth reporting: not the notices about the terminal and ripgrep, nor stack frames. */
function stderrNotes(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => !/^Ripgrep is not available|^Warning: 256-color support|^\s+at /.test(line));
}

function lastLine(text: string): string {
  return stderrNotes(text).at(-1) ?? '';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
