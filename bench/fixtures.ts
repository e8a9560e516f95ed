// A deterministic skills tree for the benchmarks: a HOME and a git workspace holding N skills spread over every
// provider's directories (docs/discovery.md §4), with realistic SKILL.md sizes and frontmatter, a few `references/` files,
// name collisions across providers (~2 %) and symlinked skill directories (~1 %). The same seed gives the same bytes.

import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRng, type Rng, seedFor } from './lib/rng.js';

export interface FixtureOptions {
  /** Directory that receives `home/` and `workspace/` (created when missing). */
  root: string;
  /** Number of skill directories (SKILL.md files), collisions and symlinks included. */
  skills: number;
  seed: number;
  /**
   * `spread` (default): the shares of SKILL_DIRS, quoted or plain descriptions without `": "`, 1 % symlinks.
   * `real`: shaped like installed skill sets: one directory (`~/.claude/skills`) holds N/6 siblings, half of the
   * descriptions hold an unquoted `": "` (`description: Use when: the user asks…`, some with backticks), 5 %
   * symlinked skill directories.
   * `agents`: the skills of `spread` over SKILL_DIRS and AGENT_DIRS, every root some agent of docs/agents.md reads;
   * the workspace is a repository (`.git/HEAD`) and trusted by Gemini CLI (`~/.gemini/settings.json`).
   */
  shape?: FixtureShape;
}

export type FixtureShape = 'spread' | 'real' | 'agents';

export interface FixtureReference {
  /** The loaded skill that holds the file. */
  name: string;
  /** Path relative to the skill directory, `references/<file>.md`. */
  file: string;
}

export interface Fixture {
  home: string;
  workspace: string;
  /** Every name a discovery with default settings loads, in docs/discovery.md §1 order. */
  names: string[];
  /** SKILL.md paths of loaded skills whose name is unique and whose directory is not a symlink: an edit of one
   * changes exactly that skill in the index. */
  editable: string[];
  /** A few reference files of editable skills (for `GET /skill/{name}/{file}`). */
  references: FixtureReference[];
  /** Skill directories per skills directory, in the order of `SKILL_DIRS` (`agents` shape: then `AGENT_DIRS`). */
  layout: Array<{ dir: string; count: number }>;
  /** Skill directories that reuse the name of a skill in another provider's directory. */
  collisions: number;
  /** Skill directories that are symlinks to a directory under `home/skill-library`. */
  symlinks: number;
}

/** Where the skills go: the base (`home` or `workspace`), the directory under it, and a share of N in percent. */
export const SKILL_DIRS: ReadonlyArray<{ base: 'home' | 'workspace'; dir: string; weight: number }> = [
  { base: 'workspace', dir: '.musepi/skills', weight: 14 },
  { base: 'home', dir: '.musepi/agent/skills', weight: 12 },
  { base: 'home', dir: '.claude/skills', weight: 16 },
  { base: 'workspace', dir: '.claude/skills', weight: 12 },
  { base: 'workspace', dir: '.agents/skills', weight: 8 },
  { base: 'home', dir: '.agents/skills', weight: 8 },
  { base: 'home', dir: '.codex/skills', weight: 7 },
  { base: 'workspace', dir: '.codex/skills', weight: 6 },
  { base: 'workspace', dir: '.opencode/skills', weight: 5 },
  { base: 'home', dir: '.config/opencode/skills', weight: 4 },
  { base: 'workspace', dir: '.github/skills', weight: 8 },
];

/**
 * The roots other agents read and skillsd's own discovery does not (docs/agents.md "The agents"), after SKILL_DIRS in
 * the `agents` shape: Gemini CLI's, Copilot CLI's (and VS Code's) user root, Goose's. Their skills are in no
 * `GET /skills` answer, only in the views.
 */
export const AGENT_DIRS: ReadonlyArray<{ base: 'home' | 'workspace'; dir: string; weight: number }> = [
  { base: 'workspace', dir: '.gemini/skills', weight: 4 },
  { base: 'home', dir: '.gemini/skills', weight: 4 },
  { base: 'home', dir: '.copilot/skills', weight: 4 },
  { base: 'workspace', dir: '.goose/skills', weight: 3 },
  { base: 'home', dir: '.config/goose/skills', weight: 3 },
  { base: 'home', dir: '.config/agents/skills', weight: 2 },
];

