import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agglomerate } from './cluster.ts';
import { supervector, type Ubm, type UbmStats } from './ubm.ts';
import { cosineSimilarity } from '../stats.ts';
import { prng } from '../synthetic.ts';

const K = 4;
const D = 3;

function toyUbm(): Ubm {
  return {
    components: K,
    dims: D,
    weights: new Float64Array(K).fill(1 / K),
    means: new Float64Array(K * D),
    invVars: new Float64Array(K * D).fill(1),
    logConst: new Float64Array(K),
  };
}

/** The plain O(n^3) procedure the optimised one must reproduce: full scan for the closest pair. */
function reference(ubm: Ubm, items: UbmStats[], threshold: number, maxClusters: number, pitch: number[], weight: number[], pitchWeight: number): Int32Array {
  const n = items.length;
  const stats = items.map((s) => ({ N: Float64Array.from(s.N), F: Float64Array.from(s.F) }));
  const p = pitch.slice();
  const w = weight.slice();
  const alive = new Array<boolean>(n).fill(true);
  const owner = Array.from({ length: n }, (_, i) => i);
  const dist = (a: number, b: number): number => {
    const dp = Math.abs(p[a]! - p[b]!);
    return 1 - cosineSimilarity(supervector(ubm, stats[a]!), supervector(ubm, stats[b]!)) + (Number.isFinite(dp) ? (pitchWeight * dp) / 6 : 0);
  };
  let clusters = n;
  while (clusters > 1) {
    let best = Infinity;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++)
        if (alive[i] && alive[j] && dist(i, j) < best) [best, bi, bj] = [dist(i, j), i, j];
    if (bi < 0 || (best > threshold && clusters <= maxClusters)) break;
    stats[bi] = { N: stats[bi]!.N.map((v, c) => v + stats[bj]!.N[c]!), F: stats[bi]!.F.map((v, c) => v + stats[bj]!.F[c]!) };
    p[bi] = (p[bi]! * w[bi]! + p[bj]! * w[bj]!) / (w[bi]! + w[bj]!);
    w[bi] = w[bi]! + w[bj]!;
    alive[bj] = false;
    clusters--;
    for (let x = 0; x < n; x++) if (owner[x] === bj) owner[x] = bi;
  }
  const remap = new Map<number, number>();
  return Int32Array.from(owner, (o) => {
    if (!remap.has(o)) remap.set(o, remap.size);
    return remap.get(o)!;
  });
}

test('agglomerate with nearest-neighbour rows gives the same clusters as a full scan', () => {
  const ubm = toyUbm();
  for (const seed of [1, 2, 3, 4]) {
    const rnd = prng(seed);
    const n = 40;
    // Three groups of items with shifted means and pitches, plus noise.
    const items: UbmStats[] = [];
    const pitch: number[] = [];
    const weight: number[] = [];
    for (let i = 0; i < n; i++) {
      const g = i % 3;
      const N = Float64Array.from({ length: K }, () => 5 + 10 * rnd());
      const F = Float64Array.from({ length: K * D }, (_, x) => N[Math.floor(x / D)]! * ((g - 1) * 0.8 + (rnd() - 0.5)));
      items.push({ N, F });
      pitch.push(20 + 6 * g + rnd());
      weight.push(10 + Math.floor(20 * rnd()));
    }
    for (const [threshold, maxClusters] of [
      [0.5, 10],
      [0.2, Infinity],
      [2, 3],
    ] as const) {
      const got = agglomerate(ubm, items, threshold, maxClusters, pitch, weight, 1);
      const want = reference(ubm, items, threshold, maxClusters, pitch, weight, 1);
      assert.deepEqual(Array.from(got.labels), Array.from(want), `seed ${seed}, threshold ${threshold}`);
      assert.equal(got.k, new Set(want).size);
    }
  }
});
