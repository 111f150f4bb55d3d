import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitAtPauses } from './validation-corpus.ts';

const SR = 16000;

/** A tone with silent stretches at the given seconds (each 0.2 s long). */
function toneWithPauses(sec: number, pauses: number[]): Float32Array {
  const x = new Float32Array(sec * SR);
  for (let i = 0; i < x.length; i++) x[i] = 0.3 * Math.sin((2 * Math.PI * 200 * i) / SR);
  for (const p of pauses) x.fill(0, p * SR, (p + 0.2) * SR);
  return x;
}

test('a long recording is cut in its pauses into pieces of at most the limit', () => {
  const x = toneWithPauses(24, [7, 15]);
  const pieces = splitAtPauses(x, 10);
  assert.equal(pieces.reduce((a, p) => a + p.length, 0), x.length);
  assert.ok(pieces.every((p) => p.length <= 10 * SR));
  // The cuts fall inside the silent stretches.
  let at = 0;
  for (const p of pieces.slice(0, -1)) {
    at += p.length;
    assert.ok([7, 15].some((s) => at >= s * SR && at <= (s + 0.2) * SR), `cut at ${at / SR} s`);
  }
});

test('a short recording is left whole', () => {
  const x = toneWithPauses(8, [4]);
  assert.deepEqual(splitAtPauses(x, 10), [x]);
});
