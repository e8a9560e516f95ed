// The shapes of the per-agent views (docs/agents.md): each agent is described by data (roots, layout, identity,
// precedence) plus the few functions where its rule is code (reading one file, writing its catalog).

import type { Profile, SkillDiagnostic, SkillWarning } from '../types.js';
import type { SideLookups } from './side-file.js';

export type AgentId = 'claude-code' | 'codex' | 'opencode' | 'gemini-cli' | 'copilot-cli' | 'vscode' | 'goose';
export type ViewId = AgentId | Profile;
export type Scope = 'user' | 'project' | 'admin' | 'plugin';
export type Confidence = 'verified' | 'source' | 'docs' | 'inferred';
export type ViewStatus = 'loaded' | 'shadowed' | 'invalid' | 'unseen';

export interface AgentInfo {
  id: ViewId;
  name: string;
  describes: string;
  confidence: Confidence;
}

/** What one view depends on: HOME, the workspace, and the agents' environment (non-empty values only). */
export interface AgentContext {
  home: string;
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Nearest directory from `cwd` upward (inclusive) holding a `.git` entry, or null. */
  gitRoot: string | null;
  /** The main repository's root when `gitRoot/.git` is a file naming a linked worktree, else null. */
  mainWorktree: string | null;
  /** `gitRoot/.git` is a file that failed a guard of the bounded read: the views that look for a worktree say so. */
  gitFileWarning?: SkillWarning;
  /** The installed Claude plugins' skills directories (Claude Code's `plugin` scope), in registry order. */
  claudePlugins?: ClaudePluginDirs;
}

/** Claude Code's plugin skills directories and what placing them read (docs/agents.md "Claude Code"). */
export interface ClaudePluginDirs {
  /** Each skills directory with the plugin's name (its registry id before `@`). */
  dirs: Array<{ path: string; plugin: string }>;
  /** The plugin install directories: a file below one belongs to a plugin. */
  installs: string[];
  /** Registries, settings and manifests read, and the install directories: watched for any change. */
  files: string[];
  warnings: string[];
}

/** How a root's tree is searched. */
export interface Layout {
  /** Deepest level of the directory holding a SKILL.md (the root is level 0); null: no limit. */
  maxDepth: number | null;
  /** Shallowest such level: 1 when a SKILL.md directly in the root is ignored. */
  minDepth: number;
  /** `skip`: any hidden component below the root hides the file; `walk`: hidden names are walked. */
  hidden: 'skip' | 'walk';
  /** Directory names never walked (Goose: `.git`, `.hg`, `.svn`; Gemini: `node_modules`). */
  skipNames?: readonly string[];
  /** A SKILL.md that is itself a symbolic link is read (true) or ignored (false). */
  fileLinks: boolean;
  /** Every `*.md` file is a candidate, not only SKILL.md (Claude Code's `.claude/commands`). */
  markdownFiles?: true;
  /** Walk limits per root, past which the walk stops with a warning (Codex). */
  limits?: { dirs: number; entries: number; warning: (root: string) => string };
  /** Paths are reported canonical (realpath) instead of as found. */
  canonical: boolean;
  /** Why a file below this root is too deep, for `unseen` reasons. */
  tooDeep?: string;
  /** Why a hidden file below this root is not read. */
  hiddenReason?: string;
  /**
   * A directory holding a SKILL.md file is a skill and nothing below it is walked, and a directory named SKILL.md is
   * walked like any other (Copilot CLI).
   */
  leaf?: true;
  /** The files found are ordered by their whole path (UTF-16 code units), not level by level (Copilot CLI). */
  pathOrder?: true;
  /** Entries are walked in descending name order (UTF-16 code units) instead of ascending (Gemini CLI). */
  descending?: true;
  /**
   * Every path to a directory is walked, even one whose real directory was walked already (Gemini CLI: two links to
   * one folder, a link to `.`, are each a skill). Only with a `maxDepth`, which keeps a link loop finite.
   */
  everyPath?: true;
  /** A directory named SKILL.md is walked like any other (OpenCode's SKILL.md glob at any depth); without `leaf`. */
  skillDirs?: true;
}

