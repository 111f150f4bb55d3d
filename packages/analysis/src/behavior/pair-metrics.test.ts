import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computePairInteraction } from './pair-metrics.ts';
import { makeMedia, turn } from './fixtures.testkit.ts';

test('pair interaction counts only the exchanges between the two', () => {
  // 0 → 1 (gap 0.4), 1 → 0 (interrupts, gap -1), 0 → 2 (third speaker), 2 → 1 (not 0's), 1 → 0 (gap 0.2).
  const m = makeMedia({
    durationSec: 40,
    turns: [
      turn(0, 0, 5), turn(1, 5.4, 10), turn(0, 9, 14, { interrupts: true }), turn(2, 14.5, 18),
      turn(1, 18.3, 25), turn(0, 25.2, 30),
    ],
  });
  const p = computePairInteraction([{ id: 'm', durationSec: 40, segments: m.segments, turns: m.turns, overlapMeasured: true, a: 0, b: 1 }]);
  assert.equal(p.responsesA, 2);
  assert.ok(Math.abs((p.medianGapA ?? 0) - (-1 + 0.2) / 2) < 1e-9);
  assert.equal(p.responsesB, 1);
  assert.ok(Math.abs((p.medianGapB ?? 0) - 0.4) < 1e-9);
  assert.equal(p.interruptionsA, 1);
  assert.equal(p.interruptionsB, 0);
  assert.equal(p.turnsA, 3);
  assert.equal(p.turnsB, 2);
  assert.ok(Math.abs(p.speechA - 14.8) < 1e-9);
});
