// The walks of the agents' roots kept between builds (docs/agents.md "Live"): a rebuild walks again only the roots
// that a reported path can change — a path inside the root, the root itself or one of its parents, or a path inside
// a directory the walk reached through a link. Every other root's walk is the previous one. An edit of a SKILL.md a
// walk found, still a regular file, changes no walk at all: only its text is read again (file-texts.ts).
// The side files next to each SKILL.md (Codex's `agents/openai.yaml`, its plugin namespace) are kept the same way.

import type { Dirent } from 'node:fs';
import { basename, dirname } from 'node:path';
import { lstat, readdir } from '../files/sliced-fs.js';
import { forgetAtOrUnder, hasAncestorIn } from '../forget-under.js';
import type { LinkPolicy } from '../link-trust.js';
import type { AgentRun } from './agent-run.js';
import type { AgentRoot, AgentSpec, Found } from './types.js';
import {
  type DirListings,
  type Listed,
  type RootWalk,
  type RootWalkBounds,
  SKILL_FILE,
  sortedEntries,
  walkRoot,
} from './walk-root.js';

type SidecarResult = Awaited<ReturnType<NonNullable<AgentSpec['sidecar']>>>;
type Sidecar = (found: Found) => Promise<SidecarResult>;

interface Entry {
  root: string;
  walk: Promise<RootWalk>;
}

/** A directory's entries in name order, the reverse order once a layout asks for it, and what is known of them. */
interface Listing {
  entries: Promise<Dirent[]>;
  descending?: Promise<Dirent[]>;
  listed: Listed;
}

export class RootWalkMemo {
  private readonly entries = new Map<string, Entry>();
  /** Grows with every invalidation: a walk begun before one is not kept (it may have missed the change). */
  private epoch = 0;
  /** The roots walked from disk (not from memory) since `begin`, in the order they were asked for. */
  walked: string[] = [];
  /** Side files looked at, by agent and SKILL.md. */
  private readonly sidecars = new Map<string, Promise<SidecarResult>>();
  /**
   * Directory listings, by real directory: read once for every walk until a change is reported there, and sorted once
   * in each order the layouts ask for.
   */
  private readonly listings = new Map<string, Listing>();
  private readonly shared: DirListings = {
    list: (real, lexical, descending) => {
      const listing = this.listingOf(real, lexical);
      if (descending) {
        listing.descending ??= listing.entries.then((entries) => entries.slice().reverse());
        return listing.descending;
      }
      return listing.entries;
    },
    listed: (real) => this.listingOf(real, real).listed,
  };
  /** Each agent's last run, by agent (run-agent.ts patches it when only texts changed). */
  readonly runs = new Map<string, AgentRun>();
  /** Something besides the texts of known SKILL.md files may have changed since `takeTextsOnly` was last called. */
  private structural = true;

  begin(): void {
    this.walked = [];
  }

  walk(root: AgentRoot, links?: LinkPolicy, bounds?: RootWalkBounds): Promise<RootWalk> {
    // Everything the walk depends on is data of the root (path, scope, layout, conditions), the link rules and the
    // daemon's bounds; functions are ignored.
    const key = JSON.stringify([root, links ?? null, bounds ?? null]);
    const known = this.entries.get(key);
    if (known !== undefined) return known.walk;
    this.walked.push(root.path);
    const epoch = this.epoch;
    const walk = walkRoot(root, links, this.shared, bounds);
    const entry = { root: root.path, walk };
    this.entries.set(key, entry);
    walk.then(
      (done) => {
        if (this.epoch !== epoch && this.entries.get(key) === entry) this.entries.delete(key);
        return done;
      },
      () => this.entries.delete(key),
    );
    return walk;
  }

  /**
   * A real directory's entries in code-unit order, read once for every walk and the doctor (doctor/types.ts
   * `SharedReads`) until a change is reported there.
   */
  listing(real: string): Promise<Dirent[]> {
    return this.listingOf(real, real).entries;
  }

  /**
   * The entries of a directory a walk listed since the last change reported there, without listing it (side-file.ts
   * `KnownListings`): a real path of a directory listed through another path names the same directory.
   */
  listedAlready(dir: string): Promise<Dirent[]> | undefined {
    return this.listings.get(dir)?.entries;
  }

