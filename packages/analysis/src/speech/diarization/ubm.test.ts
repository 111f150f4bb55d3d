import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trainUbm } from './ubm.ts';

/** Two well-separated 2-D clouds, 40 frames each, interleaved. */
function twoClouds(): Float32Array {
  const x = new Float32Array(80 * 2);
  for (let i = 0; i < 80; i++) {
    const centre = i % 2 === 0 ? -3 : 3;
    x[i * 2] = centre + Math.sin(i * 1.7) * 0.3;
    x[i * 2 + 1] = centre + Math.cos(i * 2.3) * 0.3;
  }
  return x;
}

test('the UBM finds both clouds from seeds at any phase, the last frame included', () => {
  const frames = Int32Array.from({ length: 80 }, (_, i) => i);
  for (const phase of [0, 0.5, 0.99, 1]) {
    const ubm = trainUbm(twoClouds(), 2, frames, 2, 8, phase);
    const m = Array.from(ubm.means).map((v) => Math.round(v));
    assert.ok(m.every(Number.isFinite), `phase ${phase}`);
    assert.deepEqual([m[0]! + m[2]!, m[1]! + m[3]!], [0, 0], `phase ${phase}: one component per cloud`);
  }
});
