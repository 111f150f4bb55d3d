import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseByImpostors, viterbiEmissions } from './viterbi.ts';
import { bridgedPauses } from './speaker-frames.ts';

/** Two speakers; frames 0-39 favour speaker 0 by `margin`, frames 40-59 (a short turn) speaker 1. */
function scores(margin: number): Float32Array {
  const e = new Float32Array(60 * 2);
  for (let i = 0; i < 60; i++) e[i * 2 + (i < 40 ? 0 : 1)] = margin;
  return e;
}

test('a short turn is kept when its evidence outweighs the change cost, and at a pause it costs less', () => {
  const out = new Int16Array(60);
  const region = [{ start: 0, end: 60 }];
  // 20 frames x 1 = 20 < 60: the change is not worth it.
  viterbiEmissions(scores(1), 2, region, 60, out);
  assert.ok(out.every((s) => s === 0));
  // The same frames with a pause at 38-41 where a change costs 10: the turn is found.
  const pause = new Uint8Array(60);
  pause.fill(1, 38, 42);
  viterbiEmissions(scores(1), 2, region, 60, out, { frames: pause, penalty: 10 });
  assert.equal(out[10], 0);
  assert.equal(out[50], 1);
});

test('bridgedPauses marks runs of unmodelled frames inside a region, not at its edges or short ones', () => {
  const model = new Uint8Array(40).fill(1);
  model.fill(0, 0, 5); // leading: not a pause between speech
  model.fill(0, 10, 13); // 3 frames: too short
  model.fill(0, 20, 30); // a pause
  const p = bridgedPauses([{ start: 0, end: 40 }], model, 5);
  assert.deepEqual([...p.keys()].filter((i) => p[i]), [20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
});

test('normaliseByImpostors: each speaker\'s scores become z-scores over the other speakers\' frames', () => {
  // Speaker 0 owns frames 0-1, speaker 1 frames 2-3; frame 4 is not modelled.
  const e = Float32Array.from([5, 0, 7, 0, 1, 10, 3, 20, 99, 99]);
  const labels = Int16Array.from([0, 0, 1, 1, -1]);
  normaliseByImpostors(e, 2, Uint8Array.from([1, 1, 1, 1, 0]), labels);
  // Speaker 0's impostor frames (2, 3) scored 1 and 3: mean 2, spread 1.
  assert.deepEqual([e[0], e[2], e[4], e[6]], [3, 5, -1, 1]);
  // Speaker 1's impostor frames (0, 1) scored 0 and 0: a spread of zero is floored, not divided by.
  assert.ok(Number.isFinite(e[5]!) && e[5]! > 0);
  assert.deepEqual([e[8], e[9]], [99, 99], 'unmodelled frames are left alone');
});
