// The data shapes of skill discovery (docs/discovery.md §1, §5; docs/api.md `Skill` and `Collision`).
// Pure types: shared by discovery, the index and the server.

export type Profile = 'musepi' | 'omp' | 'xcsh';
export type Level = 'user' | 'project';
export type SymlinkMode = 'contain' | 'follow';
export type CollisionReason = 'precedence' | 'custom-override' | 'duplicate-file' | 'custom-collision' | 'disabled';

export interface SkillSource {
  /** `<provider>:<level>`, e.g. `native:project`, `custom:user`. */
  id: string;
  /** Provider id: `native`, `claude`, `agents`, `codex`, `opencode`, `github`, `musepi-managed`, `custom`, … */
  provider: string;
  /** Display name, e.g. `MusePi`, `Claude Code`, `Custom`. */
  providerName: string;
  level: Level;
  /** Absolute path of the SKILL.md (same as `filePath`). */
  path: string;
  /**
   * The plugin the skill came with (docs/discovery.md §4a), for the plugin providers only: `<plugin>@<marketplace>` for
   * claude-plugins, the package for omp-plugins, the manifest name for agent-plugins.
   */
  plugin?: string;
}

export interface Skill {
  name: string;
  description: string;
  /** `<scanned dir>/<entry>/SKILL.md` as discovered, symlinks not resolved. */
  filePath: string;
  baseDir: string;
  hide: boolean;
  source: SkillSource;
  /** Normalised frontmatter (kebab-case keys camel-cased, unknown keys kept). */
  frontmatter: Record<string, unknown>;
}

export interface SkillWarning {
  skillPath: string;
  message: string;
}

/**
 * Beyond the reference (daemon-only): something a user must know about one SKILL.md (read cut at the cap, YAML
 * repaired, an engine fence refused, a safety limit hit, invalid UTF-8, an unreadable file, a name that tools will
 * struggle with). Never changes `skills` or `warnings`.
 */
export interface SkillDiagnostic {
  /** The SKILL.md concerned, as discovered. */
  skillPath: string;
  message: string;
}

export interface CollisionCandidate {
  filePath: string;
  source: SkillSource;
}

export interface ShadowedCandidate extends CollisionCandidate {
  reason: CollisionReason;
}

export interface Collision {
  name: string;
  winner: CollisionCandidate;
  shadowed: ShadowedCandidate[];
}

export interface DiscoveryResult {
  skills: Skill[];
  warnings: SkillWarning[];
  collisions: Collision[];
  /** Per-file diagnostics in scan order (providers by priority, then custom directories); see `SkillDiagnostic`. */
  diagnostics: SkillDiagnostic[];
  /**
   * Every skills directory this discovery tried to read (existing or not), in scan order: provider roots and
   * custom directories. The watcher watches exactly these.
   */
  scannedDirs: string[];
  /** The repository root (nearest ancestor of CWD holding `.git`), or null. */
  repoRoot: string | null;
  /**
   * The realpath discovery read each loaded skill's SKILL.md through, keyed by `filePath`. Kept out of `Skill` so that
   * it never reaches the `/skills` JSON; serving that file later checks it was not swapped for a link elsewhere.
   */
  skillRealPaths?: ReadonlyMap<string, string>;
  /**
   * Agent Plugins skills (docs/discovery.md §4a), keyed by `filePath`: the realpath of the plugin root that every file served
   * for the skill must resolve inside, whatever the `symlinks` mode.
   */
  skillRoots?: ReadonlyMap<string, string>;
  /**
   * What the plugin providers read besides skills directories (registries, settings, manifests, lock files, plugin
   * roots; `markers`: directories that move the project anchor). The watcher watches them; a change to any of them
   * runs the plugin providers and the pipeline again.
   */
  pluginInputs?: { files: string[]; markers: string[] };
}

/**
 * What a reload's updated answer changed in the winners: `next` (its `skills`) differs from `previous` only in the
 * records named `names`; every other position holds the very same object, in the same relative order. A diff of the
 * two lists visits those names alone (src/live-index/diff-snapshots.ts).
 */
