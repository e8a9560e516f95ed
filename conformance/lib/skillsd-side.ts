// skillsd's side of a scenario: a real daemon (the built `dist/cli.js serve`) with the scenario's HOME, workspace and
// variables, asked `GET /skills?agent=` and `GET /catalog?agent=` over HTTP like any client.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Answer, ConformanceAgent, MaterialisedScenario } from './types.js';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const LISTENING = /skillsd listening on (http:\/\/[^\s"]+)/;
/** A first index of a small tree takes well under a second; a loaded 2-core machine gets a wide margin. */
const START_MS = 60_000;
const ANSWER_MS = 60_000;

interface SkillsBody {
  skills: Array<{ name: string; filePath: string; description: string; candidates?: string[] }>;
  warnings?: Array<{ message?: string } | string>;
}

interface CatalogBody {
  text: string;
  warnings?: string[];
}

/** Starts a daemon for the scenario, asks it the questions, and stops it (`scratch`: a folder of this run alone). */
export async function askSkillsd(
  scenario: MaterialisedScenario,
  agent: ConformanceAgent,
  catalog: false | { contextWindow?: number; model?: string },
  scratch: string,
): Promise<Answer> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: scenario.home,
    LANG: 'C.UTF-8',
    // The daemon's runtime file goes to the run's scratch folder, not into the tree the agent then reads.
    XDG_RUNTIME_DIR: scratch,
    ...scenario.env,
  };
  const args = [CLI, 'serve', '--port', '0', '--cwd', scenario.cwd, '--log-level', 'info'];
  if (scenario.scenario.skillsdConfig !== undefined) {
    const config = join(scratch, 'skillsd.json');
    writeFileSync(config, JSON.stringify(scenario.scenario.skillsdConfig));
    args.push('--config', config);
  }
  const child = spawn(process.execPath, args, {
    cwd: scenario.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`skillsd did not start within ${START_MS} ms:\n${output}`)),
        START_MS,
      );
      const read = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const found = LISTENING.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('close', (code) => {
        clearTimeout(timer);
        reject(new Error(`skillsd exited with ${code} before listening:\n${output}`));
      });
    });
    const agentParam = encodeURIComponent(agent);
    const skills = await getJson<SkillsBody>(`${url}/skills?agent=${agentParam}`);
    const answer: Answer = {
      skills: skills.skills.map((skill) => ({
        name: skill.name,
        path: skill.filePath,
        description: skill.description,
        ...(skill.candidates === undefined ? {} : { candidates: skill.candidates }),
      })),
      catalog: null,
      notes: (skills.warnings ?? []).map((warning) =>
        typeof warning === 'string' ? warning : (warning.message ?? ''),
      ),
    };
    if (catalog !== false) {
      const window = catalog.contextWindow === undefined ? '' : `&contextWindow=${catalog.contextWindow}`;
      const model = catalog.model === undefined ? '' : `&model=${encodeURIComponent(catalog.model)}`;
      const body = await getJson<CatalogBody>(`${url}/catalog?agent=${agentParam}${window}${model}`);
      answer.catalog = body.text;
      answer.notes?.push(...(body.warnings ?? []));
    }
    return answer;
  } finally {
    // Gone before the agent's copy of the tree is laid where this one was.
    const exited = new Promise((resolve) => child.once('close', resolve));
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

/** GET with the daemon's own retry rule: a 503 `NotReady` is asked again after its `Retry-After`. */
async function getJson<T>(url: string): Promise<T> {
  const deadline = Date.now() + ANSWER_MS;
  for (;;) {
    const response = await fetch(url);
    const text = await response.text();
    if (response.status === 200) return JSON.parse(text) as T;
    if (response.status !== 503 || Date.now() > deadline) {
      throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 500)}`);
    }
    const retryAfter = Number(response.headers.get('retry-after') ?? '1');
    await new Promise((resolve) => setTimeout(resolve, Math.max(100, Math.min(retryAfter, 2) * 1000)));
  }
}
