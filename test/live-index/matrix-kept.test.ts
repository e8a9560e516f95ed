// The matrix of `GET /agents` made after a change takes the rows of the last one where they still hold
// (matrix-rows.ts, docs/agents.md "Live"): it answers exactly as a matrix made from nothing on the same files, and
// the rows of files the change did not touch are the very rows they were.

import assert from 'node:assert/strict';
import { mkdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import type { TextRead } from '../../src/discovery/agents/file-texts.js';
import { type AgentMatrix, MatrixRowMemo, makeMatrix } from '../../src/discovery/agents/matrix-rows.js';
import type { AgentView } from '../../src/discovery/agents/types.js';
import type { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';
import { openUnwatchedIndex } from '../helpers/unwatched-index.js';

type Reported = { rebuildFor(paths: readonly string[]): Promise<void> };
const WAIT = 60_000;

async function matrixOf(index: WorkspaceIndex): Promise<AgentMatrix> {
  return (await index.agentViews(WAIT)).views.matrix();
}

/** Everything the matrix answers with: the rows, and the names the doctor matches per row. */
function answerOf(matrix: AgentMatrix): string {
  return JSON.stringify(
    matrix.rows.map((row) => ({
      row,
      names: [...(matrix.rowNames.get(row) ?? [])],
      byView: [...(matrix.viewNames.get(row) ?? [])],
    })),
  );
}

async function openTree(t: TestContext): Promise<{ root: string; index: WorkspaceIndex }> {
  const { dir: root, cleanup } = await makeTempDir('skillsd-matrix-kept-');
  t.after(cleanup);
  await writeTree(root, {
    'home/.keep': '',
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    'work/.agents/skills/shared/SKILL.md': SK({ name: 'shared', description: 'read by many agents' }),
    'work/.agents/skills/other/SKILL.md': SK({ name: 'other', description: 'another one' }),
    'work/.claude/skills/cl/SKILL.md': SK({ name: 'cl', description: 'Claude and the profiles' }),
    'work/.claude/skills/deep/inner/SKILL.md': SK({ name: 'inner', description: 'too deep for some' }),
    'home/.agents/skills/user/SKILL.md': SK({ name: 'user', description: 'a user skill' }),
    'home/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'Goose alone' }),
    'home/library/linked/SKILL.md': SK({ name: 'linked', description: 'reached through a link' }),
    'work/.agents/skills/linked': { symlink: '../../../home/library/linked' },
  });
  return { root, index: await openUnwatchedIndex(t, root) };
}

/** The matrix of a new index on the same files. */
async function fresh(t: TestContext, root: string): Promise<string> {
  const index = await openUnwatchedIndex(t, root);
  return answerOf(await matrixOf(index));
}

describe('the matrix made again after a change', () => {
  it('answers as a matrix made from nothing, change after change', async (t) => {
    const { root, index } = await openTree(t);
    const w = `${root}/work`;
    const changes: Array<{ what: string; paths: string[]; apply: () => Promise<void> }> = [
      {
        what: 'a description edited',
        paths: [`${w}/.agents/skills/shared/SKILL.md`],
        apply: () => writeFile(`${w}/.agents/skills/shared/SKILL.md`, SK({ name: 'shared', description: 'edited' })),
      },
      {
        what: 'a name that is not its folder’s',
        paths: [`${w}/.agents/skills/other/SKILL.md`],
        apply: () => writeFile(`${w}/.agents/skills/other/SKILL.md`, SK({ name: 'renamed', description: 'x' })),
      },
      {
        what: 'a file no agent can read as a skill',
        paths: [`${w}/.claude/skills/cl/SKILL.md`],
        apply: () => writeFile(`${w}/.claude/skills/cl/SKILL.md`, 'no frontmatter here\n'),
      },
      {
        what: 'a skill added',
        paths: [`${w}/.agents/skills/added`],
        apply: async () => {
          await mkdir(`${w}/.agents/skills/added`);
          await writeFile(`${w}/.agents/skills/added/SKILL.md`, SK({ name: 'added', description: 'new' }));
        },
      },
      {
        what: 'a SKILL.md replaced by a link to another',
        paths: [`${w}/.agents/skills/added/SKILL.md`],
        apply: async () => {
          await unlink(`${w}/.agents/skills/added/SKILL.md`);
          await symlink(`${root}/home/library/linked/SKILL.md`, `${w}/.agents/skills/added/SKILL.md`);
        },
      },
      {
        what: 'a Codex root appearing in the workspace',
        paths: [`${w}/.codex`],
        apply: async () => {
          await mkdir(`${w}/.codex/skills/cx`, { recursive: true });
          await writeFile(`${w}/.codex/skills/cx/SKILL.md`, SK({ name: 'cx', description: 'Codex only' }));
        },
      },
      {
        what: 'a skill removed',
        paths: [`${w}/.agents/skills/shared`],
        apply: () => rm(`${w}/.agents/skills/shared`, { recursive: true }),
      },
    ];
    await matrixOf(index);
    for (const change of changes) {
      await change.apply();
      await (index as unknown as Reported).rebuildFor(change.paths);
      assert.equal(answerOf(await matrixOf(index)), await fresh(t, root), change.what);
    }
  });

  it('keeps the rows of the files a change did not touch as the very rows', async (t) => {
    const { root, index } = await openTree(t);
    const edited = `${root}/work/.agents/skills/shared/SKILL.md`;
    const before = await matrixOf(index);
    await writeFile(edited, SK({ name: 'shared', description: 'edited once' }));
    await (index as unknown as Reported).rebuildFor([edited]);
    const after = await matrixOf(index);
    assert.notEqual(after, before);
    assert.deepEqual(
      after.rows.map((row) => row.name),
      before.rows.map((row) => row.name),
    );
    const remade = after.rows.filter((row, i) => row !== before.rows[i]).map((row) => row.filePath);
    assert.deepEqual(remade, [edited]);
  });

  it('gives an unseen cell the reason of the view as it is now, when its roots changed and its records did not', async (t) => {
    const { root, index } = await openTree(t);
    const { views, ctx } = (await index.agentViews(WAIT)).views;
    const texts = new Map<string, Promise<TextRead>>();
    const read = (path: string) => {
      let text = texts.get(path);
      if (text === undefined) {
        text = readFile(path, 'utf8').then((t): TextRead => ({ ok: true, text: t }));
        texts.set(path, text);
      }
      return text;
    };
    const memo = new MatrixRowMemo();
    const file = `${root}/work/.claude/skills/cl/SKILL.md`;
    const cellOf = (matrix: AgentMatrix) => matrix.rows.find((row) => row.filePath === file)?.views['gemini-cli'];
    assert.deepEqual(cellOf(await makeMatrix(views, ctx, read, memo)), {
      status: 'unseen',
      reason: 'Gemini CLI does not read .claude/skills',
    });
    // The same records, one root more: a condition that keeps Gemini CLI out of `.claude/skills`.
    const gemini = views.get('gemini-cli') as AgentView;
    const blocked = { ...(gemini.roots[0] as AgentView['roots'][number]), path: `${root}/work/.claude/skills` };
    const changed = new Map(views);
    changed.set('gemini-cli', { ...gemini, roots: [...gemini.roots, { ...blocked, blocked: 'a condition fails' }] });
    const again = await makeMatrix(changed, ctx, read, memo);
    assert.deepEqual(cellOf(again), { status: 'unseen', reason: 'a condition fails' });
    assert.equal(answerOf(again), answerOf(await makeMatrix(changed, ctx, read)));
  });
});
