// `missing-referenced-file` (docs/doctor.md "Rules"): the body of a SKILL.md names a file of its skill that is not
// there, so the model's read of it fails and the file route answers 404 (docs/api.md "GET /skill/{name}").
// Only what clearly points into the skill is checked, so that a mention of the user's own files (`package.json`,
// `src/app.ts`) is never noise:
// - a relative markdown link or image (`[x](reference.md)`, `[x]: forms.md`): always;
// - a bare path with an extension (`scripts/run.py`): when its first folder is one of the skill's entries or one of
//   the directories the Agent Skills specification names (`scripts/`, `references/`, `assets/`);
// - a bare file name (`REFERENCE.md`): when the skill holds that name in another case only.
// URLs, anchors, absolute paths, `~/…` and paths leaving the skill (`../`) are never checked. The skill folder's
// listing is the one the doctor's look already made; a folder inside the skill is listed only when a reference
// points into it, once.

import { join } from 'node:path';
import { readdir } from '../files/sliced-fs.js';
import type { Finding } from './types.js';

/** At most this many distinct paths are checked per SKILL.md: a body listing thousands costs no more. */
const MAX_CHECKED = 64;
/** The optional directories of the Agent Skills specification. */
const SPEC_DIRECTORIES = new Set(['scripts', 'references', 'assets']);

// Each pattern's repeats exclude what starts another attempt of it, so that a hostile body of 1 MiB (the read cap)
// costs linear time: no `[` inside a link's text, no parenthesis inside its title, a scheme only at a word's start.
const LINK = /!?\[[^[\]\n]*\]\([ \t]*(<[^<>\n]*>|[^()\s]*)(?:[ \t]+[^()\n]*)?\)/g;
const LINK_DEFINITION = /^ {0,3}\[[^[\]\n]+\]:[ \t]*(<[^<>\n]*>|\S+)/gm;
const URL = /(?<![a-zA-Z0-9+.-])[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s)>\]]*/g;
/**
 * A relative path whose last segment has an extension that starts with a letter (`run.py`, not `v1.2`), tried (sticky)
 * at the start of a run of path characters.
 */
const BARE_PATH = /(?:\.\/)?(?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,9}(?![\w/\\-])/y;
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

export interface FileReference {
  /** The path as written, for the message. */
  written: string;
  /** Its segments inside the skill (`./` and inner `..` resolved). */
  segments: string[];
  /** 1-based line in the file. */
  line: number;
  /** A markdown link (checked whatever it names) rather than a bare mention. */
  link: boolean;
}

/** The skill folder as the doctor's look listed it: its path on disk and the names of its entries. */
export interface SkillFolder {
  path: string;
  entries: readonly string[];
}

type Found = FileReference & { offset: number };

/**
 * The references of the body (the text after the frontmatter, from `bodyStart`: 0 or the start of a line), first
 * mention first.
 */
export function fileReferences(text: string, bodyStart: number): FileReference[] {
  const lineOf = lineCounter(text);
  const found: Found[] = [];
  // A path mentioned again adds nothing: only its first mention of each kind is looked at.
  const linked = new Set<string>();
  const link = (target: string, offset: number) => {
    if (linked.has(target)) return;
    linked.add(target);
    const reference = linkReference(target);
    if (reference !== undefined) found.push({ ...reference, line: lineOf(offset), link: true, offset });
  };
  // Links and URLs are blanked (offsets kept) before bare paths are looked for: a link's target is not also a bare
  // mention, and no part of a URL is a path of the skill. Each pattern is single-line, so nothing before the body's
  // first line takes part: the frontmatter is skipped rather than blanked.
  let body = text;
  if (body.includes('](', bodyStart)) body = blanked(body, bodyStart, LINK, link);
  if (body.includes(']:', bodyStart)) body = blanked(body, bodyStart, LINK_DEFINITION, link);
  if (body.includes('://', bodyStart)) body = blanked(body, bodyStart, URL);
  bareMentions(body, bodyStart, lineOf, found);
  found.sort((a, b) => a.offset - b.offset);
  const seen = new Set<string>();
  const out: FileReference[] = [];
  for (const { offset: _, ...reference } of found) {
    const key = reference.segments.join('/');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(reference);
  }
  return out;
}

