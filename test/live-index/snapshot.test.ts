import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { snapshotContent, WorkspaceSnapshot } from '../../src/live-index/snapshot.js';
import { collisionRecord, discoveryResult, skillRecord } from '../helpers/skill-records.js';

function snapshot(generation: number, result = discoveryResult([skillRecord('pdf')])) {
  return new WorkspaceSnapshot({ generation, cwd: '/w', settings: defaultSettings(), result });
}

describe('WorkspaceSnapshot', () => {
  it('serialises the unfiltered /skills answer once, generation first', () => {
    const result = discoveryResult([skillRecord('pdf')], [{ skillPath: '', message: 'w' }], [collisionRecord('pdf')]);
    const snap = snapshot(3, result);
    assert.deepEqual(JSON.parse(snap.body.toString('utf8')), {
      generation: 3,
      profile: 'musepi',
      cwd: '/w',
      skills: result.skills,
      warnings: result.warnings,
      collisions: result.collisions,
      diagnostics: [],
    });
    assert.ok(snap.body.toString('utf8').startsWith('{"generation":3,"profile":"musepi","cwd":"/w","skills":['));
    assert.equal(snap.answer().body, snap.body);
    assert.equal(snap.answer({ hidden: true }).etag, snap.etag);
    assert.equal(snap.skill('pdf')?.name, 'pdf');
    assert.equal(snap.skill('PDF'), undefined);
    assert.equal(snap.collision('pdf')?.name, 'pdf');
  });

  it('keeps its ETag exactly while generation and content stay', () => {
    const a = snapshot(1);
    const b = snapshot(1);
    assert.match(a.etag, /^"1-[0-9a-f]{20}"$/);
    assert.equal(a.etag, b.etag);
    assert.notEqual(snapshot(2).etag, a.etag);
    // Same generation number, different content (a workspace reopened after eviction): a different tag.
    const other = snapshot(1, discoveryResult([skillRecord('docx')]));
    assert.notEqual(other.etag, a.etag);
    assert.equal(a.contentHash, snapshotContent('/w', 'musepi', discoveryResult([skillRecord('pdf')])).hash);
  });

  it('filters skills by hidden, provider, source id, level and text, keeping warnings and collisions whole', () => {
    const user = skillRecord('git-helper', { description: 'Git OPS' });
    user.source = { ...user.source, id: 'native:user', level: 'user' };
    const claude = skillRecord('review');
    claude.source = { ...claude.source, id: 'claude:project', provider: 'claude', providerName: 'Claude Code' };
    const hidden = skillRecord('secret', { hide: true });
    const result = discoveryResult([user, skillRecord('pdf'), claude, hidden], [{ skillPath: '', message: 'w' }]);
    const snap = snapshot(4, result);
    const names = (filter: Parameters<typeof snap.answer>[0]) =>
      (JSON.parse(snap.answer(filter).body.toString('utf8')) as { skills: { name: string }[] }).skills.map(
        (skill) => skill.name,
      );
    assert.deepEqual(names({ hidden: false }), ['git-helper', 'pdf', 'review']);
    assert.deepEqual(names({ provider: 'claude' }), ['review']);
    assert.deepEqual(names({ provider: 'native:user' }), ['git-helper']);
    assert.deepEqual(names({ level: 'user' }), ['git-helper']);
    assert.deepEqual(names({ q: 'git ops' }), ['git-helper']);
    assert.deepEqual(names({ q: 'PD' }), ['pdf']);
    assert.deepEqual(names({ level: 'project', hidden: false }), ['pdf', 'review']);
    const filtered = JSON.parse(snap.answer({ q: 'nothing' }).body.toString('utf8'));
    assert.equal(filtered.generation, 4);
    assert.deepEqual(filtered.warnings, [{ skillPath: '', message: 'w' }]);
    assert.deepEqual(filtered.skills, []);
  });

  it('gives every filter its own stable tag that moves with the generation', () => {
    const a = snapshot(1);
    const tag = a.answer({ q: 'pdf' }).etag;
    assert.match(tag, /^"1-[0-9a-f]{20}-[0-9a-f]{12}"$/);
    assert.equal(a.answer({ q: 'PDF' }).etag, tag);
    assert.equal(snapshot(1).answer({ q: 'pdf' }).etag, tag);
    assert.notEqual(a.answer({ q: 'pd' }).etag, tag);
    assert.notEqual(a.answer({ level: 'user' }).etag, tag);
    assert.notEqual(snapshot(2).answer({ q: 'pdf' }).etag, tag);
  });
});
