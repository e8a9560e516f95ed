// The doctor of one workspace (docs/api.md §GET /doctor): every skills directory discovery looks at (providers in order,
// custom directories, managed skills last, as the pipeline of docs/discovery.md §5 takes them), what each holds that is not a
// skill and why, every candidate with what happened to it, and advice. It scans with the discovery's own scanner;
// the winners and losers are the discovery result's, passed in. Nothing here changes what loads.

import { basename, dirname, join, relative } from 'node:path';
import { lstat } from '../files/sliced-fs.js';
import { type ProviderDir, planProviders } from '../pipeline/providers.js';
import { CUSTOM_DISPLAY_NAME, CUSTOM_PROVIDER } from '../pipeline/run-provider.js';
import { scanAgentPluginDir } from '../plugins/agent-plugins.js';
import { planPluginProviders } from '../plugins/plan-plugin-providers.js';
import type { ScanOptions, ScanResult } from '../scan/scan-options.js';
import { scanSelfSkill, scanSkillsDir } from '../scan/scan-skills-dir.js';
import type { SkillFileCache } from '../scan/skill-file-cache.js';
import type { Collision, DiscoveryContext, Level, Skill, SkillDiagnostic } from '../types.js';
import { expandCustomDirectory, resolveWorkspaceContext } from '../workspace-context.js';
import type { DoctorMemo } from './doctor-memo.js';
import { explainOutcome, type PipelineView, pipelineView } from './explain-outcome.js';
import { notInvocableFinding } from './invocable-name.js';
import { type DirectoryLook, lookAtSkillsDirectory } from './near-misses.js';
import { type SkillFileInput, skillFileFindings } from './skill-file-findings.js';
import type {
  CandidateReport,
  DoctorDirectory,
  Finding,
  SharedReads,
  SkillDoctorReport,
  WorkspaceDiagnosis,
} from './types.js';

export interface DiagnoseInput {
  ctx: DiscoveryContext;
  /**
   * The discovery's answer for this context: what loaded and who lost to whom. Its skills in the answer's order (by
   * name, docs/discovery.md §1): a candidate's winner is looked up by binary search.
   */
  skills: readonly Skill[];
  collisions: readonly Collision[];
  cache?: SkillFileCache;
  /** What earlier looks found, kept until a change is reported for it (a live workspace's views). */
  memo?: DoctorMemo;
  /** The views' listings and texts (a live workspace's views): read once for the views and the doctor. */
  shared?: SharedReads;
}

interface ScannedDir extends Pick<ProviderDir, 'plugin' | 'namePrefix' | 'includeSelf' | 'agentPlugin'> {
  /** Where the directory is on disk. */
  path: string;
  /** As records show it, when that differs (a relative custom directory keeps its written form). */
  shownDir?: string;
  provider: string;
  providerName: string;
  level: Level;
  requireDescription: boolean;
  managed: boolean;
}

