import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMember, parseTime } from './members.ts';

test('every member form maps to the request shape', () => {
  assert.deepEqual(parseMember('entity:ent_1', 'x'), { type: 'entity_id', entityId: 'ent_1' });
  assert.deepEqual(parseMember('media:med_1', 'x'), { type: 'media_target', mediaId: 'med_1', selector: { strategy: 'dominant' } });
  assert.deepEqual(parseMember('media:med_1:dominant', 'x').type, 'media_target');
  assert.deepEqual(parseMember('media:med_1:index=2', 'x'), { type: 'media_target', mediaId: 'med_1', selector: { strategy: 'speaker_index', speaker_index: 2 } });
  assert.deepEqual(parseMember('media:med_1:time=1:30-2:05.5', 'x'), {
    type: 'media_target', mediaId: 'med_1', selector: { strategy: 'timerange', timerange: { start_seconds: 90, end_seconds: 125.5 } },
  });
  assert.deepEqual(parseMember('media:m:time=-90', 'x'), { type: 'media_target', mediaId: 'm', selector: { strategy: 'timerange', timerange: { start_seconds: null, end_seconds: 90 } } });
  assert.deepEqual(parseMember('media:m:time=30-', 'x'), { type: 'media_target', mediaId: 'm', selector: { strategy: 'timerange', timerange: { start_seconds: 30, end_seconds: null } } });
  assert.deepEqual(parseMember('media:m:entity=ent_9', 'x'), { type: 'media_target', mediaId: 'm', selector: { strategy: 'entity_id', entity_id: 'ent_9' } });
  assert.deepEqual(parseMember('media:m:hint=the one speaking at 1:23', 'x'), { type: 'media_target', mediaId: 'm', selector: { strategy: 'magic_hint', hint: 'the one speaking at 1:23' } });
  assert.deepEqual(parseMember('media:m:index=0', 'x', 'fallback_dominant'), { type: 'media_target', mediaId: 'm', selector: { strategy: 'speaker_index', speaker_index: 0, on_miss: 'fallback_dominant' } });
});

test('bad members are usage errors that name the flag', () => {
  for (const bad of ['med_1', 'entity:', 'entity:a:b', 'media:', 'media:m:index=x', 'media:m:index=', 'media:m:time=5-2', 'media:m:time=a-b', 'media:m:speaker=1', 'media:m:hint']) {
    assert.throws(() => parseMember(bad, '--group #2'), (e: Error) => e.name === 'UsageError' && e.message.startsWith('--group #2'), bad);
  }
});

test('times are seconds or m:ss or h:mm:ss', () => {
  assert.equal(parseTime('90', 't'), 90);
  assert.equal(parseTime('1:02:03', 't'), 3723);
  assert.throws(() => parseTime('1m', 't'));
});
