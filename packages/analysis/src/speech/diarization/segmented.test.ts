import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evenlySpread } from './segmented.ts';

test('past the clustering cap, local speakers are taken evenly over the recording, the first included', () => {
  const items = Array.from({ length: 10 }, (_, i) => i);
  assert.deepEqual(evenlySpread(items, 20), items);
  assert.deepEqual(evenlySpread(items, 5), [0, 2, 4, 6, 8]);
  assert.deepEqual(evenlySpread(items, 3), [0, 3, 6]);
  assert.equal(new Set(evenlySpread(Array.from({ length: 10_000 }, (_, i) => i), 3000)).size, 3000);
});
