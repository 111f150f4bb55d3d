import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitLda, project, symmetricEigen } from './lda.ts';
import { prng } from '../synthetic.ts';

test('symmetricEigen recovers A = V diag(values) V^T, values descending, vectors orthonormal', () => {
  const a = [
    [4, 1, 0.5],
    [1, 3, 0.2],
    [0.5, 0.2, 1],
  ];
  const { values, vectors } = symmetricEigen(a);
  assert.ok(values[0]! >= values[1]! && values[1]! >= values[2]!);
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) {
      const rebuilt = values.reduce((s, v, k) => s + v * vectors[k]![r]! * vectors[k]![c]!, 0);
      assert.ok(Math.abs(rebuilt - a[r]![c]!) < 1e-9, `A[${r}][${c}]`);
      const dot = vectors[r]!.reduce((s, x, k) => s + x * vectors[c]![k]!, 0);
      assert.ok(Math.abs(dot - (r === c ? 1 : 0)) < 1e-9);
    }
});

test('fitLda keeps the direction that separates the classes and whitens their spread', () => {
  // Two classes apart along dimension 0 only; dimension 1 is loud noise common to both.
  const rand = prng(3);
  const gauss = (): number => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const vectors: Float64Array[] = [];
  const labels: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const c = i % 2;
    vectors.push(Float64Array.from([c * 2 + 0.5 * gauss(), 10 * gauss()]));
    labels.push(c);
  }
  const lda = fitLda(vectors, labels, 1, 0);
  const row = lda.rows[0]!;
  assert.ok(Math.abs(row[0]!) > 50 * Math.abs(row[1]!), `direction ${row}`);
  // Within one class the projection has unit variance; the class means are 2 / 0.5 = 4 apart.
  const proj = vectors.map((v) => project(lda, v)[0]!);
  const of = (c: number): number[] => proj.filter((_, i) => labels[i] === c);
  const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(mean(of(0).map((x) => (x - mean(of(0))) ** 2)));
  assert.ok(Math.abs(sd - 1) < 0.1, `within sd ${sd}`);
  assert.ok(Math.abs(Math.abs(mean(of(1)) - mean(of(0))) - 4) < 0.3);
});
