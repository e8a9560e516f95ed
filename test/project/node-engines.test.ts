// `engines` must name only Node versions on which `npm ci --engine-strict` succeeds: every Node version it admits must
// also satisfy the `engines` of every package in the lockfile. CI installs and tests each release in
// .ci/node-versions, so those must be admitted too, and the lowest of them must be the lower bound itself.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import semver from 'semver';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean; os?: string[] }>;
};
const ciVersions = readFileSync(new URL('.ci/node-versions', root), 'utf8').split('\n').filter(Boolean);
const readme = readFileSync(new URL('README.md', root), 'utf8');

describe('Node engines', () => {
  const ours = manifest.engines.node;

  it('admits no Node version that a locked package refuses', () => {
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || entry.optional === true) continue;
      const theirs = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (theirs === undefined) continue;
      if (!semver.subset(ours, theirs, { loose: true })) refused.push(`${path}: ${theirs}`);
    }
    assert.deepEqual(refused, []);
  });

  it('CI runs the suite on the lowest admitted release and on each listed one', () => {
    for (const version of ciVersions) assert.ok(semver.satisfies(version, ours), `${version} is outside ${ours}`);
    assert.equal(semver.minVersion(ours)?.version, ciVersions[0]);
  });

  it('the README states the same lower bound', () => {
    const lowest = semver.minVersion(ours)?.version ?? '';
    assert.match(readme, new RegExp(`Node\\.js ≥ ${lowest.replaceAll('.', '\\.')}`));
  });
});
