// The snapshot content (`snapshotContent` of snapshot.ts) built from per-skill JSON fragments kept between builds.
// A reload keeps the record object of every skill it did not touch (scan-memo.ts), so serialising 10,000 skills
// again comes down to joining their kept fragments; the text is byte for byte what `snapshotContent` produces, and
// so is the hash.

import { createHash } from 'node:crypto';
import type { DiscoveryResult, Profile, Skill } from '../discovery/types.js';
import type { SnapshotContent } from './snapshot.js';

export class SnapshotSerializer {
  /** Keyed by the record object: a record no longer referenced by any result lets its fragment go. */
  private fragments = new WeakMap<Skill, string>();

  content(cwd: string, profile: Profile, result: DiscoveryResult): SnapshotContent {
    const skills = result.skills.map((skill) => this.fragment(skill));
    // The key order and spelling of `snapshotContent`: JSON.stringify of an array joins its elements' JSON with ','.
    const json =
      `{"profile":${JSON.stringify(profile)},"cwd":${JSON.stringify(cwd)},"skills":[${skills.join(',')}],` +
      `"warnings":${JSON.stringify(result.warnings)},"collisions":${JSON.stringify(result.collisions)},` +
      `"diagnostics":${JSON.stringify(result.diagnostics)}}`;
    return { json, hash: createHash('sha256').update(json).digest('hex') };
  }

  private fragment(skill: Skill): string {
    let text = this.fragments.get(skill);
    if (text === undefined) {
      // Records are never changed after discovery; one that is frozen later still serialises the same.
      text = JSON.stringify(skill);
      this.fragments.set(skill, text);
    }
    return text;
  }
}