export interface AgentRoot {
  path: string;
  scope: Scope;
  layout: Layout;
  /** Set when the agent would read this root but a condition does not hold (Gemini's trust): every file is unseen. */
  blocked?: string;
  /** OpenCode's scan phases: files of one phase race each other. */
  phase?: number;
  /** Put before every name read under this root (Claude Code's plugin skills: `<plugin>:`). */
  namePrefix?: string;
  /** The agent's own kind of this root, for its reader (Copilot CLI's skill sources, which order its catalog). */
  origin?: string;
}

/** One SKILL.md the walk found under a root. */
export interface Found {
  /** As the agent reports it (lexical or canonical). */
  filePath: string;
  /** As found under the root (never resolved). */
  lexicalPath: string;
  /** realpath of the file: the row key of the matrix. */
  realPath: string;
  /** Directory holding the SKILL.md, as reported. */
  baseDir: string;
  root: AgentRoot;
  /** Root path as reported (canonical for canonical layouts). */
  rootShown: string;
}

export type ReadOutcome =
  | {
      ok: true;
      name: string;
      description: string;
      hide: boolean;
      /** Catalog extras (Claude Code's `when_to_use`). */
      extra?: string;
      cutAtLoad?: boolean;
      /** A name the catalog shows beside the loaded one (Claude Code's frontmatter `name`). */
      displayName?: string;
      /** What kind of entry this is when not a skill (Claude Code's `.claude/commands` files). */
      kind?: 'command';
      warnings?: string[];
    }
  /** `silent`: the agent says nothing (the message is only the matrix's reason). */
  | { ok: false; message: string; silent?: boolean };

export interface AgentSkill {
  name: string;
  description: string;
  filePath: string;
  baseDir: string;
  hide: boolean;
  source: { agent: ViewId; scope: Scope; root: string };
  /** Catalog extras (not served). */
  extra?: string;
  /** The description was cut when read (VS Code's cap): its catalog entry is `truncated`. */
  cutAtLoad?: boolean;
  /** The file's path relative to its root as walked, links unresolved (set for `keepsWalkedPath` agents). */
  walkedPath?: string;
  /** A name the catalog shows beside `name` (not served). */
  displayName?: string;
  /** Set for an entry that is not a skill: `command` (Claude Code's `.claude/commands` files). */
  kind?: 'command';
  /**
   * Where the agent's own choice is a race (OpenCode reads every root at once): every file that could be the one
   * loaded under this name, `filePath` among them (docs/agents.md "OpenCode").
   */
  candidates?: string[];
}

export interface ViewRecord {
  status: Exclude<ViewStatus, 'unseen'>;
  name: string;
  filePath: string;
  reason?: string;
}

export interface AgentCollision {
  name: string;
  winner: { filePath: string; source: AgentSkill['source'] };
  shadowed: Array<{ filePath: string; source: AgentSkill['source']; reason: 'precedence' | 'duplicate-file' }>;
}

/** The doctor's `Finding` (docs/api.md §GET /doctor) for a file a view reads, or an `agent-rejected` one. */
export interface AgentFinding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  path: string;
  line?: number;
  message: string;
  hint?: string;
}

/** One agent's answer for one workspace. */
export interface AgentView {
  agent: AgentInfo;
  /** Loaded skills in load order (sorted when served). */
  skills: AgentSkill[];
  warnings: SkillWarning[];
  collisions: AgentCollision[];
  diagnostics: AgentFinding[];
  /** Status per file this agent read, keyed by realpath. */
  records: Map<string, ViewRecord>;
  /** Every root this agent reads, in its order. */
  roots: AgentRoot[];
  /** The roots as the view reports them (canonical for canonical layouts), in the agent's order. */
  rootOrder: string[];
  /** The candidate paths first found by this agent (realpath → lexical path, folder-or-frontmatter name). */
  found: Map<string, { lexicalPath: string; folder: string; frontmatterName: string | null }>;
  /**
   * What the view depends on besides the roots: directories walked below them, settings files. `walked` holds the
   * directories the walks went through below the roots with what watching each costs (walk-root.ts): they are
   * watched within one budget for all the views of the workspace (compute-views.ts).
   */
  watch: { dirs: string[]; files: string[]; walked?: WalkedDir[] };
}

