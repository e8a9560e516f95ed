// The candidates × views matrix of `GET /agents` (docs/agents.md "Vocabulary"), and the rows one making of it keeps
// for the next (docs/agents.md "Live", "The matrix"): an edit changes one file's row, so a matrix made after it makes
// that row again and takes every other one as it was, cells, names and all.

import { forgetAtOrUnder } from '../forget-under.js';
import { sortBySkill } from '../pipeline/sort-skills.js';
import { nextSlice, sliceSpent } from '../time-slices.js';
import type { TextRead } from './file-texts.js';
import { fencedBlock, readYamlMapping } from './frontmatter-rules.js';
import type { AgentContext, AgentView, ViewId, ViewRecord, ViewStatus } from './types.js';
import { UnseenLookups, unseenReason } from './unseen-reason.js';

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
  rowNames: Pick<WeakMap<MatrixRow, Set<string>>, 'get'>;
  /** Per row, the name each view that reads its file gives it (Claude Code its folder's): `doctorAgents` (answers.ts). */
  viewNames: Pick<WeakMap<MatrixRow, Map<ViewId, string>>, 'get'>;
}

/** Each row's names, set once when it is made: a row is never changed, and a kept row keeps them. */
const ROW_NAMES = new WeakMap<MatrixRow, Set<string>>();
const VIEW_NAMES = new WeakMap<MatrixRow, Map<ViewId, string>>();

/** One row as made, with what it was made from. */
interface KeptRow {
  row: MatrixRow;
  lexicalPaths: readonly string[];
  folder: string;
  /** The text its name was read from: the very object while the file is unchanged (file-texts.ts). */
  text: TextRead;
  /** Each view's record of the file, in the order of the views' map (undefined: an unseen cell). */
  records: Array<ViewRecord | undefined>;
}

/**
 * The rows of the last matrix made, by real path, kept for the next: a row is taken again when its file's text is
 * the same object, it was found at the same paths, every view records the file alike, and each view that does not
 * see it would give the same reason (the same roots and context). A change reported at or above a row's real path
 * forgets it (a link put where a file was changes no text).
 */
export class MatrixRowMemo {
  /** The rows of the last making, by real path, and that making. */
  private kept: { rows: Map<string, KeptRow>; making: Making | undefined } = { rows: new Map(), making: undefined };

  /** Forgets the rows at or under `paths` (every row when `full`). */
  invalidate(full: boolean, paths: Iterable<string>): void {
    if (full) this.kept.rows.clear();
    else forgetAtOrUnder(this.kept.rows, paths, true);
  }

  /**
   * What `making` may take from the last making, read once: a making that runs beside it replaces what is kept, and
   * its rows were judged against other views.
   */
  begin(making: Making): Taking {
    const { rows, making: last } = this.kept;
    if (last === undefined || last.ids.length !== making.ids.length) {
      return new Taking(
        rows,
        undefined,
        making.ids.map(() => false),
      );
    }
    // A records map is written once, while its view is made: the same map, the same records.
    const unchanged = making.ids.map(
      (id, i) => last.ids[i] === id && last.records[i] === making.records[i] && last.unseen[i] === making.unseen[i],
    );
    if (making.found.every((found, i) => found === last.found[i])) making.candidates = last.candidates;
    return new Taking(rows, last, unchanged);
  }

  /** The rows of the matrix just made replace those kept. */
  replace(rows: Map<string, KeptRow>, making: Making): void {
    this.kept = { rows, making };
  }
}

/** What one making of the matrix takes from the last one. */
class Taking {
  constructor(
    private readonly rows: ReadonlyMap<string, KeptRow>,
    private readonly last: Making | undefined,
    /** Per view, whether none of its cells can differ from the last making's. */
    private readonly unchanged: readonly boolean[],
  ) {}

  /** The rows of the last making, in order, with each real path's place among them. */
  get order(): { rows: readonly MatrixRow[]; ranks: ReadonlyMap<string, number> } {
    return this.last?.order ?? { rows: [], ranks: new Map() };
  }

