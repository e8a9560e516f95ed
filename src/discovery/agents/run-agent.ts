// The engine every agent shares (docs/agents.md "Vocabulary"): place the roots, walk them by the
// agent's layout, drop a file reached twice, read each file by the agent's rules, settle names by its precedence.

import { basename } from 'node:path';
import { DEFAULT_VIEW_WALK_LIMITS, type WalkLimits } from '../files/walk-budget.js';
import { MAX_YAML_BLOCK_CHARACTERS } from '../frontmatter/frontmatter.js';
import type { LinkPolicy } from '../link-trust.js';
import { mapWithLimit } from '../scan/map-with-limit.js';
import { nextSlice, sliceSpent } from '../time-slices.js';
import type { SkillWarning } from '../types.js';
import { realWorkspaceContext } from './agent-context.js';
import { type AgentRun, agentSkillOf, patchRun, readingOf, sameWalks, sidecarsOf } from './agent-run.js';
import { type AgentFileTexts, FILE_TOO_LARGE, readFileHead, type TextRead } from './file-texts.js';
import { sideLookups } from './side-file.js';
import type { AgentCollision, AgentContext, AgentSkill, AgentSpec, AgentView, Found, ViewRecord } from './types.js';
import type { RootWalkMemo } from './walk-memo.js';
import { walkRoot } from './walk-root.js';

/** SKILL.md files one agent asks for at once (most are read once for all agents: file-texts.ts). */
const READS_AT_ONCE = 64;

export async function runAgent(
  spec: AgentSpec,
  workspaceCtx: AgentContext,
  texts: AgentFileTexts,
  walks?: RootWalkMemo,
  links?: LinkPolicy,
  /** Only texts of known SKILL.md files changed since the last run: a view may be patched instead of folded. */
  textsOnly = false,
  /** The daemon's bounds on each root's walk (`server.viewWalkLimits`, docs/api.md "Limits on walks"). */
  limits: WalkLimits = DEFAULT_VIEW_WALK_LIMITS,
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
    watch: { dirs: [...(placed.dirs ?? [])], files: placed.files ?? [], walked: [] },
  };
  const bounds = { limits, agent: spec.info.name };
  const rootWalks = await Promise.all(
    placed.roots.map((root) => walks?.walk(root, links, bounds) ?? walkRoot(root, links, undefined, bounds)),
  );
  const look = sideLookups(walks);
  const prior = textsOnly ? walks?.runs.get(spec.info.id) : undefined;
  if (prior !== undefined && sameWalks(prior.walks, rootWalks)) {
    // The same walks: the same files as the last run, and only those whose text the watcher reported are read again
    // (the others are current, their read objects the last run's).
    const changed = [...texts.changedAtBegin()].flatMap((real) => prior.byReal.get(real) ?? []);
    const [changedReads, sidecars] = await Promise.all([
      Promise.all(changed.map((found) => texts.read(found.realPath))),
      sidecarsOf(spec, walks, changed, look),
    ]);
    const patched = await patchRun(prior, {
      spec,
      texts,
      changed: changed.map((found, i) => ({ found, text: changedReads[i] as TextRead })),
      sidecars,
    });
    if (patched !== undefined) {
      walks?.runs.set(spec.info.id, patched);
      return { ...patched.view, diagnostics: [...patched.ownDiagnostics] };
    }
  }
  // Every file is read (and every side file looked at) at once; the loop below then settles names in order.
  const readable = rootWalks.flatMap((walk) => walk.found.filter((found) => found.root.blocked === undefined));
  // A bounded number of reads at once: thousands started together complete in bursts whose continuations would keep
  // other requests waiting between two turns of the event loop (SECURITY.md "The views").
  const [reads, sidecars] = await Promise.all([
    mapWithLimit(readable, READS_AT_ONCE, (found) => texts.read(found.realPath)),
    sidecarsOf(spec, walks, readable, look),
  ]);
  const byReal = new Map<string, Found[]>();
  for (const found of readable) {
    const same = byReal.get(found.realPath);
    if (same === undefined) byReal.set(found.realPath, [found]);
    else same.push(found);
  }
  const run: AgentRun = {
    walks: rootWalks,
    texts: new Map(readable.map((found, i) => [found, reads[i] as TextRead])),
    byReal,
    inodes: new Map(),
    readings: new Map(),
    skillIndex: new Map(),
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
    // Watched within the views' watch budget (compute-views.ts).
    view.watch.walked?.push(...walk.innerCosts);
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
      if (sliceSpent()) await nextSlice();
      if (!view.found.has(found.realPath))
        view.found.set(found.realPath, {
          lexicalPath: found.lexicalPath,
          folder: basename(found.baseDir),
          frontmatterName: null,
        });
      if (root.blocked !== undefined) continue;
      const known = identityOf(spec.identity, found, texts);
      const identity = typeof known === 'string' ? known : await known;
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
      // Read above, with every file: no await for it (70,000 files over seven agents at 10,000 skills).
      let text = run.texts.get(found) ?? (await texts.read(found.realPath));
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

/** A string at once when no read is waited for: lexical and path identities, and inodes of reads already done. */
function identityOf(kind: AgentSpec['identity'], found: Found, texts: AgentFileTexts): string | Promise<string> {
  if (kind === 'lexical') return found.lexicalPath;
  if (kind === 'path') return found.filePath;
  // The inode of the read that gave the text: no second `stat` per file.
  return texts.inode(found.realPath).then((inode) => inode ?? found.realPath);
}
