import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bestRule, flagged, scoreRule } from './count-certainty.ts';

const file = (ref: number, hyp: number, nearestPair: number | null, widestSplit: number | null) => ({ name: 'f', ref, hyp, count_evidence: { nearestPair, widestSplit } });

test('a count is flagged when its nearest pair is close or its widest split is wide', () => {
  assert.equal(flagged(file(2, 3, 1, 5), { near: 2, split: 10 }), true);
  assert.equal(flagged(file(2, 1, null, 30), { near: 2, split: 10 }), true);
  assert.equal(flagged(file(2, 2, 5, 5), { near: 2, split: 10 }), false);
  assert.equal(flagged({ name: 'g', ref: 2, hyp: 2, count_evidence: null }, { near: 99, split: 0 }), false);
});

test('bestRule flags the most wrong counts within the allowed share of right ones', () => {
  const files = [file(2, 3, 1, 5), file(3, 2, 9, 40), file(2, 2, 9, 5), file(2, 2, 8, 6), file(4, 4, 2.5, 7)];
  const grid = [0, 2, 3].flatMap((near) => [10, 30, Infinity].map((split) => ({ near, split })));
  const r = bestRule(files, grid, 0.34);
  const s = scoreRule(files, r);
  assert.equal(s.wrongFlagged, 2);
  assert.equal(s.rightFlagged, 0);
  assert.deepEqual(r, { near: 2, split: 10 });
});