  /** The kept row of `realPath`, when it still holds for these views. */
  take(
    realPath: string,
    candidate: Candidate,
    text: TextRead,
    views: readonly AgentView[],
    making: Making,
  ): KeptRow | undefined {
    const kept = this.rows.get(realPath);
    if (kept === undefined || kept.text !== text || kept.folder !== candidate.folder) return undefined;
    if (!samePaths(kept.lexicalPaths, candidate.lexicalPaths)) return undefined;
    for (let i = 0; i < views.length; i++) {
      if (this.unchanged[i]) continue;
      const record = (views[i] as AgentView).records.get(realPath);
      const was = kept.records[i];
      if (record === undefined) {
        if (was !== undefined || this.last?.unseen[i] !== making.unseen[i]) return undefined;
      } else if (was === undefined || !sameRecord(record, was)) return undefined;
    }
    return kept;
  }
}

/** What one making of the matrix reads of each view, in the views' order. */
interface Making {
  ids: ViewId[];
  records: Array<AgentView['records']>;
  found: Array<AgentView['found']>;
  /** What each view's unseen reasons are made from (`unseenInputs`). */
  unseen: string[];
  candidates: Map<string, Candidate>;
  /** The rows it made, in order, and each real path's place among them (set once it is done). */
  order?: { rows: readonly MatrixRow[]; ranks: ReadonlyMap<string, number> };
}

interface Candidate {
  lexicalPaths: string[];
  folder: string;
}

const FOLDER_NAMERS = new Set<ViewId>(['claude-code', 'vscode']);

/** Matrix rows made side by side (see `makeMatrix`). */
const MATRIX_BATCH = 64;
/** Rows looked at between two looks at the slice's clock. */
const SLICE_CHECK = 64;

/**
 * The matrix of `views`: one row per file some view found, keyed by its real path, with each view's cell. Rows kept
 * in `memo` that still hold are taken as they are; the others are made, and `memo` then keeps this making's rows.
 */
export async function makeMatrix(
  views: ReadonlyMap<ViewId, AgentView>,
  ctx: AgentContext,
  read: (path: string) => TextRead | Promise<TextRead>,
  memo: MatrixRowMemo = new MatrixRowMemo(),
): Promise<AgentMatrix> {
  const ordered = [...views.values()];
  const lookups = new UnseenLookups();
  const context = contextInputs(ctx);
  const making: Making = {
    ids: ordered.map((view) => view.agent.id),
    records: ordered.map((view) => view.records),
    found: ordered.map((view) => view.found),
    unseen: ordered.map((view) => unseenInputs(view, lookups, context)),
    candidates: new Map(),
  };
  const taking = memo.begin(making);
  if (making.candidates.size === 0) making.candidates = candidatesOf(ordered);
  const made = new Map<string, KeptRow>();
  // A row goes in the place its file's row had in the last matrix when its name and path are the same (the order's
  // keys): when every row has such a place, the rows are in order as they are, and no sort is needed. The last
  // order is read once: a making running beside this one replaces it.
  const last = taking.order;
  const placed: Array<string | undefined> = [];
  let moved = false;
  const add = (realPath: string, kept: KeptRow) => {
    made.set(realPath, kept);
    const rank = last.ranks.get(realPath);
    const was = rank === undefined ? undefined : last.rows[rank];
    if (
      rank === undefined ||
      placed[rank] !== undefined ||
      was?.name !== kept.row.name ||
      was.filePath !== kept.row.filePath
    )
      moved = true;
    else placed[rank] = realPath;
  };
  // Rows to make are made a batch at a time: a cell's reason may look at the disk (is the file a link), and those
  // looks run side by side instead of one after the other.
  let batch: Array<Promise<void>> = [];
  let step = 0;
  for (const [realPath, candidate] of making.candidates) {
    if (++step % SLICE_CHECK === 0 && sliceSpent()) await nextSlice();
    const got = read(realPath);
    const text = got instanceof Promise ? await got : got;
    const kept = taking.take(realPath, candidate, text, ordered, making);
    if (kept !== undefined) {
      add(realPath, kept);
      continue;
    }
    batch.push(makeRow(realPath, candidate, text, ordered, ctx, lookups).then((row) => add(realPath, row)));
    if (batch.length === MATRIX_BATCH) {
      await Promise.all(batch);
      batch = [];
      await nextSlice();
    }
  }
  await Promise.all(batch);
  let rows: MatrixRow[];
  let ranks: Map<string, number>;
  if (moved) {
    rows = sortBySkill(
      [...made.values()].map((kept) => kept.row),
      (row) => row,
    );
    const rankOf = new Map(rows.map((row, rank) => [row, rank]));
    ranks = new Map([...made].map(([realPath, kept]) => [realPath, rankOf.get(kept.row) as number]));
  } else {
    rows = [];
    ranks = new Map();
    for (const realPath of placed) {
      if (realPath === undefined) continue;
      ranks.set(realPath, rows.length);
      rows.push((made.get(realPath) as KeptRow).row);
    }
  }
  making.order = { rows, ranks };
  memo.replace(made, making);
  return { rows, rowNames: ROW_NAMES, viewNames: VIEW_NAMES };
}

