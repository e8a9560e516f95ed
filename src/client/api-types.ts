// The JSON answers of the daemon's API, as a client reads them (docs/api.md §Endpoints). The record shapes are the ones
// discovery produces; the doctor's are the doctor engine's.

import type { DoctorReport, Severity, SkillDoctorReport } from '../discovery/doctor/types.js';
import type {
  Collision,
  Profile,
  ShadowedCandidate,
  Skill,
  SkillDiagnostic,
  SkillWarning,
} from '../discovery/types.js';

export type { Collision, DoctorReport, Skill, SkillDoctorReport, SkillWarning };

/** An agent of the agent views (docs/api.md "Agent views"). */
export interface AgentInfo {
  id: string;
  name: string;
  describes: string;
  confidence: 'verified' | 'source' | 'docs' | 'inferred';
}

export interface AgentSkill {
  name: string;
  description: string;
  filePath: string;
  baseDir: string;
  hide: boolean;
  source: { agent: string; scope: 'user' | 'project' | 'admin' | 'plugin'; root: string };
}

export interface AgentSkillsAnswer {
  generation: number;
  profile: Profile;
  cwd: string;
  agent: AgentInfo;
  skills: AgentSkill[];
  warnings: SkillWarning[];
  collisions: Array<{
    name: string;
    winner: { filePath: string; source: AgentSkill['source'] };
    shadowed: Array<{ filePath: string; source: AgentSkill['source']; reason: 'precedence' | 'duplicate-file' }>;
  }>;
  diagnostics: Array<{ rule: string; severity: 'error' | 'warning' | 'info'; path: string; message: string }>;
}

export interface AgentCell {
  status: 'loaded' | 'shadowed' | 'invalid' | 'unseen';
  filePath?: string;
  reason?: string;
}

export interface AgentMatrixAnswer {
  generation: number;
  agents: AgentInfo[];
  skills: Array<{ name: string; filePath: string; views: Record<string, AgentCell> }>;
}

export interface AgentCatalogAnswer {
  agent: AgentInfo;
  /** The model assumed: the one asked for, else the agent's default; null where no model matters. */
  model: string | null;
  contextWindow: number | null;
  unit: 'tokens' | 'chars';
  limit: number | null;
  used: number;
  entries: Array<{ name: string; status: 'full' | 'truncated' | 'name-only' | 'dropped'; chars: number }>;
  text: string;
  warnings: string[];
}

/** `GET /doctor/{name}`: the doctor's report plus one cell per agent. */
export type NameDiagnosis = SkillDoctorReport & { agents: Record<string, AgentCell> };

/** `GET /doctor` and `GET /doctor/{name}`: `severity` keeps findings of that severity or worse. */
export interface DoctorOptions {
  severity?: Severity;
}

export interface AgentSkillsFilter {
  hidden?: boolean;
  level?: 'user' | 'project';
  q?: string;
}

export interface SkillsAnswer {
  generation: number;
  profile: Profile;
  cwd: string;
  skills: Skill[];
  warnings: SkillWarning[];
  collisions: Collision[];
  diagnostics: SkillDiagnostic[];
}

export interface SkillDetail extends Skill {
  shadowed: ShadowedCandidate[];
}

export interface CollisionsAnswer {
  generation: number;
  collisions: Collision[];
}

export interface InvocationAnswer {
  handled: boolean;
  message?: string;
  details?: { name: string; path: string; args?: string; lineCount: number };
}

export interface HealthAnswer {
  status: 'ok' | 'starting';
  generation: number;
  /**
   * `counter`: generations grow by one per change; `content`: read from the content hash, they change exactly when the
   * answer does but do not grow (compare them for equality only). Absent from daemons older than this field.
   */
  generationMode?: 'counter' | 'content';
  skills: number;
  uptimeS: number;
  workspaces: number;
  watchers: number;
  [key: string]: unknown;
}

export interface ContextFilesAnswer {
  files: Array<{ path: string; content: string; level: 'user' | 'project'; depth: number }>;
}

/** `GET /skills` filters (docs/api.md): they never change `generation`. */
export interface SkillsFilter {
  hidden?: boolean;
  provider?: string;
  level?: 'user' | 'project';
  q?: string;
}

/** One result of `GET /search`, best first. */
export interface SearchResult {
  name: string;
  description: string;
  score: number;
  /** The fields a query term matched in. */
  matched: Array<'name' | 'description' | 'body'>;
  hide: boolean;
  source: Skill['source'];
  filePath: string;
}

/** `GET /search?q=…`: the skills ranked by name, description and body. */
export interface SearchAnswer {
  query: string;
  generation: number;
  results: SearchResult[];
}

/** One Server-Sent Event of `GET /events`, its data parsed. */
export interface SkillsdEvent {
  id: string | undefined;
  /** `hello`, `index`, `collision`, `warning`, `diagnostic`, `settings`, `settings-error`, `reset`. */
  event: string;
  data: unknown;
}

/** The data of `hello`: first on every connection. */
export interface HelloEventData {
  generation: number;
  /** Skills loaded (a count), in the view the stream follows. */
  skills: number;
  /** The agent whose view the stream follows; absent on the default stream. */
  agent?: string;
}

/** The data of `index`: the skill names added, removed and changed (in the agent's view on an agent's stream). */
export interface IndexEventData {
  generation: number;
  added: string[];
  removed: string[];
  changed: string[];
  /**
   * Default stream only: the agent views in use that changed, in an `index` event of its own with empty lists (after
   * the default view's events of the same change). Absent: no agent view changed.
   */
  views?: string[];
}