/** Gemini CLI reads the workspace's roots only in a trusted folder; folder trust switched off trusts every folder. */
const GEMINI_SETTINGS = `${JSON.stringify({ security: { folderTrust: { enabled: false } } }, null, 2)}\n`;

/** The `real` shape's weights, in the order of SKILL_DIRS: `~/.claude/skills` gets 100 of 600, N/6. */
const REAL_WEIGHTS: readonly number[] = [84, 72, 100, 72, 48, 48, 42, 36, 30, 24, 44];
/** The directory that holds N/6 siblings in the `real` shape (index in SKILL_DIRS). */
export const CROWDED_DIR_INDEX = 2;
const COLLISION_SHARE = 0.02;
const SYMLINK_SHARE = 0.01;
const REAL_SYMLINK_SHARE = 0.05;
/** Share of `real` descriptions written `Use when: …` unquoted (not valid YAML: rule 4's quoting pass reads them). */
const REAL_COLON_SHARE = 0.5;
const REFERENCE_SHARE = 0.2;
const MIN_SKILL_BYTES = 1024;
const MAX_SKILL_BYTES = 20 * 1024;
const WRITE_CONCURRENCY = 32;
const LIBRARY_DIR = 'skill-library';

interface Slot {
  dirIndex: number;
  name: string;
  /** Index of the slot whose name this one reuses, or -1. */
  copyOf: number;
  symlinked: boolean;
}

/** Builds the tree under `root`; returns where things are. */
export async function generateFixture(options: FixtureOptions): Promise<Fixture> {
  const { root, skills: total, seed } = options;
  const real = options.shape === 'real';
  const agents = options.shape === 'agents';
  if (!Number.isInteger(total) || total < 0) throw new Error(`skills must be a non-negative integer, got ${total}`);
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  const dirs = agents ? [...SKILL_DIRS, ...AGENT_DIRS] : SKILL_DIRS;
  const dirPaths = dirs.map((d) => join(d.base === 'home' ? home : workspace, d.dir));
  await mkdir(join(workspace, '.git'), { recursive: true });
  await mkdir(join(home, LIBRARY_DIR), { recursive: true });
  await Promise.all(dirPaths.map((d) => mkdir(d, { recursive: true })));
  if (agents) {
    // A `.git` without HEAD is no repository to Codex and Copilot CLI, whose walks would then leave the fixture.
    await writeFile(join(workspace, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await mkdir(join(home, '.gemini'), { recursive: true });
    await writeFile(join(home, '.gemini', 'settings.json'), GEMINI_SETTINGS);
  }

  const counts = splitByWeight(total, real ? REAL_WEIGHTS : agents ? dirs.map((d) => d.weight) : undefined);
  const slots = planSlots(counts, seed, real ? REAL_SYMLINK_SHARE : SYMLINK_SHARE);
  const collided = new Set<string>();
  for (const slot of slots) if (slot.copyOf >= 0) collided.add(slot.name);
  /** Only SKILL_DIRS are read by skillsd's own discovery; AGENT_DIRS come after them. */
  const loaded = (slot: Slot): boolean => slot.dirIndex < SKILL_DIRS.length;

  const references: FixtureReference[] = [];
  const editable: string[] = [];
  const perDir = new Array<number>(dirs.length).fill(0);
  const jobs: Array<() => Promise<void>> = [];
  slots.forEach((slot, index) => {
    perDir[slot.dirIndex] = (perDir[slot.dirIndex] ?? 0) + 1;
    const rng = createRng(seedFor(seed, index));
    const entryPath = join(dirPaths[slot.dirIndex]!, slot.name);
    const realDir = slot.symlinked ? join(home, LIBRARY_DIR, slot.name) : entryPath;
    const files = skillFiles(rng, slot.name, real);
    if (!slot.symlinked && !collided.has(slot.name) && loaded(slot)) {
      editable.push(join(entryPath, 'SKILL.md'));
      const firstReference = Object.keys(files).find((f) => f.startsWith('references/'));
      if (firstReference !== undefined && references.length < 16)
        references.push({ name: slot.name, file: firstReference });
    }
    jobs.push(async () => {
      await writeSkillDir(realDir, files);
      if (slot.symlinked) await symlink(realDir, entryPath, 'dir');
    });
  });
  await runLimited(jobs, WRITE_CONCURRENCY);

  const names = [...new Set(slots.filter(loaded).map((s) => s.name))].sort(compareNames);
  return {
    home,
    workspace,
    names,
    editable,
    references,
    layout: dirs.map((d, i) => ({ dir: join(d.base === 'home' ? '~' : '.', d.dir), count: perDir[i] ?? 0 })),
    collisions: slots.filter((s) => s.copyOf >= 0).length,
    symlinks: slots.filter((s) => s.symlinked).length,
  };
}

/** N split by the weights; the remainder goes to the largest fractional parts, ties to the earlier directory. */
export function splitByWeight(total: number, weights: readonly number[] = SKILL_DIRS.map((d) => d.weight)): number[] {
  const weightSum = weights.reduce((sum, w) => sum + w, 0);
  const exact = weights.map((w) => (total * w) / weightSum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ frac: x - Math.floor(x), i })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
    left--;
  }
  return counts;
}

