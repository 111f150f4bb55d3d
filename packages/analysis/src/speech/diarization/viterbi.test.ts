import { test } from 'node:test';
import assert from 'node:assert/strict';
import { viterbiEmissions } from './viterbi.ts';

/** Two speakers; frames 0-39 favour speaker 0 by `margin`, frames 40-59 (a short turn) speaker 1. */
function scores(margin: number): Float32Array {
  const e = new Float32Array(60 * 2);
  for (let i = 0; i < 60; i++) e[i * 2 + (i < 40 ? 0 : 1)] = margin;
  return e;
}

test('a short turn is kept when its evidence outweighs the change cost', () => {
  const out = new Int16Array(60);
  const region = [{ start: 0, end: 60 }];
  // 20 frames x 1 = 20 < 60: the change is not worth it.
  viterbiEmissions(scores(1), 2, region, 60, out);
  assert.ok(out.every((s) => s === 0));
  // 20 frames x 4 = 80 > 60: it is.
  viterbiEmissions(scores(4), 2, region, 60, out);
  assert.equal(out[10], 0);
  assert.equal(out[50], 1);
});
