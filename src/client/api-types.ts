// The JSON answers of the daemon's API, as a client reads them (API.md §Endpoints). The record shapes are the ones
// discovery produces; the doctor's are the doctor engine's.

import type { DoctorReport, SkillDoctorReport } from '../discovery/doctor/types.js';
import type {
  Collision,
  Profile,
  ShadowedCandidate,
  Skill,
  SkillDiagnostic,
  SkillWarning,
} from '../discovery/types.js';

export type { Collision, DoctorReport, Skill, SkillDoctorReport, SkillWarning };

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
  skills: number;
  uptimeS: number;
  workspaces: number;
  watchers: number;
  [key: string]: unknown;
}

export interface ContextFilesAnswer {
  files: Array<{ path: string; content: string; level: 'user' | 'project'; depth: number }>;
}

/** `GET /skills` filters (API.md): they never change `generation`. */
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
