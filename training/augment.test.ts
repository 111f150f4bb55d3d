import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activePower, addNoise, reverberate } from './augment.ts';

function signal(n: number): Float32Array {
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = Math.sin(i * 0.05) * (i % 3000 < 1500 ? 1 : 0.01);
  return x;
}

test('reverberate is a convolution, level kept', () => {
  const x = signal(40000);
  const rir = new Float32Array(3000);
  rir[0] = 1;
  rir[700] = 0.5;
  rir[2999] = -0.25;
  const y = reverberate(x, rir);
  const direct = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    let s = x[i]!;
    if (i >= 700) s += 0.5 * x[i - 700]!;
    if (i >= 2999) s -= 0.25 * x[i - 2999]!;
    direct[i] = s;
  }
  const g = Math.sqrt(activePower(x) / activePower(direct));
  for (let i = 0; i < x.length; i += 97) assert.ok(Math.abs(y[i]! - g * direct[i]!) < 1e-4, `sample ${i}`);
  assert.ok(Math.abs(activePower(y) / activePower(x) - 1) < 1e-6);
});

test('addNoise mixes at the asked signal-to-noise ratio', () => {
  const x = signal(32000);
  const clean = x.slice();
  const noise = new Float32Array(5000);
  let seed = 7;
  for (let i = 0; i < noise.length; i++) noise[i] = ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  addNoise(x, noise, 10, () => 0.3);
  let pn = 0;
  for (let i = 0; i < x.length; i++) pn += (x[i]! - clean[i]!) ** 2;
  pn /= x.length;
  const snr = 10 * Math.log10(activePower(clean) / pn);
  assert.ok(Math.abs(snr - 10) < 0.2, `snr ${snr}`);
});
