// The answer's bytes are held once (docs/memory.md "One copy of the answer's bytes"): once the unfiltered body is
// assembled every kept part is a view of it, and a reload's body leaves nothing pointing into the previous one.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { DiscoveryResult, Skill, SkillDiagnostic } from '../../src/discovery/types.js';
import { CHUNK_SKILLS } from '../../src/live-index/run-hasher.js';
import { snapshotContent, WorkspaceSnapshot } from '../../src/live-index/snapshot.js';
import {
  assembleBody,
  contentBody,
  type SnapshotContent,
  SnapshotSerializer,
} from '../../src/live-index/snapshot-json.js';
import { collisionRecord, discoveryResult, skillRecord } from '../helpers/skill-records.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const names = Array.from({ length: 3 * CHUNK_SKILLS + 5 }, (_, i) => `s${String(i).padStart(4, '0')}`);

// The same lists in every result, as a reload that did not change them hands them on.
const warnings = [{ skillPath: '', message: 'w' }];
const collisions = [collisionRecord('s0001')];
const diagnostics: SkillDiagnostic[] = [
  { skillPath: '/w/.musepi/skills/s0001/SKILL.md', message: 'first "quoted" é' },
  { skillPath: '/w/.musepi/skills/s0002/SKILL.md', message: 'second' },
];

function resultOf(skills = names.map((name) => skillRecord(name))): DiscoveryResult {
  return { ...discoveryResult(skills, warnings, collisions), diagnostics };
}

/** Whether `part` is a view of `body`'s memory (an ArrayBuffer compared by identity, without printing either). */
function isViewOf(part: Buffer, body: Buffer): boolean {
  return part.buffer === body.buffer;
}

/** Every part of `content`, in body order. */
function parts(content: SnapshotContent): Buffer[] {
  return [content.head, ...content.fragments, content.tail, ...content.diagnostics];
}

/** The body computed from scratch: what the assembled one must equal byte for byte. */
function freshBody(result: DiscoveryResult, generation: number): string {
  return `{"generation":${generation},${snapshotContent('/w', 'musepi', result).json.slice(1)}`;
}

