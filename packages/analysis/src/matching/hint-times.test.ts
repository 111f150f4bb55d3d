import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHintTimes } from './hint-times.ts';
import { normaliseHint } from './magic-hint.ts';

const p = (h: string) => parseHintTimes(normaliseHint(h));

test('time expressions become windows of media time', () => {
  assert.deepEqual(p('at 1:23'), { from: 81.5, to: 84.5 });
  assert.deepEqual(p('around 90 s'), { from: 85, to: 95 });
  assert.deepEqual(p('at 0:01:05'), { from: 63.5, to: 66.5 });
  assert.deepEqual(p('about 2 minutes'), { from: 115, to: 125 });
  assert.deepEqual(p('at 1m30s'), { from: 88.5, to: 91.5 });
  assert.deepEqual(p('between 2:00 and 1:00'), { from: 60, to: 120 });
  assert.deepEqual(p('at 0.5 seconds'), { from: 0, to: 2 });
  assert.equal(p('the second speaker'), null);
  assert.equal(p('the tall one'), null);
});
