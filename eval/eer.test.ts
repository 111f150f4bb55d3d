import { test } from 'node:test';
import assert from 'node:assert/strict';
import { equalErrorRate } from './eer.ts';

test('separable scores give 0, reversed ones 1', () => {
  assert.equal(equalErrorRate([0.9, 0.8], [0.1, 0.2]), 0);
  assert.equal(equalErrorRate([0.1, 0.2], [0.9, 0.8]), 1);
});

test('one pair on the wrong side of four gives 25 %', () => {
  assert.equal(equalErrorRate([0.9, 0.8, 0.7, 0.3], [0.1, 0.2, 0.4, 0.75]), 0.25);
});

test('tied scores cannot be split by a threshold', () => {
  assert.equal(equalErrorRate([0.5, 0.5], [0.5, 0.5]), 1);
  assert.ok(Number.isNaN(equalErrorRate([], [0.1])));
});
