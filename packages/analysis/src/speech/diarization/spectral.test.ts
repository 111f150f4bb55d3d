import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spectralClusters, type SpectralItem } from './spectral.ts';
import { seededRandom } from '../../behavior/stats.ts';

/** `n` items near each of the given directions (dimension 16), one window each. */
function voices(centres: number[], n: number, noise: number, seed = 2): { items: SpectralItem[]; truth: number[] } {
  const rand = seededRandom(seed);
  const items: SpectralItem[] = [];
  const truth: number[] = [];
  let w = 0;
  for (let k = 0; k < n; k++)
    centres.forEach((c, v) => {
      items.push({ embedding: Float64Array.from({ length: 16 }, (_, d) => (d === c ? 1 : 0) + noise * (rand() * 2 - 1)), groups: [w++] });
      truth.push(v);
    });
  return { items, truth };
}

const samePartition = (labels: Int32Array, truth: number[]): boolean =>
  truth.every((t, i) => truth.every((u, j) => (labels[i] === labels[j]) === (t === u)));

test('the eigengap counts the voices and the partition separates them', () => {
  for (const centres of [[0, 5], [0, 4, 9], [1, 3, 6, 10, 14]]) {
    const { items, truth } = voices(centres, 12, 0.35);
    const r = spectralClusters(items, { min: 1, max: Infinity }, 8);
    assert.equal(r.k, centres.length, `${centres.length} voices`);
    assert.ok(samePartition(r.labels, truth));
  }
});

test("the user's bounds hold the count", () => {
  const { items } = voices([0, 4, 9], 12, 0.35);
  assert.equal(spectralClusters(items, { min: 2, max: 2 }, 8).k, 2);
  const k = spectralClusters(items, { min: 4, max: 6 }, 8).k;
  assert.ok(k >= 4 && k <= 6, `${k} speakers`);
});

test('items heard in one window are never neighbours', () => {
  // Two voices close together, every window holds one item of each.
  const rand = seededRandom(5);
  const items: SpectralItem[] = [];
  const near = (c: number): Float64Array => Float64Array.from({ length: 8 }, (_, d) => (d === c ? 1 : d === 0 ? 0.8 : 0) + 0.2 * (rand() * 2 - 1));
  for (let w = 0; w < 12; w++) items.push({ embedding: near(0), groups: [w] }, { embedding: near(1), groups: [w] });
  const r = spectralClusters(items, { min: 1, max: Infinity }, 8);
  assert.equal(r.k, 2);
  for (let w = 0; w < 10; w++) assert.notEqual(r.labels[2 * w], r.labels[2 * w + 1]);
});