/**
 * One slot per skill directory. Slots are shuffled; the first `c` of the shuffled order (after the originals they
 * copy exist) become copies of a name from another directory, the next `s` become symlinks.
 */
function planSlots(counts: number[], seed: number, symlinkShare: number): Slot[] {
  const rng = createRng(seedFor(seed, -1));
  const dirOfSlot: number[] = [];
  counts.forEach((count, dirIndex) => {
    for (let i = 0; i < count; i++) dirOfSlot.push(dirIndex);
  });
  shuffle(dirOfSlot, rng);
  const total = dirOfSlot.length;
  const collisionCount = Math.round(total * COLLISION_SHARE);
  const symlinkCount = Math.round(total * symlinkShare);
  const uniqueCount = total - collisionCount;

  const slots: Slot[] = dirOfSlot.map((dirIndex, i) => ({
    dirIndex,
    name: i < uniqueCount ? skillName(i, rng) : '',
    copyOf: -1,
    symlinked: false,
  }));
  // Copies: each picks an original in another directory that this directory does not hold yet.
  const taken = new Set<string>();
  for (let i = uniqueCount; i < total; i++) {
    const slot = slots[i]!;
    for (let attempt = 0; ; attempt++) {
      const original = Math.floor(rng() * uniqueCount);
      const source = slots[original]!;
      const key = `${slot.dirIndex}/${source.name}`;
      if ((source.dirIndex !== slot.dirIndex && !taken.has(key)) || attempt > 1000) {
        if (attempt > 1000) throw new Error('cannot place a name collision: too few skills per directory');
        taken.add(key);
        slot.name = source.name;
        slot.copyOf = original;
        break;
      }
    }
  }
  // Symlinks: among the originals nobody copied, so a symlinked skill is never part of a collision.
  const copied = new Set(slots.filter((s) => s.copyOf >= 0).map((s) => s.copyOf));
  let placed = 0;
  for (let i = uniqueCount - 1; i >= 0 && placed < symlinkCount; i--) {
    if (copied.has(i)) continue;
    slots[i]!.symlinked = true;
    placed++;
  }
  return slots;
}

const WORDS = [
  'pdf',
  'git',
  'review',
  'deploy',
  'test',
  'lint',
  'schema',
  'api',
  'docker',
  'query',
  'report',
  'migrate',
  'render',
  'audit',
  'trace',
  'bundle',
  'release',
  'cache',
  'index',
  'search',
  'upload',
  'sync',
  'format',
  'debug',
  'profile',
  'build',
  'cloud',
  'sheet',
  'image',
  'table',
  'log',
  'secret',
  'token',
  'stream',
  'queue',
  'graph',
  'model',
  'config',
  'backup',
  'shell',
];

/**
 * The prose of descriptions and bodies is shaped like English text: words are drawn by Zipf's law (the word of rank r
 * with weight 1 / r^ZIPF_EXPONENT) from a ranked vocabulary whose head is real English function words, then the
 * commonest words of skill instructions, then a long tail of made-up pronounceable words. So a few words are in every
 * skill, most are in a few, and about half of the running words are function words, as in real SKILL.md files.
 */
