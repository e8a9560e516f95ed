// Matching the doctor's findings with the views (view-findings.ts): a finding goes to each view that reads its file,
// found by real path; the real paths any view of the computation found are known without a look at the disk.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentView } from '../../../src/discovery/agents/types.js';
import { addDoctorFindings } from '../../../src/discovery/agents/view-findings.js';
import type { Finding } from '../../../src/discovery/doctor/types.js';

/** A view reading `files` (real path → the lexical path it found the file by). */
function viewOf(id: string, files: Record<string, string>): AgentView {
  const records = new Map(Object.entries(files).map(([real, lexical]) => [real, { filePath: lexical }]));
  const found = new Map(
    Object.entries(files).map(([real, lexical]) => [
      real,
      { lexicalPath: lexical, folder: 'x', frontmatterName: null },
    ]),
  );
  return { agent: { id }, diagnostics: [], records, found } as unknown as AgentView;
}

function finding(path: string): Finding {
  return { rule: 'spec-name-folder', severity: 'warning', path, message: `about ${path}` };
}

test('paths another view of the computation found are not resolved; with no view to match, nothing is', async () => {
  // `codex` reads a through a link (/link/a → /real/a); `goose` reads b; the doctor also speaks of c, which no view
  // found.
  const codex = viewOf('codex', { '/real/a/SKILL.md': '/link/a/SKILL.md' });
  const goose = viewOf('goose', { '/real/b/SKILL.md': '/real/b/SKILL.md' });
  const findings = ['/link/a/SKILL.md', '/real/b/SKILL.md', '/real/c/SKILL.md'].map(finding);
  const resolved: string[] = [];
  const realOf = (path: string) => {
    resolved.push(path);
    return path;
  };

  await addDoctorFindings([goose], findings, realOf, [codex, goose]);
  assert.deepEqual(resolved, ['/real/c/SKILL.md']);
  assert.deepEqual(goose.diagnostics, [findings[1]]);

  // Every view took its findings as they were: no real path is looked for at all.
  resolved.length = 0;
  await addDoctorFindings([], findings, realOf, [codex, goose]);
  assert.deepEqual(resolved, []);

  // A finding about a file a view reads through a link names the file as the view found it.
  await addDoctorFindings([codex], findings, realOf, [codex, goose]);
  assert.deepEqual(codex.diagnostics, [findings[0]]);
  assert.deepEqual(resolved, ['/real/c/SKILL.md']);
});
