// npm run conformance [-- --agent ID] [-- --only SCENARIO] [-- --self-check] [-- --write-known ISSUE] [-- --jobs N]
//
// Installs the pinned agents (conformance/agents.json) into a cache folder, then, inside a fresh network namespace
// with only loopback up, lays out every scenario, asks a real skillsd daemon and the real agent the same questions,
// and prints one line per scenario and `agree X/N` per agent and question. Exit 1 when a difference is not listed in
// conformance/known-differences.json (docs/conformance.md).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ASPECTS, type Aspect, type Comparison, compareAnswers, firstDivergence } from './lib/compare.js';
import { AGENTS, installAgent, installedAgent } from './lib/install.js';
import {
  judge,
  type KnownDifference,
  readKnownDifferences,
  type Verdict,
  writeKnownDifferences,
} from './lib/known-differences.js';
import { startModelEndpoint } from './lib/model-endpoint.js';
import { askSkillsd } from './lib/skillsd-side.js';
import { materialiseScenario } from './lib/tree.js';
import type { AgentDriver, Answer, ConformanceAgent, DriverContext, Scenario } from './lib/types.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Fixed, so that a scenario always lies at the same path (catalog budgets count path bytes). */
const WORK = '/tmp/skillsd-conformance';
const REPORT = join(HERE, 'report.json');
const IN_NAMESPACE = 'SKILLSD_CONFORMANCE_NETNS';

const { values: options } = parseArgs({
  options: {
    agent: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    'self-check': { type: 'boolean', default: false },
    'write-known': { type: 'string' },
    jobs: { type: 'string', default: '2' },
  },
});

const agents = (options.agent ?? AGENTS) as ConformanceAgent[];
for (const agent of agents) {
  if (!AGENTS.includes(agent)) fail(`unknown agent ${agent}; known: ${AGENTS.join(', ')}`);
}

if (process.env[IN_NAMESPACE] !== '1') {
  // Outside the namespace: install (the registry is reachable only from here), then run again offline.
  for (const agent of agents) installAgent(agent, (line) => console.log(line));
  process.exit(runOffline());
}
await main();

