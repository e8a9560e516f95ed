// The engine every agent shares (docs/agents.md "Vocabulary"): place the roots, walk them by the
// agent's layout, drop a file reached twice, read each file by the agent's rules, settle names by its precedence.

import { basename, relative } from 'node:path';
import { MAX_YAML_BLOCK_CHARACTERS } from '../frontmatter/frontmatter.js';
import type { LinkPolicy } from '../link-trust.js';
import { sameJson } from '../same-json.js';
import type { SkillWarning } from '../types.js';
import { realWorkspaceContext } from './agent-context.js';
import { type AgentFileTexts, FILE_TOO_LARGE, readFileHead, type TextRead } from './file-texts.js';
import { takeRefusedBlockSize } from './frontmatter-rules.js';
import { sideLookups } from './side-file.js';
import type {
  AgentCollision,
  AgentContext,
  AgentFinding,
  AgentSkill,
  AgentSpec,
  AgentView,
  Found,
  ReadOutcome,
  ViewRecord,
} from './types.js';
import type { RootWalkMemo } from './walk-memo.js';
import { type RootWalk, walkRoot } from './walk-root.js';

export async function runAgent(
  spec: AgentSpec,
  workspaceCtx: AgentContext,
  texts: AgentFileTexts,
  walks?: RootWalkMemo,
  links?: LinkPolicy,
  /** Only texts of known SKILL.md files changed since the last run: a view may be patched instead of folded. */
  textsOnly = false,
): Promise<AgentView> {
  // An agent that works in realpath(cwd) places its roots from there (`AgentSpec.realWorkspace`).
  const ctx = spec.realWorkspace === true ? await realWorkspaceContext(workspaceCtx) : workspaceCtx;
  const placed = await spec.roots(ctx);
  const view: AgentView = {
    agent: spec.info,
    skills: [],
    warnings: [...placed.warnings],
    collisions: [],
    diagnostics: [],
    records: new Map(),
    roots: placed.roots,
    rootOrder: [],
    found: new Map(),
    watch: { dirs: [...(placed.dirs ?? [])], files: placed.files ?? [] },
  };
  const rootWalks = await Promise.all(placed.roots.map((root) => walks?.walk(root, links) ?? walkRoot(root, links)));
  // Every file is read (and every side file looked at) at once; the loop below then settles names in order.
  const readable = rootWalks.flatMap((walk) => walk.found.filter((found) => found.root.blocked === undefined));
  const sidecar = spec.sidecar;
  const look = sideLookups();
  const [reads, sidecars] = await Promise.all([
    Promise.all(readable.map((found) => texts.read(found.realPath))),
    sidecar === undefined
      ? undefined
      : Promise.all(
          readable.map(
            async (found) =>
              [
                found,
                await (walks?.sidecar(spec.info.id, found, (f) => sidecar.call(spec, f, look)) ??
                  sidecar.call(spec, found, look)),
              ] as const,
          ),
        ).then((pairs) => new Map(pairs)),
  ]);
  const prior = textsOnly ? walks?.runs.get(spec.info.id) : undefined;
  if (prior !== undefined && sameWalks(prior.walks, rootWalks)) {
    const patched = await patchRun(prior, { spec, ctx, texts, readable, reads, sidecars });
    if (patched !== undefined) {
      walks?.runs.set(spec.info.id, patched);
      return { ...patched.view, diagnostics: [...patched.ownDiagnostics] };
    }
  }
  const run: AgentRun = {
    walks: rootWalks,
    texts: new Map(readable.map((found, i) => [found, reads[i] as TextRead])),
    inodes: new Map(),
    readings: new Map(),
    skillIndex: new Map(),
    afterLoadStart: 0,
    ownDiagnostics: [],
    view,
  };
  const loadedBy = new Map<AgentSkill, Found>();
  const byName = new Map<string, AgentSkill>();
  const seenIdentity = new Map<string, AgentSkill | null>();
  const shadowedOf = new Map<AgentSkill, AgentCollision['shadowed']>();
  const fileWarnings: SkillWarning[] = [];
  for (const [index, walk] of rootWalks.entries()) {
    const root = placed.roots[index];
    if (root === undefined) continue;
    if (walk.error !== undefined) {
      view.warnings.push({
        skillPath: root.path,
        message: `[skillsd] ${spec.info.name} cannot read ${root.path}: ${walk.error}`,
      });
    }
    view.watch.dirs.push(...walk.innerDirs);
    if (root.blocked === undefined) {
      // Read by the agent, not by skillsd (SECURITY.md "The views"): the view says so instead of serving the file.
      for (const { path, why } of walk.refused) {
        fileWarnings.push({
          skillPath: path,
          message: `[skillsd] ${spec.info.name} reads ${path}; skillsd does not: ${why}`,
        });
      }
    }
    if (walk.shown !== undefined && !view.rootOrder.includes(walk.shown)) view.rootOrder.push(walk.shown);
    for (const found of walk.found) {
      if (!view.found.has(found.realPath))
        view.found.set(found.realPath, {
          lexicalPath: found.lexicalPath,
          folder: basename(found.baseDir),
          frontmatterName: null,
        });
      if (root.blocked !== undefined) continue;
      const identity = await identityOf(spec.identity, found, texts);
      if (spec.identity === 'inode') run.inodes.set(found, identity);
      if (seenIdentity.has(identity)) {
        const first = seenIdentity.get(identity) ?? null;
        if (first !== null) {
          const source = { agent: spec.info.id, scope: root.scope, root: found.rootShown };
          shadowedOf.get(first)?.push({ filePath: found.filePath, source, reason: 'duplicate-file' });
          setRecord(view, found.realPath, {
            status: 'shadowed',
            name: first.name,
            filePath: found.filePath,
            reason: `shadowed by ${first.filePath} (the same file, loaded from there)`,
          });
        }
        continue;
      }
      let text = await texts.read(found.realPath);
      if (!text.ok && text.error === FILE_TOO_LARGE && spec.largeFileHead !== undefined) {
        // The agent reads a file of any size; its view needs only the frontmatter at the top (`largeFileHead`).
        text = await readFileHead(found.realPath, spec.largeFileHead);
      }
      if (!text.ok) {
        const message =
          spec.readError?.(text.error, found) ??
          `[skillsd] ${spec.info.name} cannot read ${found.filePath}: ${text.error}`;
        reject(view, fileWarnings, found, message, false);
        seenIdentity.set(identity, null);
        continue;
      }
      const reading = readingOf(spec, text, found);
      run.readings.set(found, reading);
      const { outcome, refusedBlock } = reading;
      if (refusedBlock > 0) {
        fileWarnings.push({
          skillPath: found.filePath,
          message:
            `[skillsd] ${spec.info.name} parses the frontmatter of ${found.filePath}; skillsd does not parse a block ` +
            `of more than ${MAX_YAML_BLOCK_CHARACTERS} characters (this one has ${refusedBlock}) and reads it as one ` +
            'that does not parse',
        });
      }
      if (!outcome.ok) {
        reject(view, fileWarnings, found, outcome.message, outcome.silent === true);
        seenIdentity.set(identity, null);
        continue;
      }
      // Kept from loading by the agent's settings: silent, the reason is the matrix's.
      const refusedName = placed.refuseName?.(outcome.name);
      if (refusedName !== undefined) {
        reject(view, fileWarnings, found, refusedName, true);
        seenIdentity.set(identity, null);
        continue;
      }
      const side = sidecars?.get(found);
      if (side?.invalid !== undefined) {
        reject(view, fileWarnings, found, side.invalid, false);
        seenIdentity.set(identity, null);
        continue;
      }
      // A namespace the side files give (Codex's plugins: `<plugin>:<name>`), which may make the name too long.
      const name = side?.namePrefix === undefined ? outcome.name : `${side.namePrefix}${outcome.name}`;
      const nameError = side?.namePrefix === undefined ? undefined : spec.qualifiedNameError?.(name);
      if (nameError !== undefined) {
        reject(view, fileWarnings, found, nameError, false);
        seenIdentity.set(identity, null);
        continue;
      }
      for (const message of outcome.warnings ?? []) fileWarnings.push({ skillPath: found.filePath, message });
      if (side?.warning !== undefined) fileWarnings.push({ skillPath: found.filePath, message: side.warning });
      const skill = agentSkillOf(spec, name, outcome, side, found, root.scope);
      seenIdentity.set(identity, skill);
      loadedBy.set(skill, found);
      shadowedOf.set(skill, []);
      const held = spec.precedence === 'all' ? undefined : byName.get(skill.name);
      if (held === undefined) {
        byName.set(skill.name, skill);
        view.skills.push(skill);
        continue;
      }
      const [winner, loser] = spec.precedence === 'first' ? [held, skill] : [skill, held];
      const winnerFound = loadedBy.get(winner) as Found;
      const loserFound = loadedBy.get(loser) as Found;
      fileWarnings.push(...(spec.onDuplicate?.(winner, loser, winnerFound, loserFound, ctx) ?? []));
      const carried = shadowedOf.get(loser) ?? [];
      const list = shadowedOf.get(winner) as AgentCollision['shadowed'];
      list.push({ filePath: loser.filePath, source: loser.source, reason: 'precedence' }, ...carried);
      shadowedOf.set(loser, []);
      setRecord(view, loserFound.realPath, {
        status: 'shadowed',
        name: loser.name,
        filePath: loser.filePath,
        reason: spec.shadowReason(winner, loser, ctx),
      });
      if (winner === skill) {
        // A later load replaces the earlier one in its place (the agent's catalog order keeps the first place).
        byName.set(skill.name, skill);
        view.skills[view.skills.indexOf(held)] = skill;
      }
    }
  }
  view.warnings.push(
    ...rootWalks.flatMap((walk) =>
      walk.limitWarning === undefined ? [] : [{ skillPath: '', message: walk.limitWarning }],
    ),
  );
  view.warnings.push(...fileWarnings);
  run.afterLoadStart = view.warnings.length;
  view.warnings.push(...(spec.afterLoad?.(view.skills, ctx) ?? []));
  for (const [index, skill] of view.skills.entries()) {
    const found = loadedBy.get(skill) as Found;
    run.skillIndex.set(found, index);
    view.records.set(found.realPath, { status: 'loaded', name: skill.name, filePath: skill.filePath });
    const shadowed = shadowedOf.get(skill) ?? [];
    if (shadowed.length > 0) {
      view.collisions.push({ name: skill.name, winner: { filePath: skill.filePath, source: skill.source }, shadowed });
    }
  }
  for (const dir of placed.roots) view.watch.dirs.push(dir.path);
  run.ownDiagnostics = [...view.diagnostics];
  walks?.runs.set(spec.info.id, run);
  return { ...view, diagnostics: [...view.diagnostics] };
}

