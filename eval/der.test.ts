import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreDiarization, type Seg } from './der.ts';
import { pairwiseIdentity } from './identity.ts';

const ref: Seg[] = [
  { speaker: 'A', start: 0, end: 10 },
  { speaker: 'B', start: 10, end: 20 },
];

test('perfect and relabelled hypotheses score 0', () => {
  assert.equal(scoreDiarization(ref, ref, 0).der, 0);
  const swapped = ref.map((s) => ({ ...s, speaker: s.speaker === 'A' ? '1' : '0' }));
  assert.equal(scoreDiarization(ref, swapped, 0).der, 0);
});

test('one speaker for everything is 50 % confusion; nothing is 100 % missed', () => {
  const r = scoreDiarization(ref, [{ speaker: 'x', start: 0, end: 20 }], 0);
  assert.ok(Math.abs(r.der! - 0.5) < 1e-9);
  assert.ok(Math.abs(r.confusion - 10) < 1e-9);
  const empty = scoreDiarization(ref, [], 0);
  assert.ok(Math.abs(empty.der! - 1) < 1e-9);
  assert.ok(Math.abs(empty.missed - 20) < 1e-9);
});

test('the collar forgives boundary errors; overlap counts per speaker', () => {
  const shifted = [
    { speaker: 'A', start: 0.2, end: 10.2 },
    { speaker: 'B', start: 10.2, end: 20 },
  ];
  assert.ok(scoreDiarization(ref, shifted, 0).der! > 0);
  assert.equal(scoreDiarization(ref, shifted, 0.25).der, 0);
  const overlapRef = [...ref, { speaker: 'C', start: 5, end: 10 }];
  const r = scoreDiarization(overlapRef, ref, 0);
  assert.ok(Math.abs(r.scored - 25) < 1e-9);
  assert.ok(Math.abs(r.missed - 5) < 1e-9);
  const fa = scoreDiarization(ref, [...ref, { speaker: 'Z', start: 25, end: 27 }], 0);
  assert.ok(Math.abs(fa.falseAlarm - 2) < 1e-9);
});

test('pairwise identity precision and recall', () => {
  const r = pairwiseIdentity([
    { file: 'f1', entity: 'E1', ref: 'a' },
    { file: 'f2', entity: 'E1', ref: 'a' },
    { file: 'f3', entity: 'E1', ref: 'b' },
    { file: 'f3', entity: 'E2', ref: 'a' },
  ]);
  // Cross-file pairs: (1,2) tp; (1,3) fp; (2,3) fp; (1,4) fn; (2,4) fn; (3,4) same file.
  assert.deepEqual([r.tp, r.fp, r.fn], [1, 2, 2]);
  assert.ok(Math.abs(r.precision! - 1 / 3) < 1e-9);
});