/** Runs this script again inside `unshare -n` with loopback up; where that is impossible, says so and runs here. */
function runOffline(): number {
  const script = fileURLToPath(import.meta.url);
  const env = { ...process.env, [IN_NAMESPACE]: '1' };
  const probe = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
  if (probe.status !== 0) {
    console.log('offline: no network namespace can be made here (unshare -n needs root); every base URL is local');
    const result = spawnSync(process.execPath, [...process.execArgv, script, ...process.argv.slice(2)], {
      stdio: 'inherit',
      env,
    });
    return result.status ?? 1;
  }
  const result = spawnSync(
    'unshare',
    [
      '-n',
      'sh',
      '-c',
      'ip link set lo up && exec "$0" "$@"',
      process.execPath,
      ...process.execArgv,
      script,
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit', env },
  );
  return result.status ?? 1;
}

interface ScenarioResult {
  agent: ConformanceAgent;
  scenario: string;
  racy?: string;
  /** The aspects this scenario is judged on (see `judgedAspects`). */
  judged: Aspect[];
  error?: string;
  comparison?: Comparison;
  verdicts: Array<{ aspect: Aspect; verdict: Verdict }>;
  skillsd?: Answer;
  answer?: Answer;
  seconds: number;
}

async function main(): Promise<void> {
  const interfaces = Object.keys(networkInterfaces());
  if (interfaces.some((name) => name !== 'lo')) fail(`not offline: network interfaces ${interfaces.join(', ')}`);
  console.log(`offline: a network namespace of its own, interfaces: ${interfaces.join(', ') || 'none up'}`);

  await holdWorkFolders();
  const known = readKnownDifferences();
  const plans = await Promise.all(agents.map(loadAgent));
  const results: ScenarioResult[] = [];
  const selfChecks: Array<{ agent: ConformanceAgent; scenario: string; caught: boolean; detail: string }> = [];
  const started = Date.now();
  await inParallel(plans, Number(options.jobs), async ({ agent, driver, scenarios }) => {
    rmSync(join(WORK, agent), { recursive: true, force: true });
    await driver.prepare?.(installedAgent(agent), baseEnv());
    const endpoint = await startModelEndpoint();
    try {
      for (const scenario of scenarios) {
        const result = await runScenario(agent, driver, scenario, endpoint, known);
        results.push(result);
        console.log(formatLine(result));
      }
      if (options['self-check']) selfChecks.push(await selfCheck(agent, driver, scenarios, endpoint));
    } finally {
      await endpoint.close();
    }
  });

  console.log('');
  let failed = false;
  for (const agent of agents) {
    const mine = results.filter((r) => r.agent === agent);
    const counted = mine.filter((r) => r.error === undefined);
    const figures = ASPECTS.map((aspect) => {
      const asked = counted.filter((r) => r.judged.includes(aspect) && r.comparison!.outcome[aspect] !== 'not-asked');
      const agree = asked.filter((r) => r.comparison!.outcome[aspect] === 'agree').length;
      return `${aspect} ${agree}/${asked.length}`;
    });
    const racy = mine.filter((r) => r.racy !== undefined).length;
    const errors = mine.filter((r) => r.error !== undefined).length;
    console.log(
      `${agent} ${installedAgent(agent).version}: agree ${figures.join(', ')}` +
        `${racy ? `; ${racy} racy (only what the agent answers the same every run is counted)` : ''}` +
        `${errors ? `; ${errors} errors` : ''}`,
    );
  }
  const unknown = results.filter((r) => r.error !== undefined || r.verdicts.some((v) => v.verdict !== 'known'));
  const ranKeys = new Set(results.map((r) => `${r.agent}/${r.scenario}`));
  const fixed = known.filter(
    (k) =>
      ranKeys.has(`${k.agent}/${k.scenario}`) &&
      !results.some(
        (r) => r.agent === k.agent && r.scenario === k.scenario && r.verdicts.some((v) => v.aspect === k.aspect),
      ),
  );
  for (const entry of fixed)
    console.log(`fixed (remove from known-differences.json): ${entry.agent} ${entry.scenario} ${entry.aspect}`);
  for (const check of selfChecks) {
    console.log(`self-check ${check.agent} ${check.scenario}: ${check.caught ? 'caught' : 'MISSED'} (${check.detail})`);
    if (!check.caught) failed = true;
  }
  console.log(`${results.length} scenarios in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  const writeKnown = options['write-known'];
  if (writeKnown !== undefined) {
    const issue = Number(writeKnown);
    if (!Number.isInteger(issue) || issue <= 0) fail('--write-known takes the number of the issue that will fix them');
    const found: KnownDifference[] = results.flatMap((r) =>
      (r.comparison?.differences ?? [])
        .filter((d) => r.judged.includes(d.aspect))
        .map((d) => ({
          agent: r.agent,
          scenario: r.scenario,
          aspect: d.aspect,
          issue:
            known.find((k) => k.agent === r.agent && k.scenario === r.scenario && k.aspect === d.aspect)?.issue ??
            issue,
          skillsdAnswer: d.skillsd,
          agentAnswer: d.agent,
        })),
    );
    writeKnownDifferences(known, (agent, scenario) => ranKeys.has(`${agent}/${scenario}`), found);
    console.log(`known-differences.json written: ${found.length} differences of this run`);
  } else if (unknown.length > 0) {
    failed = true;
    console.log(`${unknown.length} scenarios differ in ways known-differences.json does not list (or failed to run)`);
  }
  writeFileSync(REPORT, `${JSON.stringify({ results, selfChecks }, null, 2)}\n`);
  console.log(`report: ${REPORT}`);
  process.exit(failed ? 1 : 0);
}

async function loadAgent(agent: ConformanceAgent) {
  const driverFile = join(HERE, 'drivers', `${agent}.ts`);
  const scenarioFile = join(HERE, 'scenarios', `${agent}.ts`);
  if (!existsSync(driverFile) || !existsSync(scenarioFile)) fail(`${agent}: no driver or no scenarios`);
  const { driver } = (await import(driverFile)) as { driver: AgentDriver };
  let { scenarios } = (await import(scenarioFile)) as { scenarios: Scenario[] };
  const ids = new Set<string>();
  for (const scenario of scenarios) {
    if (ids.has(scenario.id)) fail(`${agent}: scenario id ${scenario.id} is used twice`);
    ids.add(scenario.id);
  }
  if (options.only !== undefined) scenarios = scenarios.filter((s) => options.only!.includes(s.id));
  return { agent, driver, scenarios };
}

async function runScenario(
  agent: ConformanceAgent,
  driver: AgentDriver,
  scenario: Scenario,
  endpoint: Awaited<ReturnType<typeof startModelEndpoint>>,
  known: KnownDifference[],
): Promise<ScenarioResult> {
  const started = Date.now();
  const result: ScenarioResult = { agent, scenario: scenario.id, verdicts: [], judged: [...ASPECTS], seconds: 0 };
  const racy = scenario.racy ?? scenario.racyOrder;
  if (racy !== undefined) result.racy = racy;
  const catalog = catalogQuestion(scenario);
  try {
    // skillsd first: the agents write their own files into HOME when they start.
    const scratch = freshScratch(agent, scenario.id);
    const laid = materialiseScenario(scenario, join(WORK, agent));
    result.skillsd = await askSkillsd(laid, agent, catalog, scratch);
    result.answer = await askAgent(agent, driver, scenario, endpoint, catalog);
    result.comparison = compareAnswers(result.skillsd, result.answer, laid.root);
    result.judged = judgedAspects(scenario, result.skillsd);
    result.verdicts = result.comparison.differences
      .filter((d) => result.judged.includes(d.aspect))
      .map((d) => ({ aspect: d.aspect, verdict: judge(known, agent, scenario.id, d) }));
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  result.seconds = (Date.now() - started) / 1000;
  return result;
}

/** Asks the agent on a freshly laid tree; a run that fails or overruns is tried once more from scratch. */
async function askAgent(
  agent: ConformanceAgent,
  driver: AgentDriver,
  scenario: Scenario,
  endpoint: Awaited<ReturnType<typeof startModelEndpoint>>,
  catalog: DriverContext['catalog'],
  tweak?: (laid: ReturnType<typeof materialiseScenario>) => void,
): Promise<Answer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const laid = materialiseScenario(scenario, join(WORK, agent));
    tweak?.(laid);
    const scratch = freshScratch(agent, scenario.id);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), driver.timeoutS * 1000);
    endpoint.take();
    try {
      return await driver.ask({
        scenario: laid,
        install: installedAgent(agent),
        scratch,
        env: { ...baseEnv(), HOME: laid.home, ...laid.env },
        endpoint,
        catalog,
        signal: controller.signal,
      });
    } catch (error) {
      lastError = error;
    } finally {
      clearTimeout(timer);
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  throw lastError;
}

/**
 * Proves the comparison can fail with the real agent: the first scenario where skillsd loads a skill is run again
 * with that skill's folder removed before the agent is asked; the harness must report the loaded sets as different.
 */
async function selfCheck(
  agent: ConformanceAgent,
  driver: AgentDriver,
  scenarios: Scenario[],
  endpoint: Awaited<ReturnType<typeof startModelEndpoint>>,
) {
  for (const scenario of scenarios) {
    if (scenario.racy !== undefined || scenario.racyOrder !== undefined) continue;
    const laid = materialiseScenario(scenario, join(WORK, agent));
    const skillsd = await askSkillsd(laid, agent, false, freshScratch(agent, scenario.id));
    const first = skillsd.skills[0];
    if (first === undefined) continue;
    const skillDir = dirname(first.path);
    const answer = await askAgent(agent, driver, scenario, endpoint, false, () =>
      rmSync(skillDir, { recursive: true, force: true }),
    );
    const comparison = compareAnswers(skillsd, answer, laid.root);
    return {
      agent,
      scenario: scenario.id,
      caught: comparison.outcome.set === 'differ',
      detail: `removed ${skillDir.replace(laid.root, '{root}')} before asking the agent`,
    };
  }
  return { agent, scenario: '-', caught: false, detail: 'no scenario where skillsd loads a skill' };
}

/**
 * One run at a time owns an agent's work folder (its paths are fixed): a second run of the same agent waits for the
 * first, and a lock left by a run that died is taken over. Agents are locked in one order, so two runs never wait on
 * each other.
 */
async function holdWorkFolders(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  for (const agent of [...agents].sort()) {
    const lock = join(WORK, `${agent}.lock`);
    let told = false;
    for (;;) {
      try {
        writeFileSync(lock, String(process.pid), { flag: 'wx' });
        process.on('exit', () => rmSync(lock, { force: true }));
        break;
      } catch {
        const holder = Number(readFileSync(lock, 'utf8'));
        if (!isAlive(holder)) {
          rmSync(lock, { force: true });
          continue;
        }
        if (!told) console.log(`waiting for the run of pid ${holder}, which holds ${join(WORK, agent)}`);
        told = true;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a scenario is judged on. A racy one (the agent answers it differently from run to run) is reported whole and
 * judged only where the answer is still determined: its loaded set when skillsd names the files the agent picks among
 * (`candidates`), and, where only the order of one root's files is left to chance (`racyOrder`), everything but the
 * catalog, whose entries follow that order.
 */
function judgedAspects(scenario: Scenario, skillsd: Answer): Aspect[] {
  if (scenario.racyOrder !== undefined) return ['set', 'descriptions'];
  if (scenario.racy === undefined) return [...ASPECTS];
  return skillsd.skills.some((skill) => skill.candidates !== undefined) ? ['set'] : [];
}

function catalogQuestion(scenario: Scenario): DriverContext['catalog'] {
  if (scenario.catalog === false) return false;
  if (scenario.catalog === undefined || scenario.catalog === true) return {};
  return scenario.catalog;
}

/** PATH (node, git, sh), a UTF-8 locale and nothing else of the machine's environment. */
function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' };
}

function freshScratch(agent: ConformanceAgent, id: string): string {
  const dir = join(WORK, `${agent}.scratch`, id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

function formatLine(result: ScenarioResult): string {
  const head = `${result.agent} ${result.scenario}`;
  if (result.error !== undefined) return `${head}: ERROR ${result.error.split('\n')[0]}`;
  const differences = result.comparison!.differences;
  if (differences.length === 0) return `${head}: ok`;
  const parts = differences.map((d) => {
    const verdict = result.verdicts.find((v) => v.aspect === d.aspect)?.verdict;
    return `${d.aspect} differs (${verdict ?? 'racy, not judged'}) ${firstDivergence(d.skillsd, d.agent)}`;
  });
  return `${head}: ${parts.join('; ')}`;
}

async function inParallel<T>(items: T[], jobs: number, run: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(jobs, queue.length)) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
    }),
  );
}

function fail(message: string): never {
  console.error(`conformance: ${message}`);
  process.exit(2);
}