  /** What the agent's side files say about one SKILL.md (`AgentSpec.sidecar`), looked at once until a change. */
  sidecar(agent: string, found: Found, read: Sidecar): Promise<SidecarResult> {
    const key = `${agent}\0${found.filePath}\0${found.baseDir}`;
    let known = this.sidecars.get(key);
    if (known === undefined) {
      known = read(found);
      this.sidecars.set(key, known);
      known.catch(() => this.sidecars.delete(key));
    }
    return known;
  }

  /** Forgets the walks `paths` can change. */
  async invalidate(paths: Iterable<string>): Promise<void> {
    const list = [...paths];
    if (list.length === 0) return;
    if (await this.onlyTextsChanged(list)) return;
    this.structural = true;
    this.sidecars.clear();
    // A path changes its own listing (a directory replaced), its parent's, and every listing below it.
    for (const path of list) {
      this.listings.delete(path);
      this.listings.delete(dirname(path));
    }
    forgetAtOrUnder(this.listings, list);
    this.epoch++;
    const reported = new Set(list);
    for (const [key, entry] of this.entries) {
      const walk = await entry.walk.catch(() => undefined);
      const touched = walk === undefined || touches(reported, entry.root, walk);
      if (touched && this.entries.get(key) === entry) this.entries.delete(key);
    }
  }

  clear(): void {
    this.epoch++;
    this.structural = true;
    this.entries.clear();
    this.sidecars.clear();
    this.runs.clear();
    this.listings.clear();
  }

  private listingOf(real: string, lexical: string): Listing {
    let known = this.listings.get(real);
    if (known === undefined) {
      const entries = readdir(lexical, { withFileTypes: true }).then((listed) => sortedEntries(listed, false));
      known = { entries, listed: { real, searchable: false } };
      this.listings.set(real, known);
      // A listing that failed is tried again by the next walk.
      const failed = known;
      entries.catch(() => {
        if (this.listings.get(real) === failed) this.listings.delete(real);
      });
    }
    return known;
  }

  /**
   * Whether only texts of known SKILL.md files changed since the last call: every agent's placement, walks and side
   * files are then the previous run's, and a run may patch the last one (run-agent.ts).
   */
  /**
   * Only texts of known SKILL.md files changed since the last computation: its runs may be patched before the next
   * one (edited-views.ts).
   */
  get onlyTexts(): boolean {
    return !this.structural;
  }

  takeTextsOnly(): boolean {
    const textsOnly = !this.structural;
    this.structural = false;
    return textsOnly;
  }

  /** Every path is a SKILL.md some kept walk found, and still a regular file there: no walk or side file changes. */
  private async onlyTextsChanged(paths: readonly string[]): Promise<boolean> {
    if (!paths.every((path) => basename(path) === SKILL_FILE)) return false;
    const walks: RootWalk[] = [];
    for (const entry of this.entries.values()) {
      const walk = await entry.walk.catch(() => undefined);
      if (walk === undefined) return false;
      walks.push(walk);
    }
    for (const path of paths) {
      if (!walks.some((walk) => foundPathsOf(walk).has(path))) return false;
      const info = await lstat(path).catch(() => undefined);
      if (info === undefined || !info.isFile()) return false;
    }
    return true;
  }
}

/** The SKILL.md files each walk found, by lexical and by real path (made once per walk, not once per update). */
const foundPaths = new WeakMap<RootWalk, Set<string>>();

function foundPathsOf(walk: RootWalk): Set<string> {
  let paths = foundPaths.get(walk);
  if (paths === undefined) {
    paths = new Set();
    for (const found of walk.found) {
      paths.add(found.lexicalPath);
      paths.add(found.realPath);
    }
    foundPaths.set(walk, paths);
  }
  return paths;
}

/** Real directories of each walk, its root among them: a reported path at or under one changes that walk. */
const walkedDirs = new WeakMap<RootWalk, Set<string>>();

/** A reported path lies at or under the walk's root or a directory it walked, or holds the root. */
function touches(reported: ReadonlySet<string>, root: string, walk: RootWalk): boolean {
  let dirs = walkedDirs.get(walk);
  if (dirs === undefined) {
    dirs = new Set([root, ...walk.reals]);
    walkedDirs.set(walk, dirs);
  }
  if (reported.has(root) || hasAncestorIn(root, reported)) return true;
  for (const path of reported) if (dirs.has(path) || hasAncestorIn(path, dirs)) return true;
  return false;
}