/** A loaded skill as the view lists it: what the agent read, named with the side files' prefix. */
function agentSkillOf(
  spec: AgentSpec,
  name: string,
  outcome: ReadOutcome & { ok: true },
  side: SideResult | undefined,
  found: Found,
  scope: AgentSkill['source']['scope'],
): AgentSkill {
  return {
    name,
    description: outcome.description,
    filePath: found.filePath,
    baseDir: found.baseDir,
    hide: outcome.hide || side?.hide === true,
    source: { agent: spec.info.id, scope, root: found.rootShown },
    ...(outcome.extra === undefined ? {} : { extra: outcome.extra }),
    ...(outcome.cutAtLoad === true ? { cutAtLoad: true } : {}),
    ...(outcome.displayName === undefined ? {} : { displayName: outcome.displayName }),
    ...(outcome.kind === undefined ? {} : { kind: outcome.kind }),
    ...(spec.keepsWalkedPath === true ? { walkedPath: relative(found.root.path, found.lexicalPath) } : {}),
  };
}

type SideResult = Awaited<ReturnType<NonNullable<AgentSpec['sidecar']>>>;

/**
 * What one run of an agent folded, kept to patch the next run when only texts changed (docs/agents.md "Live"): the
 * walks (the very objects: a walk kept by the memo is the same), the text each file had, its reading, its inode
 * (agents that know a file by inode), where each loaded file sits in the skills, and where the `afterLoad` warnings
 * start.
 */
