import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickThreshold, THRESHOLD_SWEEP } from './identity.ts';

test('pickThreshold takes the middle of the longest run at the best F1, not its first edge', () => {
  const f1 = [0.5, 0.8, 0.8, 0.8, 0.6, 0.8, 0.7];
  const sweep = f1.map((v, i) => ({ threshold: 0.3 + i / 10, f1: v }));
  assert.equal(pickThreshold(sweep).threshold, 0.5);
  // An even-length run: the lower of the two middle thresholds.
  assert.equal(pickThreshold([{ threshold: 0.3, f1: 0.9 }, { threshold: 0.4, f1: 0.9 }, { threshold: 0.5, f1: 0.1 }]).threshold, 0.3);
  assert.equal(pickThreshold([{ threshold: 0.3, f1: 0.1 }, { threshold: 0.4, f1: 0.2 }]).threshold, 0.4);
});

test('the threshold sweep is 0.30..0.99 in exact hundredths', () => {
  assert.equal(THRESHOLD_SWEEP.length, 70);
  assert.equal(THRESHOLD_SWEEP[0], 0.3);
  assert.equal(THRESHOLD_SWEEP[69], 0.99);
  assert.equal(THRESHOLD_SWEEP[41], 0.71);
});
