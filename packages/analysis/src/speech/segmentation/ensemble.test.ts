import test from 'node:test';
import assert from 'node:assert/strict';
import { ensembleSegmentation } from './ensemble.ts';
import { POWERSET_3_2, type SegmentationModel, type SegmentationSpec } from './model.ts';

const SPEC: SegmentationSpec = {
  name: 'fixed',
  input: { name: 'fbank', features: 'fbank', bins: 2 },
  output: { name: 'log_probs', values: 'log-probabilities' },
  windowSec: 2,
  frameStepSec: 0.5,
  frameDurationSec: 0.5,
  classes: 'powerset-3-2',
};

/** A network that answers fixed per-frame classes (log-probabilities, nearly one-hot), for every window of the batch. */
function fixed(name: string, masks: number[], spec: SegmentationSpec = SPEC): SegmentationModel {
  const C = POWERSET_3_2.length;
  return {
    name,
    spec,
    speakers: 3,
    classes: C,
    windowFrames: 200,
    fbank: null,
    run: (_x, batch) => {
      const data = new Float32Array(batch * masks.length * C);
      for (let b = 0; b < batch; b++)
        masks.forEach((mask, t) => {
          for (let c = 0; c < C; c++) data[(b * masks.length + t) * C + c] = Math.log(POWERSET_3_2[c] === mask ? 0.94 : 0.01);
        });
      return { data, frames: masks.length };
    },
  };
}

const classesOf = (m: SegmentationModel): number[] => {
  const { data, frames } = m.run(new Float32Array(4), 2, 2);
  const C = POWERSET_3_2.length;
  return Array.from({ length: 2 * frames }, (_, r) => {
    let best = 0;
    for (let c = 1; c < C; c++) if (data[r * C + c]! > data[r * C + best]!) best = c;
    return POWERSET_3_2[best]!;
  });
};

test('one network is its own ensemble', () => {
  const a = fixed('a', [0b001, 0b010]);
  assert.equal(ensembleSegmentation([a]), a);
  assert.throws(() => ensembleSegmentation([]), /at least one/);
});

test('a network whose local speakers come in another order is aligned before averaging: the same classes come out', () => {
  // Speaker 1 alone, then 1 and 2 together, then 2, then 3: in b, speakers 1->3, 2->1, 3->2.
  const a = fixed('a', [0b001, 0b011, 0b010, 0b100]);
  const b = fixed('b', [0b100, 0b101, 0b001, 0b010]);
  const both = ensembleSegmentation([a, b]);
  assert.deepEqual(classesOf(both), [...classesOf(a)]);
  const { data } = both.run(new Float32Array(4), 2, 2);
  // Aligned, the two agree, so the mean keeps the first network's probabilities.
  assert.ok(Math.abs(Math.exp(data[0 * 7 + POWERSET_3_2.indexOf(0b001)]!) - 0.94) < 1e-5);
  assert.match(both.name, /^ensemble of 2: a; b$/);
});

test('where two aligned networks disagree, the mean of their probabilities decides, and a third settles a tie', () => {
  const a = fixed('a', [0b001, 0b001, 0b010, 0b010]);
  const b = fixed('b', [0b001, 0b011, 0b010, 0b010]);
  const c = fixed('c', [0b001, 0b011, 0b010, 0b010]);
  assert.deepEqual(classesOf(ensembleSegmentation([a, b, c])).slice(0, 4), [0b001, 0b011, 0b010, 0b010]);
});

test('networks of different shapes are refused', () => {
  const a = fixed('a', [0b001]);
  assert.throws(() => ensembleSegmentation([a, fixed('b', [0b001], { ...SPEC, frameStepSec: 0.25 })]), /one shape/);
  assert.throws(() => ensembleSegmentation([a, fixed('c', [0b001], { ...SPEC, classes: 'multilabel-3' })]), /one shape/);
});
