import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vbx } from './vbx.ts';
import { seededRandom } from '../../behavior/stats.ts';

const OPTIONS = { fa: 0.3, fb: 10, maxIters: 20, initSmoothing: 7 };

/** `n` draws of each speaker mean (dimension 6, unit within-speaker noise, Box-Muller). */
function draws(means: number[][], n: number, seed = 1): { x: Float64Array[]; truth: number[] } {
  const rand = seededRandom(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const x: Float64Array[] = [];
  const truth: number[] = [];
  for (let k = 0; k < n; k++)
    means.forEach((m, s) => {
      x.push(Float64Array.from(m, (v) => v + gauss()));
      truth.push(s);
    });
  return { x, truth };
}

const PHI = [9, 9, 9, 9, 9, 9];

test('a voice the initial partition split in two is one again, and its spare speaker is gone', () => {
  const { x, truth } = draws([[4, 0, 0, 0, 0, 0], [0, 0, -4, 0, 0, 0]], 20);
  // The first voice's draws split in two halves, the second voice whole.
  const init = Int32Array.from(truth, (s, t) => (s === 0 ? (t < 20 ? 0 : 1) : 2));
  const { gamma, pi } = vbx(x, PHI, init, OPTIONS);
  const S = 3;
  const kept = [...pi].filter((p) => p > 1e-3).length;
  assert.equal(kept, 2);
  const label = (t: number): number => [0, 1, 2].reduce((b, s) => (gamma[t * S + s]! > gamma[t * S + b]! ? s : b), 0);
  for (let t = 0; t < x.length; t++) for (let u = 0; u < x.length; u++) assert.equal(label(t) === label(u), truth[t] === truth[u]);
});

test('two voices the partition put together stay apart where they start apart', () => {
  const { x, truth } = draws([[4, 0, 0, 0, 0, 0], [0, 0, -4, 0, 0, 0]], 20, 2);
  const init = Int32Array.from(truth);
  const { pi } = vbx(x, PHI, init, OPTIONS);
  assert.ok(pi[0]! > 0.4 && pi[1]! > 0.4, `both kept: ${[...pi].join(', ')}`);
});
