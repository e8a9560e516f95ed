// The harness's vocabulary: a scenario is a small declarative tree; each real agent and skillsd answer the same
// three questions about it (which skills are loaded, with which descriptions, and what catalog text the model gets).
// docs/conformance.md describes the whole harness.

/** The five agents the harness can run (skillsd's view ids). */
export type ConformanceAgent = 'claude-code' | 'codex' | 'gemini-cli' | 'opencode' | 'copilot-cli';

/**
 * One entry of a scenario tree, keyed by its path relative to the scenario root. A string is a file's UTF-8 text.
 * Texts (file contents, link targets, env values) may hold the placeholders `{root}`, `{home}` and `{cwd}`, replaced
 * by the absolute paths of the materialised tree.
 */
export type TreeEntry =
  | string
  /** A file given as bytes (invalid UTF-8, a BOM, NUL bytes): base64 of its content. */
  | { base64: string }
  /** A file of `size` bytes: `head` then `fill` repeated (default `x`) up to the size (SKILL.md over a limit). */
  | { head: string; size: number; fill?: string }
  /** A symbolic link; the target is written as given (relative targets stay relative). */
  | { link: string }
  /** An empty directory. */
  | { dir: true }
  /** A named pipe (a file no reader may block on). */
  | { fifo: true };

export interface Scenario {
  /** Unique within its agent, kebab-case: `synced-reserved-in-project-root`. */
  id: string;
  /** The rule the scenario shows, one sentence (docs/agents.md states it). */
  rule: string;
  tree: Record<string, TreeEntry>;
  /** HOME, relative to the scenario root (default `home`). */
  home?: string;
  /** The workspace the agent runs in and skillsd serves, relative to the root (default `home/proj`). */
  cwd?: string;
  /** Directories (relative to the root) made git repositories with `git init` before anything runs. */
  git?: string[];
  /** Variables set for both the agent and the daemon (placeholders allowed). */
  env?: Record<string, string>;
  /**
   * Shell commands run in the scenario root after the tree is written and git repositories made (a linked worktree:
   * `git -C home/main worktree add ../wt`). Placeholders allowed. Each runs with `sh -c`, offline like the rest.
   */
  setup?: string[];
  /** The catalog question: absent or `true` asks it at the agent's default window; `false` skips it. */
  catalog?: boolean | { contextWindow?: number; model?: string };
  /**
   * The daemon's settings file for this scenario (`--config`), where the agent's rule can only show once a policy of
   * skillsd's own is relaxed: `{ symlinks: 'follow' }` for a SKILL.md linked to a file outside its skill, which the
   * default `contain` mode refuses on purpose (the refusal has tests of its own under test/security/).
   */
  skillsdConfig?: Record<string, unknown>;
  /**
   * The agent answers this scenario differently from run to run (OpenCode reads roots concurrently): the answers
   * are reported, never counted as a difference. Say why.
   */
  racy?: string;
  /**
   * Only the order in which the agent takes the files of one root is left to chance (Gemini CLI takes them as its
   * glob walk yields them): the loaded set and descriptions are judged, the catalog, which follows that order, is not.
   */
  racyOrder?: string;
}

/** A scenario as laid out on disk. Paths are absolute, exactly as created (not resolved through links). */
export interface MaterialisedScenario {
  scenario: Scenario;
  root: string;
  home: string;
  cwd: string;
  env: Record<string, string>;
}

/** One loaded skill as either side reports it. `path` is the SKILL.md path the side reports. */
export interface LoadedSkill {
  name: string;
  path: string;
  description: string;
  /** skillsd only: where the agent picks at random, every file it could load under this name. */
  candidates?: string[];
}

/** What one side (an agent or skillsd) answers for one scenario. */
export interface Answer {
  /** Loaded skills; bundled and built-in skills of the agent are left out by the driver. */
  skills: LoadedSkill[];
  /**
   * The catalog text the model would get, from its first byte to its last as the agent frames it, or `null` when
   * the question was not asked or the agent has no catalog.
   */
  catalog: string | null;
  /** Files the agent rejected, with its message (reported, not compared). */
  rejected?: Array<{ path: string; message: string }>;
  /** Anything the side said while answering (stderr lines, warnings), for the report only. */
  notes?: string[];
}

/** A recording model endpoint on 127.0.0.1: what each agent sent its model. */
export interface ModelEndpoint {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Requests received since the last `take()`, oldest first; `take()` empties the list. */
  take(): RecordedRequest[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What a driver gets for one run. */
export interface DriverContext {
  scenario: MaterialisedScenario;
  /** The installed agent: its folder and the command that starts it. */
  install: InstalledAgent;
  /** A scratch directory for this run only (TMPDIR, caches), removed afterwards. */
  scratch: string;
  /** The base environment (PATH, LANG, HOME, the scenario's variables); add the agent's own on top. */
  env: Record<string, string>;
  endpoint: ModelEndpoint;
  /** Whether to answer the catalog question, and at which window or model. */
  catalog: false | { contextWindow?: number; model?: string };
  /** Aborted when the run's time is up. */
  signal: AbortSignal;
}

export interface InstalledAgent {
  agent: ConformanceAgent;
  package: string;
  version: string;
  /** The folder it is installed in (`<cache>/<agent>-<version>`). */
  dir: string;
  /** Absolute path of the executable (`<dir>/node_modules/.bin/<bin>`). */
  bin: string;
}

/** How the harness asks one real agent. One file per agent in `conformance/drivers/`. */
export interface AgentDriver {
  agent: ConformanceAgent;
  /** Seconds one run may take before it is killed (and retried once). */
  timeoutS: number;
  /** Runs after installation, once (unpacking a package cache); optional. */
  prepare?(install: InstalledAgent, env: Record<string, string>): Promise<void>;
  ask(ctx: DriverContext): Promise<Answer>;
}