const FUNCTION_WORDS = [
  'the',
  'to',
  'and',
  'a',
  'of',
  'you',
  'is',
  'in',
  'it',
  'that',
  'for',
  'if',
  'with',
  'this',
  'be',
  'on',
  'or',
  'as',
  'not',
  'are',
  'your',
  'when',
  'can',
  'an',
  'by',
  'from',
  'all',
  'each',
  'do',
  'will',
  'at',
  'before',
  'any',
  'only',
  'so',
  'then',
  'its',
  'no',
  'should',
  'after',
  'one',
  'into',
  'there',
  'which',
  'what',
  'than',
  'must',
  'has',
  'they',
  'more',
  'also',
  'other',
  'them',
  'just',
  'how',
  'their',
  'over',
  'these',
  'without',
  'such',
  'most',
  'both',
  'every',
  'same',
  'while',
  'where',
  'through',
  'because',
  'between',
  'may',
  'out',
  'up',
  'we',
  'our',
];
/** The words every set of skills repeats, commonest first. */
const SKILL_WORDS = [
  'use',
  'file',
  'skill',
  'run',
  'user',
  'code',
  'files',
  'check',
  'command',
  'output',
  'new',
  'make',
  'sure',
  'result',
  'change',
  'path',
  'error',
  'test',
  'example',
  'step',
  'tool',
  'read',
  'write',
  'first',
  'name',
  'list',
  'project',
  'directory',
  'workspace',
  'script',
  'changes',
  'tests',
  'report',
  'keep',
  'data',
  'format',
  'line',
  'value',
  'existing',
  'commit',
  'short',
  'small',
  'prefer',
  'edit',
  'fails',
  'stop',
  'ask',
  'set',
  'need',
  'add',
];
const SYLLABLE_ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'h',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'w',
  'z',
  'br',
  'ch',
  'cl',
  'cr',
  'dr',
  'fl',
  'gr',
  'pl',
  'pr',
  'sh',
  'sl',
  'sp',
  'st',
  'th',
  'tr',
];
const SYLLABLE_VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'i', 'o', 'ea', 'io', 'ou', 'ai'];
const SYLLABLE_CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'st', 'ck', 'x', 'ng', 'rt'];
const VOCABULARY_SIZE = 30_000;
const ZIPF_EXPONENT = 1.07;

