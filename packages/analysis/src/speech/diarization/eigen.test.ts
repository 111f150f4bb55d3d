import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symmetricEigenvalues } from './eigen.ts';
import { symmetricEigen } from './lda.ts';
import { seededRandom } from '../../behavior/stats.ts';

test('eigenvalues agree with the Jacobi solver on random symmetric matrices', () => {
  const rand = seededRandom(3);
  for (const n of [1, 2, 5, 17, 40]) {
    const m = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) m[i]![j] = m[j]![i] = rand() * 2 - 1;
    const a = Float64Array.from(m.flat());
    const ours = Array.from(symmetricEigenvalues(a, n));
    const ref = symmetricEigen(m).values.slice().sort((x, y) => x - y);
    ours.forEach((v, i) => assert.ok(Math.abs(v - ref[i]!) < 1e-9, `n=${n} value ${i}: ${v} vs ${ref[i]}`));
  }
});

test('a block-diagonal Laplacian has as many zero eigenvalues as blocks', () => {
  const n = 6;
  const a = new Float64Array(n * n);
  // Two blocks of three fully connected nodes: L = D - A.
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) if (i !== j && Math.floor(i / 3) === Math.floor(j / 3)) a[i * n + j] = -1;
  for (let i = 0; i < n; i++) a[i * n + i] = 2;
  const ev = symmetricEigenvalues(a, n);
  assert.ok(Math.abs(ev[0]!) < 1e-12 && Math.abs(ev[1]!) < 1e-12 && ev[2]! > 1);
});