export async function diagnoseWorkspace(input: DiagnoseInput): Promise<WorkspaceDiagnosis> {
  const { ctx } = input;
  if (ctx.settings.skills.enabled === false) {
    const finding: Finding = {
      rule: 'skills-disabled',
      severity: 'info',
      path: ctx.cwd,
      message: 'skills.enabled is false: no directory is read and no skill loads',
    };
    return { directories: [], findings: [finding], candidates: [] };
  }
  const ws = await resolveWorkspaceContext(ctx);
  const dirs: ScannedDir[] = [];
  const managedDirs: ScannedDir[] = [];
  // The plugin providers' directories come from their registries, exactly as discovery places them (§4a).
  for (const plan of planProviders(ws, await planPluginProviders(ws))) {
    for (const dir of plan.dirs) {
      // A rejected Agent Plugins root is placed only to report its rejection with discovery's warnings; nothing in
      // it is read.
      if (dir.agentPlugin?.rejection !== undefined) continue;
      const scanned: ScannedDir = {
        path: dir.path,
        ...(dir.plugin === undefined ? {} : { plugin: dir.plugin }),
        ...(dir.namePrefix === undefined ? {} : { namePrefix: dir.namePrefix }),
        ...(dir.includeSelf === undefined ? {} : { includeSelf: dir.includeSelf }),
        ...(dir.agentPlugin === undefined ? {} : { agentPlugin: dir.agentPlugin }),
        provider: plan.id,
        providerName: plan.displayName,
        level: dir.level,
        requireDescription: plan.requireDescription,
        managed: plan.managed,
      };
      (plan.managed ? managedDirs : dirs).push(scanned);
    }
  }
  for (const entry of ctx.settings.skills.customDirectories) {
    // Looked at where it is on disk (a relative entry is read under CWD); named as its records name it.
    const custom = expandCustomDirectory(entry, ws.home, ws.cwd);
    if (custom === undefined) continue;
    dirs.push({
      path: custom.path,
      ...(custom.shown === custom.path ? {} : { shownDir: custom.shown }),
      provider: CUSTOM_PROVIDER,
      providerName: CUSTOM_DISPLAY_NAME,
      level: 'user',
      requireDescription: true,
      managed: false,
    });
  }
  dirs.push(...managedDirs);

  // Made only when some directory's candidates are explained again (a live workspace keeps the others' reports).
  let made: PipelineView | undefined;
  const view = () => {
    made ??= pipelineView(ctx.settings, input.skills, input.collisions);
    return made;
  };
  const pipeline = input.memo?.pipelineToken(ctx.settings, input.skills, input.collisions) ?? {};
  const looked = await Promise.all(dirs.map((dir) => diagnoseDirectory(dir, input, view, pipeline)));
  const directories: DoctorDirectory[] = [];
  const findings: Finding[] = [];
  const candidates: CandidateReport[] = [];
  const seen = new Set<string>();
  looked.forEach((result, index) => {
    const dir = dirs[index]!;
    directories.push({ path: dir.path, provider: dir.provider, level: dir.level, ...result.directory });
    // A directory scanned by two providers (xcsh's HOME) is reported under each, its file findings once.
    for (const finding of result.findings) {
      const key = `${finding.rule}\0${finding.path}\0${finding.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(finding);
    }
    candidates.push(...result.candidates);
  });
  // Scans of directories no longer looked at are dropped.
  input.memo?.scans.prune();
  return { directories, findings, candidates };
}

/** The report of one name: its candidates, and the near misses whose folder has that name. */
export function diagnoseName(
  name: string,
  diagnosis: WorkspaceDiagnosis,
  winner: Skill | undefined,
): SkillDoctorReport {
  const candidates = diagnosis.candidates.filter((candidate) => candidate.name === name);
  const claimed = new Set(candidates.flatMap((candidate) => candidate.findings.map((finding) => finding.path)));
  const findings = diagnosis.findings.filter(
    (finding) => !claimed.has(finding.path) && folderOf(finding) === name && finding.severity !== 'info',
  );
  return { name, winner: winner ?? null, candidates, findings };
}

/** The skill folder a finding is about: `<dir>/<folder>` or `<dir>/<folder>/<file>`. */
function folderOf(finding: Finding): string {
  const last = basename(finding.path);
  if (finding.rule === 'skill-md-too-deep') return basename(dirname(finding.path));
  return last.toLowerCase() === 'skill.md' ? basename(dirname(finding.path)) : last;
}

interface DirectoryReport {
  directory: Omit<DoctorDirectory, 'path' | 'provider' | 'level'>;
  findings: Finding[];
  candidates: CandidateReport[];
}

async function diagnoseDirectory(
  dir: ScannedDir,
  input: DiagnoseInput,
  view: () => PipelineView,
  pipeline: object,
): Promise<DirectoryReport> {
  const look = await lookedAt(dir.path, input.memo, input.shared);
  const diagnostics: SkillDiagnostic[] = [];
  const profile = input.ctx.settings.profile;
  const commands = input.ctx.settings.skills.enableSkillCommands !== false;
  const scan = await scanDirectory(
    dir,
    {
      requireDescription: dir.requireDescription,
      profile,
      provider: dir.provider,
      providerName: dir.providerName,
      level: dir.level,
      diagnostics,
      ...(dir.shownDir === undefined ? {} : { shownDir: dir.shownDir }),
      ...(dir.plugin === undefined ? {} : { plugin: dir.plugin }),
      ...(dir.namePrefix === undefined ? {} : { namePrefix: dir.namePrefix }),
      ...(input.cache === undefined ? {} : { cache: input.cache }),
      // Read while the daemon serves: the synchronous reads a slice at a time (files/sliced-fs.ts).
      sliced: true,
    },
    input.memo,
  );
  // Nothing under the directory changed, nor any candidate's fate: the report is the last one (doctor-memo.ts).
  const inputs = { key: JSON.stringify(dir), look, skills: scan.skills, pipeline };
  const kept = input.memo?.directoryReport<DirectoryReport>(dir.path, inputs);
  if (kept !== undefined) return kept;
  // A plugin root that is a skill itself: its own SKILL.md is a candidate too.
  const skillFiles = !scan.self ? look.skillFiles : [join(dir.path, 'SKILL.md'), ...look.skillFiles];
  const findings = [...look.findings];
  const candidates: CandidateReport[] = [];
  const byFile = new Map(scan.skills.map((skill) => [skill.filePath, skill]));
  // The scan's notes by file, grouped once: thousands of files with a note each are not filtered per file.
  const notesByFile = new Map<string, string[]>();
  for (const note of diagnostics) {
    const notes = notesByFile.get(note.skillPath);
    if (notes === undefined) notesByFile.set(note.skillPath, [note.message]);
    else notes.push(note.message);
  }
  for (const diskPath of skillFiles) {
    // Records name the file as the directory is written (shownDir); findings name it the same way.
    const filePath = dir.shownDir === undefined ? diskPath : join(dir.shownDir, relative(dir.path, diskPath));
    const skill = byFile.get(filePath);
    const entries = look.folderEntries.get(diskPath);
    const fileInput: SkillFileInput = {
      filePath,
      skill,
      diagnostics: notesByFile.get(filePath) ?? [],
      requireDescription: dir.requireDescription,
      providerName: dir.providerName,
      profile,
      ...(entries === undefined ? {} : { folder: { path: dirname(diskPath), entries } }),
      ...(look.realFiles.has(diskPath) ? { realPath: diskPath } : {}),
    };
    const fileFindings = await memoisedFileFindings(fileInput, input.memo, input.shared);
    findings.push(...fileFindings);
    if (skill === undefined) {
      const cause = fileFindings.find((finding) => finding.severity === 'error') ??
        fileFindings.find((finding) => finding.rule === 'enabled-false') ?? {
          message: 'the file does not make a skill (it vanished or changed while being read)',
        };
      candidates.push({
        name: `${dir.namePrefix ?? ''}${basename(dirname(filePath))}`,
        filePath,
        source: {
          id: `${dir.provider}:${dir.level}`,
          provider: dir.provider,
          providerName: dir.providerName,
          level: dir.level,
          path: filePath,
          ...(dir.plugin === undefined ? {} : { plugin: dir.plugin }),
        },
        outcome: 'skipped',
        reason: scan.skipReasons.get(basename(dirname(diskPath))) ?? cause.message,
        findings: fileFindings,
      });
      continue;
    }
    const outcome = explainOutcome(skill, view(), dir.managed);
    const more: Finding[] = [];
    if (outcome.finding !== undefined) more.push(outcome.finding);
    // Only what loaded is offered to `/skill:` and MCP prompts, and only while skill commands are on.
    const notInvocable = outcome.outcome === 'loaded' && commands ? notInvocableFinding(skill, profile) : undefined;
    if (notInvocable !== undefined) more.push(notInvocable);
    findings.push(...more);
    candidates.push({
      name: skill.name,
      filePath,
      source: skill.source,
      outcome: outcome.outcome,
      reason: outcome.reason,
      findings: more.length === 0 ? fileFindings : [...fileFindings, ...more],
    });
  }
  const report = {
    directory: { exists: look.exists, readable: look.readable, skills: scan.skills.length },
    findings,
    candidates,
  };
  input.memo?.keepDirectoryReport(dir.path, inputs, report);
  return report;
}

/** `skillFileFindings`, from the memo when the file and what the scan made of it are unchanged. */
async function memoisedFileFindings(
  input: SkillFileInput,
  memo: DoctorMemo | undefined,
  shared: SharedReads | undefined,
): Promise<Finding[]> {
  if (memo === undefined) return skillFileFindings(input, shared);
  const known = memo.fileFindings(input);
  if (known !== undefined) return [...known];
  const findings = await skillFileFindings(input, shared);
  memo.keepFileFindings(input, findings);
  return [...findings];
}

/** `lookAtSkillsDirectory`, from the memo while nothing was reported in the directory. */
async function lookedAt(
  dir: string,
  memo: DoctorMemo | undefined,
  shared: SharedReads | undefined,
): Promise<DirectoryLook> {
  const known = memo?.look(dir);
  if (known !== undefined) return known;
  const look = await lookAtSkillsDirectory(dir, shared);
  memo?.keepLook(dir, look);
  return look;
}

/**
 * The directory scanned as discovery scans it (run-provider.ts): an Agent Plugins root strictly, a plugin root that
 * is a skill itself with its own SKILL.md first. For Agent Plugins, why a folder was skipped comes from the scan's
 * warnings, by folder name.
 */
async function scanDirectory(
  dir: ScannedDir,
  options: ScanOptions,
  memo: DoctorMemo | undefined,
): Promise<ScanResult & { self: boolean; skipReasons: Map<string, string> }> {
  const skipReasons = new Map<string, string>();
  if (dir.agentPlugin !== undefined) {
    const found = await scanAgentPluginDir({ path: dir.path, level: dir.level, ...dir.agentPlugin });
    for (const warning of found.warnings) {
      const skipped = /Skipping skill "([^"]*)": (.*)$/s.exec(warning);
      if (skipped !== null) skipReasons.set(skipped[1]!, skipped[2]!);
    }
    return { ...found, self: false, skipReasons };
  }
  const listed = await (memo?.scans.scan(dir.path, options) ?? scanSkillsDir(dir.path, options));
  if (dir.includeSelf !== true) return { ...listed, self: false, skipReasons };
  const hasOwn = await lstat(join(dir.path, 'SKILL.md')).then(
    () => true,
    () => false,
  );
  if (!hasOwn) return { ...listed, self: false, skipReasons };
  const { diagnostics: _, ...selfOptions } = options;
  const own = await scanSelfSkill(dir.path, selfOptions);
  return { ...listed, skills: own === undefined ? listed.skills : [own, ...listed.skills], self: true, skipReasons };
}