/** `text` with every match of `pattern` from `from` on replaced by as many spaces, each reported with its offset. */
function blanked(
  text: string,
  from: number,
  pattern: RegExp,
  report?: (target: string, offset: number) => void,
): string {
  let out = '';
  let kept = 0;
  pattern.lastIndex = from;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    report?.(match[1] as string, match.index);
    out += text.slice(kept, match.index) + ' '.repeat(match[0].length);
    kept = pattern.lastIndex;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/**
 * The bare paths of `body` from `from` on. A bare path starts where a run of the characters a path may touch on its
 * left (`[\w./~@$%:\\-]`) starts, and holds a dot followed by a letter (its extension): so only the runs around such
 * a dot are tried, each once, at its start, rather than every run of the text (a sentence's closing period is not
 * followed by a letter).
 */
function bareMentions(body: string, from: number, lineOf: (offset: number) => number, found: Found[]): void {
  const named = new Set<string>();
  let tried = from;
  for (let dot = body.indexOf('.', from); dot !== -1; dot = body.indexOf('.', dot + 1)) {
    if (dot < tried || !isAsciiLetter(body.charCodeAt(dot + 1))) continue;
    let start = dot;
    while (start > from && isRunCharacter(body.charCodeAt(start - 1))) start--;
    tried = dot + 2;
    while (tried < body.length && isRunCharacter(body.charCodeAt(tried))) tried++;
    BARE_PATH.lastIndex = start;
    const match = BARE_PATH.exec(body);
    if (match === null || named.has(match[0])) continue;
    named.add(match[0]);
    const segments = insideSkill(match[0]);
    if (segments === undefined) continue;
    found.push({ written: match[0], segments, line: lineOf(start), link: false, offset: start });
  }
}

/** `[\w./~@$%:\\-]`: the characters of a run a bare path may start at. */
function isRunCharacter(code: number): boolean {
  return (
    isAsciiLetter(code) ||
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x5f || // _
    code === 0x2e || // .
    code === 0x2f || // /
    code === 0x7e || // ~
    code === 0x40 || // @
    code === 0x24 || // $
    code === 0x25 || // %
    code === 0x3a || // :
    code === 0x5c || // \
    code === 0x2d // -
  );
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/**
 * The 1-based line of an offset, counting newlines on from the line of the previous offset asked about when it is not
 * before it: each kind of reference (links, link definitions, bare paths) comes in text order, so the text is counted
 * once per kind at most and no table of line starts is built.
 */
function lineCounter(text: string): (offset: number) => number {
  let line = 1;
  let lineStart = 0;
  let next = text.indexOf('\n');
  return (offset) => {
    if (offset < lineStart) {
      line = 1;
      lineStart = 0;
      next = text.indexOf('\n');
    }
    while (next !== -1 && next < offset) {
      line++;
      lineStart = next + 1;
      next = text.indexOf('\n', lineStart);
    }
    return line;
  };
}

/** The findings for the references that name no file of the skill. */
export async function missingReferencedFiles(
  filePath: string,
  references: readonly FileReference[],
  folder: SkillFolder,
): Promise<Finding[]> {
  const listings = new Map<string, Promise<readonly string[] | undefined>>([['', Promise.resolve(folder.entries)]]);
  const list = (segments: readonly string[]) => {
    const key = segments.join('/');
    let listing = listings.get(key);
    if (listing === undefined) {
      listing = readdir(join(folder.path, ...segments)).catch(() => undefined);
      listings.set(key, listing);
    }
    return listing;
  };
  const findings: Finding[] = [];
  let checked = 0;
  for (const reference of references) {
    if (!worthChecking(reference, folder.entries)) continue;
    if (++checked > MAX_CHECKED) break;
    const found = await lookUp(reference.segments, list);
    if (found.exists) continue;
    findings.push({
      rule: 'missing-referenced-file',
      severity: 'warning',
      path: filePath,
      line: reference.line,
      message:
        `the body ${reference.link ? 'links to' : 'names'} ${reference.written}, which is not a file of the skill: ` +
        'reading it fails (the file route answers 404)',
      hint:
        found.actual === undefined
          ? 'add the file to the skill folder, or correct the path'
          : `the file is ${found.actual}: write that name (file names are case-sensitive)`,
    });
  }
  return findings;
}

/** Bare mentions are checked only where they clearly point into the skill (see the head of this file). */
function worthChecking(reference: FileReference, entries: readonly string[]): boolean {
  if (reference.link) return true;
  const first = reference.segments[0] as string;
  const lower = first.toLowerCase();
  if (reference.segments.length === 1) {
    return !entries.includes(first) && entries.some((entry) => entry.toLowerCase() === lower);
  }
  return SPEC_DIRECTORIES.has(lower) || entries.some((entry) => entry.toLowerCase() === lower);
}

/**
 * Walks the segments through the listings: `exists` when every one is there as written; otherwise, when each is
 * there in another case, `actual` is the path as it is on disk.
 */
async function lookUp(
  segments: readonly string[],
  list: (segments: readonly string[]) => Promise<readonly string[] | undefined>,
): Promise<{ exists: boolean; actual?: string }> {
  const actual: string[] = [];
  let exact = true;
  for (const segment of segments) {
    const entries = await list(actual);
    if (entries === undefined) return { exists: false };
    if (entries.includes(segment)) {
      actual.push(segment);
      continue;
    }
    const lower = segment.toLowerCase();
    const other = entries.find((entry) => entry.toLowerCase() === lower);
    if (other === undefined) return { exists: false };
    exact = false;
    actual.push(other);
  }
  return exact ? { exists: true } : { exists: false, actual: actual.join('/') };
}

/** A link target that names a path of the skill, or undefined (a URL, an anchor, an absolute path, `../`). */
function linkReference(target: string): Omit<FileReference, 'line' | 'link'> | undefined {
  const bare = target.startsWith('<') ? target.slice(1, -1) : target;
  const path = bare.replace(/[#?].*$/s, '');
  if (path === '' || SCHEME.test(path)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    decoded = path;
  }
  const segments = insideSkill(decoded);
  return segments === undefined ? undefined : { written: decoded, segments };
}

/** The segments of a relative path inside the skill, or undefined for an absolute one or one that leaves it. */
function insideSkill(path: string): string[] | undefined {
  if (path.startsWith('/') || path.startsWith('~') || path.startsWith('\\')) return undefined;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) return undefined;
      continue;
    }
    segments.push(segment);
  }
  return segments.length === 0 ? undefined : segments;
}
