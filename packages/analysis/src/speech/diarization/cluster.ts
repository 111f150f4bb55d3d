// Agglomerative clustering of speech windows by their GMM supervectors: each cluster pools the
// UBM statistics of its windows, so its supervector sharpens as it grows; the closest pair
// (cosine) is merged until the closest is farther than the threshold and at most `maxClusters`
// remain. This over-clusters on purpose; the count stage (speaker-count.ts) decides the final
// speaker count.
import { supervector, type Ubm, type UbmStats } from './ubm.ts';

export interface ClusterResult {
  labels: Int32Array; // cluster per item, 0..k-1
  k: number;
}

function pool(a: UbmStats, b: UbmStats): UbmStats {
  return { N: a.N.map((v, i) => v + b.N[i]!), F: a.F.map((v, i) => v + b.F[i]!) };
}

/**
 * `pitch[i]` is the median F0 of item i in semitones (NaN when unvoiced) and `weight[i]` its
 * voiced frames; a cluster's pitch is the weighted mean. The distance is 1 - cosine of the
 * supervectors plus `pitchWeight` per 6 semitones of pitch difference (an octave is 2 units).
 */
export function agglomerate(
  ubm: Ubm,
  items: UbmStats[],
  threshold: number,
  maxClusters = Infinity,
  pitch: number[] = [],
  weight: number[] = [],
  pitchWeight = 0,
  minClusters = 1,
): ClusterResult {
  const n = items.length;
  const labels = new Int32Array(n);
  if (n === 0) return { labels, k: 0 };
  const stats = items.slice();
  // Unit-length supervectors: the cosine is then one dot product (this loop is O(n^2) in the
  // number of windows).
  const unit = (v: ArrayLike<number>): Float64Array => {
    let q = 0;
    for (let d = 0; d < v.length; d++) q += v[d]! * v[d]!;
    const inv = q > 0 ? 1 / Math.sqrt(q) : 0;
    return Float64Array.from(v, (x) => x * inv);
  };
  const vectors = stats.map((s) => unit(supervector(ubm, s)));
  const dot = (a: Float64Array, b: Float64Array): number => {
    let t = 0;
    for (let d = 0; d < a.length; d++) t += a[d]! * b[d]!;
    return t;
  };
  const alive = new Uint8Array(n).fill(1);
  const owner = Int32Array.from({ length: n }, (_, i) => i);
  const dist = new Float64Array(n * n);
  const pitches = items.map((_, i) => pitch[i] ?? NaN);
  const weights = items.map((_, i) => weight[i] ?? 1);
  const distance = (a: number, b: number): number => {
    const dp = Math.abs(pitches[a]! - pitches[b]!);
    return 1 - dot(vectors[a]!, vectors[b]!) + (Number.isFinite(dp) ? (pitchWeight * dp) / 6 : 0);
  };
  let clusters = n;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) dist[i * n + j] = distance(i, j);
  // Nearest later neighbour of each row of the upper triangle, so that finding the closest pair
  // costs O(n) per merge instead of O(n^2); ties resolve exactly as a full row-major scan would
  // (lowest i, then lowest j).
  const nn = new Int32Array(n).fill(-1);
  const nnDist = new Float64Array(n).fill(Infinity);
  const scanRow = (i: number): void => {
    nn[i] = -1;
    nnDist[i] = Infinity;
    for (let j = i + 1; j < n; j++) {
      if (!alive[j]) continue;
      const d = dist[i * n + j]!;
      if (d < nnDist[i]!) {
        nnDist[i] = d;
        nn[i] = j;
      }
    }
  };
  for (let i = 0; i < n; i++) scanRow(i);
  while (clusters > Math.max(1, minClusters)) {
    let best = Infinity;
    let bi = -1;
    for (let i = 0; i < n; i++) {
      if (alive[i] && nnDist[i]! < best) {
        best = nnDist[i]!;
        bi = i;
      }
    }
    const bj = bi >= 0 ? nn[bi]! : -1;
    if (bi < 0 || bj < 0 || (best > threshold && clusters <= maxClusters)) break;
    stats[bi] = pool(stats[bi]!, stats[bj]!);
    vectors[bi] = unit(supervector(ubm, stats[bi]!));
    const pa = pitches[bi]!;
    const pb = pitches[bj]!;
    const wa = weights[bi]!;
    const wb = weights[bj]!;
    pitches[bi] = !Number.isFinite(pa) ? pb : !Number.isFinite(pb) ? pa : (pa * wa + pb * wb) / Math.max(1e-9, wa + wb);
    weights[bi] = wa + wb;
    alive[bj] = 0;
    clusters--;
    for (let x = 0; x < n; x++) if (owner[x] === bj) owner[x] = bi;
    for (let x = 0; x < n; x++) {
      if (!alive[x] || x === bi) continue;
      const d = distance(bi, x);
      dist[Math.min(x, bi) * n + Math.max(x, bi)] = d;
    }
    scanRow(bi);
    for (let x = 0; x < bi; x++) {
      if (!alive[x]) continue;
      if (nn[x] === bi || nn[x] === bj) scanRow(x);
      else {
        const d = dist[x * n + bi]!;
        if (d < nnDist[x]! || (d === nnDist[x]! && bi < nn[x]!)) {
          nnDist[x] = d;
          nn[x] = bi;
        }
      }
    }
    // Rows between bi and bj may have had bj as their nearest neighbour.
    for (let x = bi + 1; x < n; x++) if (alive[x] && nn[x] === bj) scanRow(x);
  }
  const remap = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const o = owner[i]!;
    if (!remap.has(o)) remap.set(o, remap.size);
    labels[i] = remap.get(o)!;
  }
  return { labels, k: remap.size };
}