export interface WinnerChange {
  readonly previous: readonly Skill[];
  readonly next: readonly Skill[];
  readonly names: ReadonlySet<string>;
}

/** A discovery's answer and, when it updated the previous answer, what it changed (`discoverSkillChange`). */
export interface SkillDiscovery {
  result: DiscoveryResult;
  change?: WinnerChange;
}

export interface SkillsSettings {
  enabled: boolean;
  enableSkillCommands: boolean;
  enableCodexUser: boolean;
  enableClaudeUser: boolean;
  enableClaudeProject: boolean;
  enablePiUser: boolean;
  enablePiProject: boolean;
  enableAgentsUser: boolean;
  enableAgentsProject: boolean;
  customDirectories: string[];
  ignoredSkills: string[];
  includeSkills: string[];
}

export interface ServerSettings {
  host?: string;
  port?: number;
  token?: string;
  tokenFile?: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  /** Globs of absolute directories that `?cwd=` may select; empty = any existing absolute directory. */
  allowedWorkspaces: string[];
  /** Who may connect over loopback without a token: the daemon's own user (default), or any local user. */
  localPeers: LocalPeers;
  /** The daemon's URL as remote clients reach it (behind a proxy); `paths=url` text uses it instead of `Host`. */
  publicUrl?: string;
  /** `counter` (default): growing per daemon; `content`: derived from the answer, equal across replicas. */
  generation?: 'counter' | 'content';
  /** `token` (default): `/metrics` needs the token when there is one; `public`: never. */
  metrics?: 'public' | 'token';
  /** `events` (default): file system events; `poll`: stat every watched path each `pollIntervalMs`. */
  watchMode?: 'events' | 'poll';
  /** Poll period of `watchMode: poll`, in milliseconds (default 1000). */
  pollIntervalMs?: number;
  /** Bounds of the MCP face's sessions over Streamable HTTP (docs/mcp.md "Session bounds"). */
  mcp?: McpServerSettings;
  /** Bounds of one walk of a skill's files (docs/api.md "Limits on walks"); each absent one keeps its default. */
  walkLimits?: Partial<WalkLimitSettings>;
  /**
   * Bounds of the agent views' walks of their roots and of the watches they add (docs/api.md "Limits on walks"); each
   * absent one keeps its default.
   */
  viewWalkLimits?: Partial<ViewWalkLimitSettings>;
  /** Workspaces that keep their agent views at once (default 4; docs/api.md "Agent views"). */
  maxViewWorkspaces?: number;
}

export interface McpServerSettings {
  /** Live sessions at once (default 64). */
  maxSessions?: number;
  /** Seconds without a request after which a session ends (default 600). */
  idleTimeoutS?: number;
}

export interface WalkLimitSettings {
  maxEntries: number;
  maxDirectories: number;
  maxDepth: number;
}

export interface ViewWalkLimitSettings extends WalkLimitSettings {
  maxWatchedDirectories: number;
}

export type LocalPeers = 'same-user' | 'any';

export interface Settings {
  skills: SkillsSettings;
  disabledExtensions: string[];
  disabledProviders: string[];
  profile: Profile;
  symlinks: SymlinkMode;
  server: ServerSettings;
}

/** Environment values discovery depends on, passed in explicitly (never read from process.env below the CLI). */
export interface DiscoveryEnv {
  /** Overrides `AGENT` = `HOME/CFG/agent`. */
  PI_CODING_AGENT_DIR?: string;
  /** Claude's user dir becomes `$CLAUDE_CONFIG_DIR/skills`. */
  CLAUDE_CONFIG_DIR?: string;
  /** The variables the per-agent views read (docs/agents.md "Environment"), non-empty values only. */
  agents?: Readonly<Record<string, string>>;
}

/** Everything one discovery depends on (docs/discovery.md §0). */
export interface DiscoveryContext {
  home: string;
  cwd: string;
  env: DiscoveryEnv;
  settings: Settings;
}