/** Lets the current job end (a WeakRef holds its target until then), then collects. */
async function collect(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

describe('one copy of the body bytes', () => {
  it('re-points every kept part to a view of the assembled body, which owns its memory', () => {
    const result = resultOf();
    const content = new SnapshotSerializer().content('/w', 'musepi', result);
    const before = parts(content).map((part) => Buffer.from(part));
    const filtered = contentBody(content, 4, [0, 2]);
    const body = assembleBody(content, 4);

    assert.equal(body.toString('utf8'), freshBody(result, 4));
    assert.equal(body.byteOffset, 0);
    assert.equal(body.buffer.byteLength, body.length);
    const after = parts(content);
    assert.equal(after.length, names.length + 4);
    assert.deepEqual(
      after.filter((part) => part.buffer !== body.buffer),
      [],
    );
    assert.deepEqual(after, before);
    // Each view sits where the body holds its bytes: the parts joined as the body joins them give the body back.
    const skillsEnd = content.fragments.at(-1)!;
    assert.equal(content.tail.byteOffset, skillsEnd.byteOffset + skillsEnd.length);
    assert.equal(content.head.byteOffset, Buffer.byteLength('{"generation":4,'));
    assert.equal(content.diagnostics[1]!.byteOffset + content.diagnostics[1]!.length + 2, body.length);
    // A filtered body assembled from the views is the one assembled before them.
    assert.deepEqual(contentBody(content, 4, [0, 2]), filtered);
  });

  it('a small body is not a slab of the shared pool', () => {
    const content = new SnapshotSerializer().content('/w', 'musepi', discoveryResult([skillRecord('pdf')]));
    const body = assembleBody(content, 1);
    assert.ok(body.length < Buffer.poolSize);
    assert.equal(body.buffer.byteLength, body.length);
  });

  it('a reload starts from views of the previous body, and its own body leaves none of them', () => {
    const serializer = new SnapshotSerializer();
    const skills = names.map((name) => skillRecord(name));
    const first = serializer.content('/w', 'musepi', resultOf(skills));
    const firstBody = assembleBody(first, 1);

    const edited = [...skills];
    edited[CHUNK_SKILLS + 3] = skillRecord(names[CHUNK_SKILLS + 3]!, { description: 'edited "quoted" é' });
    const editedResult = resultOf(edited);
    const second = serializer.content('/w', 'musepi', editedResult);
    // Before its body exists the new content holds the previous body's views, plus the one new fragment.
    const own = second.fragments.filter((fragment) => fragment.buffer !== firstBody.buffer);
    assert.deepEqual(own, [Buffer.from(JSON.stringify(edited[CHUNK_SKILLS + 3]))]);
    assert.ok(isViewOf(second.head, firstBody));
    assert.ok(isViewOf(second.tail, firstBody));
    assert.ok(second.diagnostics.every((part) => isViewOf(part, firstBody)));

    const secondBody = assembleBody(second, 2);
    assert.equal(secondBody.toString('utf8'), freshBody(editedResult, 2));
    assert.ok(!isViewOf(secondBody, firstBody));
    assert.deepEqual(
      parts(second).filter((part) => part.buffer !== secondBody.buffer),
      [],
    );
    // The next reload reuses the second body's views, never the first's.
    const third = serializer.content('/w', 'musepi', { ...editedResult, skills: edited.slice(1) });
    assert.deepEqual(
      parts(third).filter((part) => part.buffer === firstBody.buffer),
      [],
    );
    assert.ok(isViewOf(third.head, secondBody));
    assert.equal(third.fragments.filter((fragment) => fragment.buffer === secondBody.buffer).length, names.length - 1);
  });

  it('records read again with equal content (a full rebuild) keep the bytes of the previous body', () => {
    const serializer = new SnapshotSerializer();
    const first = serializer.content('/w', 'musepi', resultOf());
    const firstBody = assembleBody(first, 1);
    // New objects for every record and diagnostic, one of them with other content.
    const reread = names.map((name, i) => skillRecord(name, i === 9 ? { description: 'changed' } : {}));
    const result = { ...resultOf(reread), diagnostics: diagnostics.map((diagnostic) => ({ ...diagnostic })) };
    const second = serializer.content('/w', 'musepi', result);
    assert.equal(second.hash, snapshotContent('/w', 'musepi', result).hash);
    assert.equal(contentBody(second, 2).toString('utf8'), freshBody(result, 2));
    const own = parts(second).filter((part) => !isViewOf(part, firstBody));
    assert.deepEqual(own, [Buffer.from(JSON.stringify(reread[9]))]);
    // The same content again through new objects: the hash of the first.
    const back = serializer.content('/w', 'musepi', resultOf(names.map((name) => skillRecord(name))));
    assert.equal(back.hash, first.hash);
  });

  it('items found far from where they were reuse their bytes, and equal a fresh serialisation', () => {
    const serializer = new SnapshotSerializer();
    const skills = names.map((name) => skillRecord(name));
    const first = serializer.content('/w', 'musepi', resultOf(skills));
    const firstBody = assembleBody(first, 1);
    // Ten skills gone in a row (a directory removed), then the list reversed: no item is within the look-ahead.
    // The ten skills removed first are not in the list the reversal follows: those ten are serialised anew.
    const variants: Array<[Skill[], number]> = [
      [[...skills.slice(0, 20), ...skills.slice(30)], names.length - 10],
      [[...skills].reverse(), names.length - 10],
    ];
    for (const [variant, reused] of variants) {
      const result = resultOf(variant);
      const content = serializer.content('/w', 'musepi', result);
      assert.equal(content.hash, snapshotContent('/w', 'musepi', result).hash);
      assert.equal(contentBody(content, 1).toString('utf8'), freshBody(result, 1));
      assert.equal(content.fragments.filter((fragment) => fragment.buffer === firstBody.buffer).length, reused);
    }
  });

  it('nothing keeps the Buffers the parts were before, nor the previous body, once the next body is built', async () => {
    const serializer = new SnapshotSerializer();
    const skills = names.map((name) => skillRecord(name));
    const result = resultOf(skills);
    let first: SnapshotContent | undefined = serializer.content('/w', 'musepi', result);
    const serialised = parts(first).map((part) => new WeakRef(part));
    let firstBody: Buffer | undefined = assembleBody(first, 1);
    await collect();
    // The records are alive (this test holds them) but the Buffers first made of them are not.
    assert.deepEqual(
      serialised.filter((ref) => ref.deref() !== undefined),
      [],
    );

    const firstBytes = new WeakRef(firstBody.buffer);
    const edited = [...skills];
    edited[7] = skillRecord(names[7]!, { description: 'edited' });
    const second = serializer.content('/w', 'musepi', resultOf(edited));
    first = undefined;
    firstBody = undefined;
    await collect();
    // Before the second body exists its content still needs the first body's bytes.
    assert.notEqual(firstBytes.deref(), undefined);
    const secondBody = assembleBody(second, 2);
    await collect();
    assert.equal(firstBytes.deref(), undefined);
    assert.equal(secondBody.length, Buffer.byteLength(freshBody(resultOf(edited), 2)));
    assert.equal(skills.length, names.length);
  });

  it('a snapshot assembles its body on the first request that needs it, from views, with the same bytes and tag', () => {
    const serializer = new SnapshotSerializer();
    const result = resultOf();
    const settings = defaultSettings();
    const content = serializer.content('/w', 'musepi', result);
    const snap = new WorkspaceSnapshot({ generation: 5, cwd: '/w', settings, result, content });
    const fresh = new WorkspaceSnapshot({ generation: 5, cwd: '/w', settings, result });
    const filtered = snap.answer({ q: 's000' });
    assert.equal(snap.answer().etag, fresh.answer().etag);
    assert.equal(snap.body.toString('utf8'), freshBody(result, 5));
    assert.deepEqual(snap.body, fresh.body);
    assert.ok(isViewOf(content.fragments[0]!, snap.body));
    assert.deepEqual(snap.answer({ q: 's000' }), filtered);
    assert.equal(JSON.parse(filtered.body.toString('utf8')).skills.length, 10);
  });
});