/** One candidate per real path some view found, with every path it was found at. */
function candidatesOf(views: readonly AgentView[]): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>();
  for (const view of views) {
    for (const [realPath, found] of view.found) {
      const known = candidates.get(realPath);
      if (known === undefined) candidates.set(realPath, { lexicalPaths: [found.lexicalPath], folder: found.folder });
      else if (!known.lexicalPaths.includes(found.lexicalPath)) known.lexicalPaths.push(found.lexicalPath);
    }
  }
  return candidates;
}

async function makeRow(
  realPath: string,
  candidate: Candidate,
  text: TextRead,
  views: readonly AgentView[],
  ctx: AgentContext,
  lookups: UnseenLookups,
): Promise<KeptRow> {
  const name = frontmatterName(text) ?? candidate.folder;
  const filePath = candidate.lexicalPaths[0] as string;
  const cells = {} as Record<ViewId, MatrixCell>;
  const names = new Set<string>([name]);
  const byView = new Map<ViewId, string>();
  const records: Array<ViewRecord | undefined> = [];
  for (const view of views) {
    const id = view.agent.id;
    const record = view.records.get(realPath);
    records.push(record);
    if (record === undefined) {
      cells[id] = { status: 'unseen', reason: await unseenReason(view, candidate.lexicalPaths, ctx, lookups) };
      continue;
    }
    if (record.name !== '') {
      names.add(record.name);
      byView.set(id, record.name);
    }
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
  ROW_NAMES.set(row, names);
  VIEW_NAMES.set(row, byView);
  return {
    row,
    lexicalPaths: [...candidate.lexicalPaths],
    folder: candidate.folder,
    text,
    records,
  };
}

/** A row's name: the frontmatter `name` when it is a non-blank string, else the folder. */
function frontmatterName(read: TextRead): string | undefined {
  if (!read.ok) return undefined;
  const fenced = fencedBlock(read.text, { bom: true });
  if (fenced === null) return undefined;
  const yaml = readYamlMapping(fenced.block);
  const name = yaml.ok ? yaml.value.name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}

/** What of the context an unseen reason reads (unseen-reason.ts): the workspace, HOME and the plugin installs. */
function contextInputs(ctx: AgentContext): string {
  return JSON.stringify([ctx.home, ctx.cwd, ctx.claudePlugins?.installs ?? []]);
}

/**
 * What a view's unseen reasons are made from besides the file's paths: its id, its roots as data (paths, layouts,
 * conditions), whether it stopped at a traversal limit, and the context. Equal inputs give equal reasons for the same
 * paths, except for a path that became a link, which its reported change forgets (`MatrixRowMemo.invalidate`).
 */
function unseenInputs(view: AgentView, lookups: UnseenLookups, context: string): string {
  return JSON.stringify([view.agent.id, view.roots, lookups.stoppedAtLimit(view), context]);
}

function samePaths(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((path, i) => path === b[i]);
}

function sameRecord(a: ViewRecord, b: ViewRecord): boolean {
  return a === b || (a.status === b.status && a.name === b.name && a.filePath === b.filePath && a.reason === b.reason);
}
