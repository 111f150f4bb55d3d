import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partitionFit, type EmbeddedWindows } from './partition-fit.ts';
import { seededRandom } from '../../behavior/stats.ts';

// Two voices, 20 windows each of 100 frames, embedded around means 6 units apart with unit
// within-voice spread (as the whitened embedding is meant to be).
function twoVoices(): { w: EmbeddedWindows; truth: Int16Array; model: Uint8Array } {
  const rand = seededRandom(7);
  const gauss = (): number => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const D = 4;
  const n = 40;
  const vectors = new Float64Array(n * D);
  const truth = new Int16Array(n * 100);
  for (let x = 0; x < n; x++) {
    const voice = x % 2;
    for (let d = 0; d < D; d++) vectors[x * D + d] = (voice && d === 0 ? 6 : 0) + gauss();
    truth.fill(voice, x * 100, (x + 1) * 100);
  }
  const w: EmbeddedWindows = { start: Int32Array.from({ length: n }, (_, x) => x * 100), end: Int32Array.from({ length: n }, (_, x) => (x + 1) * 100), vectors, dims: D };
  return { w, truth, model: new Uint8Array(n * 100).fill(1) };
}

test('the true speakers fit better than the two voices joined or split at random', () => {
  const { w, truth, model } = twoVoices();
  const right = partitionFit(w, model, truth, 2)!;
  const joined = partitionFit(w, model, new Int16Array(truth.length), 1)!;
  const shuffled = Int16Array.from(truth, (_, i) => Math.floor(i / 100) % 4 < 2 ? 0 : 1);
  assert.ok(right > joined, `${right} vs joined ${joined}`);
  assert.ok(right > partitionFit(w, model, shuffled, 2)!);
});

test('windows that two speakers share count for neither', () => {
  const { w, truth, model } = twoVoices();
  // Every window's second half given to the other speaker: no window is pure.
  const mixed = Int16Array.from(truth, (s, i) => (i % 100 < 50 ? s : 1 - s));
  assert.equal(partitionFit(w, model, mixed, 2), null);
  assert.equal(partitionFit(w, model, new Int16Array(truth.length).fill(-1), 0), null);
});