/** The ranked vocabulary, the same on every run: made-up words are spelled from a hash of their rank. */
const VOCABULARY: readonly string[] = (() => {
  const words = [...new Set([...FUNCTION_WORDS, ...SKILL_WORDS, ...WORDS])];
  const seen = new Set(words);
  for (let rank = 0; words.length < VOCABULARY_SIZE; rank++) {
    let h = seedFor(0x5eed, rank);
    const next = (n: number): number => {
      h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
      h = (h ^ (h >>> 13)) >>> 0;
      return h % n;
    };
    const syllables = 2 + next(3);
    let word = '';
    for (let i = 0; i < syllables; i++) {
      word +=
        SYLLABLE_ONSETS[next(SYLLABLE_ONSETS.length)]! +
        SYLLABLE_VOWELS[next(SYLLABLE_VOWELS.length)]! +
        SYLLABLE_CODAS[next(SYLLABLE_CODAS.length)]!;
    }
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
})();

/** Cumulative Zipf weights of VOCABULARY, for drawing a rank by binary search. */
const ZIPF_CDF: Float64Array = (() => {
  const cdf = new Float64Array(VOCABULARY.length);
  let sum = 0;
  for (let rank = 1; rank <= VOCABULARY.length; rank++) {
    sum += 1 / rank ** ZIPF_EXPONENT;
    cdf[rank - 1] = sum;
  }
  return cdf;
})();

/** One word of prose, drawn by Zipf's law. */
export function proseWord(rng: Rng): string {
  const target = rng() * ZIPF_CDF[ZIPF_CDF.length - 1]!;
  let lo = 0;
  let hi = ZIPF_CDF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF_CDF[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}

/** `<word>-<word>-<index in base 36>`: kebab-case, valid Agent Skills names, unique by index. */
function skillName(index: number, rng: Rng): string {
  return `${pick(WORDS, rng)}-${pick(WORDS, rng)}-${index.toString(36)}`;
}

/** The files of one skill directory, keyed by relative path. */
function skillFiles(rng: Rng, name: string, real: boolean): Record<string, string> {
  const files: Record<string, string> = {};
  const target = logUniform(rng, MIN_SKILL_BYTES, MAX_SKILL_BYTES);
  const referenceCount = rng() < REFERENCE_SHARE ? 1 + Math.floor(rng() * 3) : 0;
  const referenceNames: string[] = [];
  for (let i = 0; i < referenceCount; i++) {
    const file = `references/${pick(WORDS, rng)}-${i}.md`;
    referenceNames.push(file);
    files[file] = markdownBody(rng, logUniform(rng, 512, 8 * 1024), []);
  }
  const front = frontmatter(rng, name, real);
  files['SKILL.md'] = `${front}\n${markdownBody(rng, Math.max(0, target - front.length - 1), referenceNames)}`;
  return files;
}

function frontmatter(rng: Rng, name: string, real: boolean): string {
  const lines = ['---'];
  // One skill in ten relies on its directory name (docs/discovery.md §1).
  if (rng() >= 0.1) lines.push(`name: ${name}`);
  const description = sentence(rng, 6 + Math.floor(rng() * 40));
  if (real && rng() < REAL_COLON_SHARE) {
    // As hand-written skills say it: a second clause after `": "`, sometimes naming a command in backticks.
    const command = rng() < 0.3 ? ` such as \`${pick(WORDS, rng)} --${pick(WORDS, rng)}\`` : '';
    lines.push(`description: ${description}. Use when: ${sentence(rng, 4 + Math.floor(rng() * 12))}${command}`);
  } else {
    lines.push(rng() < 0.3 ? `description: "${description}"` : `description: ${description}`);
  }
  if (rng() < 0.3) lines.push('license: MIT');
  if (rng() < 0.4)
    lines.push(`allowed-tools: ${['Read', 'Grep', 'Bash', 'Edit'].slice(0, 1 + Math.floor(rng() * 4)).join(' ')}`);
  if (rng() < 0.1) lines.push('disable-model-invocation: false');
  if (rng() < 0.15) lines.push('argument-hint: "<path> [--dry-run]"');
  if (rng() < 0.1) lines.push(`compatibility: Requires git and node ${18 + Math.floor(rng() * 5)}`);
  if (rng() < 0.2)
    lines.push(
      'metadata:',
      `  version: "${1 + Math.floor(rng() * 3)}.${Math.floor(rng() * 10)}.0"`,
      '  owner: platform-team',
    );
  lines.push('---');
  return `${lines.join('\n')}\n`;
}

/** Markdown of about `bytes` bytes: a title, sections of prose, lists and fenced code. */
function markdownBody(rng: Rng, bytes: number, references: string[]): string {
  const parts: string[] = [`# ${sentence(rng, 3)}\n`];
  if (references.length > 0) parts.push(`See ${references.map((r) => `\`${r}\``).join(', ')} for details.\n`);
  let size = parts.reduce((n, p) => n + p.length + 1, 0);
  let section = 1;
  while (size < bytes) {
    const kind = rng();
    let part: string;
    if (kind < 0.15) part = `## ${section++}. ${sentence(rng, 2 + Math.floor(rng() * 4))}\n`;
    else if (kind < 0.55) part = `${sentence(rng, 20 + Math.floor(rng() * 60))}.\n`;
    else if (kind < 0.85)
      part =
        Array.from({ length: 2 + Math.floor(rng() * 5) }, () => `- ${sentence(rng, 4 + Math.floor(rng() * 12))}`).join(
          '\n',
        ) + '\n';
    else
      part =
        '```bash\n' +
        `${pick(WORDS, rng)} --${pick(WORDS, rng)} ./${pick(WORDS, rng)}/${pick(WORDS, rng)}.json\n` +
        '```\n';
    parts.push(part);
    size += part.length + 1;
  }
  return parts.join('\n');
}

function sentence(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(proseWord(rng));
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

async function writeSkillDir(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (Object.keys(files).some((f) => f.startsWith('references/'))) await mkdir(join(dir, 'references'));
  for (const [relative, content] of Object.entries(files)) await writeFile(join(dir, relative), content);
}

async function runLimited(jobs: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      await job();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}

/** docs/discovery.md §1 order: lower-cased name (UTF-16 code units), then the exact name. */
function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function logUniform(rng: Rng, min: number, max: number): number {
  return Math.round(Math.exp(Math.log(min) + rng() * (Math.log(max) - Math.log(min))));
}

function pick<T>(items: readonly T[], rng: Rng): T {
  return items[Math.floor(rng() * items.length)]!;
}

function shuffle<T>(items: T[], rng: Rng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const a = items[i]!;
    items[i] = items[j]!;
    items[j] = a;
  }
}
