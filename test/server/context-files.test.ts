import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';

describe('GET /context-files', () => {
  it('walks AGENTS.md files from the workspace up to the repository root, closest first', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/AGENTS.md': 'repo rules\n',
        'work/pkg/app/AGENTS.md': 'app rules\n',
        'work/pkg/AGENTS.md': '',
        'AGENTS.md': 'outside the repository\n',
      },
    });
    const cwd = `${s.cwd}/pkg/app`;
    const { status, headers, body } = await getJson(`${s.base}/context-files?cwd=${encodeURIComponent(cwd)}`);
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), 'application/json; charset=utf-8');
    // The repository is outside HOME: the walk stops at its root, inclusive (docs/discovery.md §9).
    assert.deepEqual(body, {
      files: [
        { path: `${cwd}/AGENTS.md`, content: 'app rules\n', level: 'project', depth: 0 },
        // An empty AGENTS.md is listed like any other (docs/discovery.md §9).
        { path: `${s.cwd}/pkg/AGENTS.md`, content: '', level: 'project', depth: 1 },
        { path: `${s.cwd}/AGENTS.md`, content: 'repo rules\n', level: 'project', depth: 2 },
      ],
      diagnostics: [],
    });
    const xcsh = await startServer(t, {
      settings: { profile: 'xcsh' },
      tree: { 'work/AGENTS.md': '', 'work/sub/.keep': '' },
    });
    const fromSub = await getJson(`${xcsh.base}/context-files?cwd=${encodeURIComponent(`${xcsh.cwd}/sub`)}`);
    assert.deepEqual(fromSub.body, {
      files: [{ path: `${xcsh.cwd}/AGENTS.md`, content: '', level: 'project', depth: 1 }],
      diagnostics: [],
    });
    const root = await getJson(`${s.base}/context-files`);
    assert.deepEqual(root.body, {
      files: [{ path: `${s.cwd}/AGENTS.md`, content: 'repo rules\n', level: 'project', depth: 0 }],
      diagnostics: [],
    });
  });
});
