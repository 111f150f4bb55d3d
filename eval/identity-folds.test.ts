// identity-folds.ts: a calibration fitted on some folds and scored on another (the functions the
// script composes), on hand-made voiceprints whose right answer is known.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { f1Of, fitScale, fitThreshold, identityCounts, type IdentityFile } from './identity-folds.ts';

const unit = { center: [0, 0, 0], scale: [1, 1, 1] };
/** Two files with the same two voices: A near (1, 0, 0), B near (0, 1, 0). */
function fold(noise: number): IdentityFile[] {
  return [
    { file: { name: 'x1', speakers: ['A', 'B'] }, raw: [[1, noise, 0], [noise, 1, 0]], toRef: [[0, 'A'], [1, 'B']] },
    { file: { name: 'x2', speakers: ['A', 'B'] }, raw: [[1, 0, noise], [0, 1, noise]], toRef: [[0, 'A'], [1, 'B']] },
  ];
}

describe('identity calibration across folds', () => {
  it('links each voice to itself across files at a threshold the voices pass, and to nothing above it', () => {
    assert.deepEqual(identityCounts(fold(0.2), { ...unit, threshold: 0.9 }), { tp: 2, fp: 0, fn: 0 });
    // Above every same-voice similarity: each appearance becomes its own entity, both links missed.
    assert.deepEqual(identityCounts(fold(0.2), { ...unit, threshold: 0.99 }), { tp: 0, fp: 0, fn: 2 });
    assert.equal(f1Of(identityCounts(fold(0.2), { ...unit, threshold: 0.9 })).f1, 1);
  });

  it('fits the threshold in the middle of the best plateau, between the two kinds of pair', () => {
    const t = fitThreshold([fold(0.2), fold(0.3)], unit.center, unit.scale);
    assert.ok(t > 0.4 && t < 0.96, `threshold ${t}`);
  });

  it('fits centre and scale as the mean and spread of every appearance', () => {
    const { center, scale } = fitScale([fold(0)]);
    assert.deepEqual(center, [0.5, 0.5, 0]);
    assert.deepEqual(scale, [0.5, 0.5, 1]); // a statistic that never varies keeps scale 1
  });
});