export interface AgentRun {
  walks: readonly RootWalk[];
  texts: Map<Found, TextRead>;
  inodes: Map<Found, string>;
  readings: Map<Found, Reading>;
  skillIndex: Map<Found, number>;
  afterLoadStart: number;
  /** The view's own findings (`agent-rejected`), before the doctor's are added. */
  ownDiagnostics: AgentFinding[];
  view: AgentView;
}

function sameWalks(a: readonly RootWalk[], b: readonly RootWalk[]): boolean {
  return a.length === b.length && a.every((walk, i) => walk === b[i]);
}

/**
 * The previous run with the files whose text changed read again, when every such file reads as it did in all that
 * decides the fold (loaded or not, under which name, with which warnings, by the same inode): only the loaded ones'
 * records are replaced, in place, and the `afterLoad` warnings made again. Undefined when the fold must run again.
 */
async function patchRun(
  prior: AgentRun,
  input: {
    spec: AgentSpec;
    ctx: AgentContext;
    texts: AgentFileTexts;
    readable: readonly Found[];
    reads: readonly TextRead[];
    sidecars: Map<Found, SideResult> | undefined;
  },
): Promise<AgentRun | undefined> {
  const { spec, texts } = input;
  const changed: Array<{ found: Found; text: TextRead }> = [];
  for (const [i, found] of input.readable.entries()) {
    const text = input.reads[i] as TextRead;
    const before = prior.texts.get(found);
    if (before === undefined) return undefined;
    if (before !== text) changed.push({ found, text });
  }
  if (changed.length === 0) return prior;
  const skills = [...prior.view.skills];
  // A skill in a collision is left to the fold: an agent may keep state about the very record (OpenCode's candidates).
  const colliding = new Set(prior.view.collisions.map((collision) => collision.name));
  const readings = new Map(prior.readings);
  const textsNow = new Map(prior.texts);
  for (const { found, text } of changed) {
    const was = prior.readings.get(found);
    // A file reached twice, or one that could not be read: the fold decides again.
    if (was === undefined || !text.ok) return undefined;
    if (spec.identity === 'inode' && (await texts.inode(found.realPath)) !== prior.inodes.get(found)) return undefined;
    const now = readingOf(spec, text, found);
    if (!sameFold(was, now)) return undefined;
    readings.set(found, now);
    textsNow.set(found, text);
    const index = prior.skillIndex.get(found);
    if (index === undefined || !now.outcome.ok) continue;
    const side = input.sidecars?.get(found);
    const old = prior.view.skills[index] as AgentSkill;
    if (colliding.has(old.name)) return undefined;
    skills[index] = agentSkillOf(spec, old.name, now.outcome, side, found, old.source.scope);
  }
  const warnings = [
    ...prior.view.warnings.slice(0, prior.afterLoadStart),
    ...(spec.afterLoad?.(skills, input.ctx) ?? []),
  ];
  return { ...prior, texts: textsNow, readings, view: { ...prior.view, skills, warnings } };
}