/** The data and code of one agent. */
export interface AgentSpec {
  info: AgentInfo & { id: AgentId };
  /** The roots in the agent's order, with the warnings their placement gives. */
  roots(ctx: AgentContext): Promise<{
    roots: AgentRoot[];
    warnings: SkillWarning[];
    files?: string[];
    dirs?: string[];
    /** A name the agent's settings keep from loading (Gemini CLI's `skills.disabled`): why, else undefined. */
    refuseName?: (name: string) => string | undefined;
  }>;
  /** One file found twice: `inode` (same device and inode), `path` (the reported path) or `lexical`. */
  identity: 'inode' | 'path' | 'lexical';
  /** Reads one SKILL.md. */
  read(text: string, found: Found): ReadOutcome;
  /** A file next to the SKILL.md that changes the outcome (Codex's `agents/openai.yaml`). */
  sidecar?(
    found: Found,
    look: SideLookups,
  ): Promise<{ hide?: boolean; invalid?: string; warning?: string; namePrefix?: string } | undefined>;
  /** Why a name qualified by a sidecar's `namePrefix` is rejected, if it is (Codex's plugin namespaces). */
  qualifiedNameError?(name: string): string | undefined;
  /** Message of a file that could not be read at all, or null when silent. */
  readError?: (error: string, found: Found) => string;
  /** Who wins a name: the first found, the last found, or everyone (Codex). */
  precedence: 'first' | 'last' | 'all';
  /** The reason a shadowed file gets, given the winner. */
  shadowReason(winner: AgentSkill, loser: AgentSkill, ctx: AgentContext): string;
  /** Warnings when a name is taken twice (the winner by the agent's precedence, the loser shadowed). */
  onDuplicate?(
    winner: AgentSkill,
    loser: AgentSkill,
    winnerFound: Found,
    loserFound: Found,
    ctx: AgentContext,
  ): SkillWarning[];
  /**
   * Warnings after loading (Codex duplicate names, OpenCode races): a function of the loaded names and of the records
   * in collisions alone, so that a patch keeping both keeps the warnings (agent-run.ts `patchRun`).
   */
  afterLoad?(skills: AgentSkill[], ctx: AgentContext): SkillWarning[];
  /** The catalog from the loaded skills in load order. */
  catalog(
    skills: AgentSkill[],
    contextWindow: number | undefined,
    rootOrder: readonly string[],
    model: string | undefined,
  ): CatalogAnswer;
  /** The default window assumed when the query has none. */
  defaultWindow?: number;
  /** The model assumed when the query names none (the agent's default without a login); absent: no model matters. */
  defaultModel?: string;
  /** Each loaded skill keeps `walkedPath`, its path below the root as walked (Codex's aliased catalog paths). */
  keepsWalkedPath?: true;
  /**
   * The agent has no size limit: a SKILL.md over the daemon's read cap is read by its first this many bytes (the
   * frontmatter is at the top) instead of being rejected (OpenCode).
   */
  largeFileHead?: number;
  /**
   * The agent works in realpath(cwd): a workspace reached through a symbolic link is walked (and reported) as its
   * real directory, its repository root and linked worktree found from there.
   */
  realWorkspace?: true;
}

export type EntryStatus = 'full' | 'truncated' | 'name-only' | 'dropped';

export interface CatalogEntry {
  name: string;
  status: EntryStatus;
  chars: number;
}

export interface CatalogAnswer {
  contextWindow: number | null;
  unit: 'tokens' | 'chars';
  limit: number | null;
  used: number;
  entries: CatalogEntry[];
  text: string;
  warnings: string[];
}

export type { SkillDiagnostic };

/** A directory a walk went through below its root, as the watcher is handed it (walk-root.ts). */
export interface WalkedDir {
  path: string;
  /** Its level below the root (the root's folders are level 1). */
  depth: number;
  /**
   * The watches the watcher takes for it: the directory and each folder or link in it not starting with a dot
   * (src/watch/watch-skills-root.ts).
   */
  watches: number;
}
