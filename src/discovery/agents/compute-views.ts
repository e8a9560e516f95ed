// Every agent's view of one workspace, and the matrix of candidates × agents (docs/agents.md "Vocabulary").
// Pure domain logic: the index hands in the daemon's own discovery results.

import type { Finding } from '../doctor/types.js';
import { linkPolicyOf } from '../link-trust.js';
import { compareSkills } from '../pipeline/sort-skills.js';
import { defaultSettings } from '../settings.js';
import type { DiscoveryResult, Profile, SymlinkMode } from '../types.js';
import { resolveAgentContext } from './agent-context.js';
import { AGENT_SPECS, PROFILE_IDS } from './agents.js';
import { claudePluginDirs } from './claude-plugin-dirs.js';
import type { AgentFileTexts, TextRead } from './file-texts.js';
import { fencedBlock, readYamlMapping } from './frontmatter-rules.js';
import { profileView } from './profiles.js';
import { runAgent } from './run-agent.js';
import type { AgentContext, AgentView, ViewId, ViewStatus } from './types.js';
import { unseenReason } from './unseen-reason.js';
import { addDoctorFindings } from './view-findings.js';
import type { RootWalkMemo } from './walk-memo.js';

export interface ViewsInput {
  home: string;
  cwd: string;
  /** The agents' variables (agentEnv of the daemon's environment). */
  env: Readonly<Record<string, string>>;
  /** The daemon's discovery under each profile (its own profile's is the live snapshot's). */
  discoverProfile(profile: Profile): Promise<DiscoveryResult>;
  texts: AgentFileTexts;
  /**
   * The doctor's findings for this workspace (docs/api.md §GET /doctor): each view lists those about the files it
   * reads. Absent: views carry their own findings only.
   */
  doctorFindings?: () => Promise<readonly Finding[]>;
  /** The previous builds' root walks: only the roots a reported change can touch are walked again. */
  walks?: RootWalkMemo;
  /** The daemon's profile: it places the project anchor that Claude plugin installs bind to (default: musepi). */
  profile?: Profile;
  /**
   * The daemon's `symlinks` mode: every view reads SKILL.md files by the link rules of the default view
   * (SECURITY.md "The views").
   */
  symlinks: SymlinkMode;
}

export interface MatrixCell {
  status: ViewStatus;
  filePath?: string;
  reason?: string;
}

export interface MatrixRow {
  name: string;
  filePath: string;
  views: Record<ViewId, MatrixCell>;
}

/** The candidates × views matrix of `GET /agents`. */
export interface AgentMatrix {
  rows: MatrixRow[];
  /** Per row, the names the views that read its file give it (the doctor matches a name against them). */
  rowNames: Map<MatrixRow, Set<string>>;
}

export interface AgentViews {
  ctx: AgentContext;
  views: Map<ViewId, AgentView>;
  /**
   * The matrix, made on first use from this computation's views and texts: an update nobody asks the matrix of
   * does not pay for every candidate × view (docs/agents.md "Live").
   */
  matrix(): Promise<AgentMatrix>;
  /** Directories and files the views depend on besides the default view's. */
  watch: { dirs: string[]; files: string[] };
}

const FOLDER_NAMERS = new Set<ViewId>(['claude-code', 'vscode']);

export async function computeAgentViews(input: ViewsInput): Promise<AgentViews> {
  const base = await resolveAgentContext(input.home, input.cwd, input.env);
  const ctx: AgentContext = {
    ...base,
    claudePlugins: await claudePluginDirs(base, input.profile ?? defaultSettings().profile),
  };
  const links = await linkPolicyOf(input.symlinks, input.cwd, ctx.gitRoot, input.home);
  input.texts.begin();
  input.walks?.begin();
  const textsOnly = input.walks?.takeTextsOnly() ?? false;
  const [agentViews, profileViews, findings] = await Promise.all([
    Promise.all(AGENT_SPECS.map((spec) => runAgent(spec, ctx, input.texts, input.walks, links, textsOnly))),
    Promise.all(PROFILE_IDS.map(async (profile) => profileView(profile, await input.discoverProfile(profile)))),
    input.doctorFindings?.(),
  ]);
  if (findings !== undefined) await addDoctorFindings([...agentViews, ...profileViews], findings);
  const views = new Map<ViewId, AgentView>();
  for (const view of [...agentViews, ...profileViews]) views.set(view.agent.id, view);
  // The texts this computation read, as it read them: the matrix made later names rows from these, not from a file
  // read again by a later update.
  const reads = input.texts.reads();
  input.texts.end();
  let matrix: Promise<AgentMatrix> | undefined;
  const made = (): Promise<AgentMatrix> => {
    matrix ??= (async () => {
      const rowNames = new Map<MatrixRow, Set<string>>();
      const rows = await matrixRows(views, ctx, (path) => reads.get(path) ?? input.texts.read(path), rowNames);
      return { rows, rowNames };
    })();
    return matrix;
  };
  const dirs = new Set<string>();
  const files = new Set<string>();
  for (const view of agentViews) {
    for (const dir of view.watch.dirs) dirs.add(dir);
    for (const file of view.watch.files) files.add(file);
  }
  return { ctx, views, matrix: made, watch: { dirs: [...dirs], files: [...files] } };
}

async function matrixRows(
  views: Map<ViewId, AgentView>,
  ctx: AgentContext,
  read: (path: string) => Promise<TextRead>,
  rowNames: Map<MatrixRow, Set<string>>,
): Promise<MatrixRow[]> {
  const candidates = new Map<string, { lexicalPaths: string[]; folder: string }>();
  for (const view of views.values()) {
    for (const [realPath, found] of view.found) {
      const known = candidates.get(realPath);
      if (known === undefined) candidates.set(realPath, { lexicalPaths: [found.lexicalPath], folder: found.folder });
      else if (!known.lexicalPaths.includes(found.lexicalPath)) known.lexicalPaths.push(found.lexicalPath);
    }
  }
  const rows: MatrixRow[] = [];
  for (const [realPath, candidate] of candidates) {
    const name = (await frontmatterName(realPath, read)) ?? candidate.folder;
    const filePath = candidate.lexicalPaths[0] as string;
    const cells = {} as Record<ViewId, MatrixCell>;
    const names = new Set<string>([name]);
    for (const [id, view] of views) {
      const record = view.records.get(realPath);
      if (record === undefined) {
        cells[id] = { status: 'unseen', reason: await unseenReason(view, candidate.lexicalPaths, ctx) };
        continue;
      }
      if (record.name !== '') names.add(record.name);
      const cell: MatrixCell = { status: record.status, filePath: record.filePath };
      if (record.reason !== undefined) cell.reason = record.reason;
      else if (record.status === 'loaded' && record.name !== name) {
        cell.reason = FOLDER_NAMERS.has(id)
          ? `loaded as ${record.name}: ${view.agent.name} names skills by their folder`
          : `loaded as ${record.name}`;
      }
      cells[id] = cell;
    }
    const row = { name, filePath, views: cells };
    rowNames.set(row, names);
    rows.push(row);
  }
  return rows.sort(compareSkills);
}

/** A row's name: the frontmatter `name` when it is a non-blank string, else the folder. */
async function frontmatterName(
  realPath: string,
  readText: (path: string) => Promise<TextRead>,
): Promise<string | undefined> {
  const read = await readText(realPath);
  if (!read.ok) return undefined;
  const fenced = fencedBlock(read.text, { bom: true });
  if (fenced === null) return undefined;
  const yaml = readYamlMapping(fenced.block);
  const name = yaml.ok ? yaml.value.name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}
