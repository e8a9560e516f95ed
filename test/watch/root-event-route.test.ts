import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { routeRootEvent } from '../../src/watch/root-event-route.js';
import type { WatchKey } from '../../src/watch/watch-signature.js';

/** What routeRootEvent asked for, in order; `namesEntries`: the watch's (none: no watch assigned yet). */
function route(event: string, path: string, namesEntries?: boolean): string[] {
  const calls: string[] = [];
  const show = (key: WatchKey) => `${key.kind} ${key.path}`;
  const watch =
    namesEntries === undefined ? null : { root: '/real', namesEntries, watchedPaths: () => 0, close: async () => {} };
  routeRootEvent(
    { real: '/real', aliases: new Set(['/one', '/two']), watch },
    event,
    path,
    {
      note: (noted, keys) => calls.push(`note ${noted} [${keys.map(show).join(', ')}]`),
      suspectEntry: (entry) => calls.push(`suspect ${entry}`),
    },
    (alias) => calls.push(`gone ${alias}`),
  );
  return calls;
}

describe('routeRootEvent', () => {
  const cases: Array<[string, string, string, string[]]> = [
    [
      'the skills directory itself changing: its listing, under each alias',
      'change',
      '/real',
      ['note /one [dir /one]', 'note /two [dir /two]'],
    ],
    [
      'the skills directory removed: its listing, and each alias gone',
      'unlinkDir',
      '/real',
      ['note /one [dir /one]', 'gone /one', 'note /two [dir /two]', 'gone /two'],
    ],
    [
      'an entry added: the listing and the entry',
      'addDir',
      '/real/pdf',
      ['note /one/pdf [dir /one, entry /one/pdf]', 'note /two/pdf [dir /two, entry /two/pdf]'],
    ],
    [
      'an entry removed: suspect (it may come back on the same inode), then the listing and the entry',
      'unlinkDir',
      '/real/pdf',
      [
        'suspect /one/pdf',
        'note /one/pdf [dir /one, entry /one/pdf]',
        'suspect /two/pdf',
        'note /two/pdf [dir /two, entry /two/pdf]',
      ],
    ],
    [
      'a SKILL.md written: the entry',
      'change',
      '/real/pdf/SKILL.md',
      ['note /one/pdf/SKILL.md [entry /one/pdf]', 'note /two/pdf/SKILL.md [entry /two/pdf]'],
    ],
    [
      'a SKILL.md removed: the entry, suspect',
      'unlink',
      '/real/pdf/SKILL.md',
      [
        'suspect /one/pdf',
        'note /one/pdf/SKILL.md [entry /one/pdf]',
        'suspect /two/pdf',
        'note /two/pdf/SKILL.md [entry /two/pdf]',
      ],
    ],
    ['another file of an entry: nothing discovery reads', 'change', '/real/pdf/notes.md', []],
    ['a SKILL.md two levels deep: nothing discovery reads', 'add', '/real/pdf/nested/SKILL.md', []],
  ];
  for (const [label, event, path, expected] of cases) {
    it(`${event} ${path}: ${label}`, () => {
      assert.deepEqual(route(event, path), expected);
      // chokidar's watch may drop entries in a burst: the same as before its watch is assigned.
      assert.deepEqual(route(event, path, false), expected);
    });
  }

  it("a watch that names every entry it sees come or go: an entry's event notes the entry alone", () => {
    assert.deepEqual(route('addDir', '/real/pdf', true), [
      'note /one/pdf [entry /one/pdf]',
      'note /two/pdf [entry /two/pdf]',
    ]);
    assert.deepEqual(route('unlinkDir', '/real/pdf', true), [
      'suspect /one/pdf',
      'note /one/pdf [entry /one/pdf]',
      'suspect /two/pdf',
      'note /two/pdf [entry /two/pdf]',
    ]);
    // The directory itself, and a SKILL.md, as with any watch.
    assert.deepEqual(route('change', '/real', true), route('change', '/real'));
    assert.deepEqual(route('change', '/real/pdf/SKILL.md', true), route('change', '/real/pdf/SKILL.md'));
  });
});