/** Two readings of a file that the fold treats alike: only the loaded record's other fields may differ. */
function sameFold(a: Reading, b: Reading): boolean {
  if (a.refusedBlock !== b.refusedBlock) return false;
  if (!a.outcome.ok || !b.outcome.ok) {
    return (
      !a.outcome.ok &&
      !b.outcome.ok &&
      a.outcome.message === b.outcome.message &&
      (a.outcome.silent === true) === (b.outcome.silent === true)
    );
  }
  return a.outcome.name === b.outcome.name && sameJson(a.outcome.warnings ?? [], b.outcome.warnings ?? []);
}

function reject(view: AgentView, warnings: SkillWarning[], found: Found, message: string, silent: boolean): void {
  if (!silent) warnings.push({ skillPath: found.filePath, message });
  view.diagnostics.push({ rule: 'agent-rejected', severity: 'warning', path: found.filePath, message });
  setRecord(view, found.realPath, { status: 'invalid', name: '', filePath: found.filePath, reason: message });
}

/** Keeps the best status one file has in a view: loaded over shadowed over invalid. */
function setRecord(view: AgentView, realPath: string, record: ViewRecord): void {
  const known = view.records.get(realPath);
  if (known === undefined || rank(record) < rank(known)) view.records.set(realPath, record);
}

function rank(record: ViewRecord): number {
  return record.status === 'loaded' ? 0 : record.status === 'shadowed' ? 1 : 2;
}

async function identityOf(kind: AgentSpec['identity'], found: Found, texts: AgentFileTexts): Promise<string> {
  if (kind === 'lexical') return found.lexicalPath;
  if (kind === 'path') return found.filePath;
  // The inode of the read that gave the text: no second `stat` per file.
  return (await texts.inode(found.realPath)) ?? found.realPath;
}

interface Reading {
  outcome: ReadOutcome;
  /** The size of a frontmatter block skillsd refused to parse (0: none). */
  refusedBlock: number;
}

/**
 * The agents' readings of each file, by where it was found (a kept walk keeps its `Found` objects) and by agent: a
 * reader is a pure function of the text and the place (`AgentSpec.read`), and an unchanged file keeps its read object
 * (file-texts.ts), so an update reads again only the files that changed (docs/agents.md "Live").
 */
const readings = new WeakMap<Found, Map<string, { text: TextRead; reading: Reading }>>();

function readingOf(spec: AgentSpec, text: TextRead & { ok: true }, found: Found): Reading {
  let byAgent = readings.get(found);
  if (byAgent === undefined) {
    byAgent = new Map();
    readings.set(found, byAgent);
  }
  const known = byAgent.get(spec.info.id);
  if (known !== undefined && known.text === text) return known.reading;
  // The agent's reader is synchronous: the block size refused during it is this file's.
  takeRefusedBlockSize();
  const outcome = spec.read(text.text, found);
  const reading = { outcome, refusedBlock: takeRefusedBlockSize() };
  byAgent.set(spec.info.id, { text, reading });
  return reading;
}
