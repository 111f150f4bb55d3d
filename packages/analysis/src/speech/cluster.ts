// Agglomerative clustering of speech windows by their GMM supervectors: each cluster pools the
// UBM statistics of its windows, so its supervector sharpens as it grows; the closest pair
// (cosine) is merged until the closest is farther than the threshold and at most `maxClusters`
// remain. This over-clusters on purpose; the cross-likelihood merging stage in diarize.ts
// decides the final speaker count.
import { cosineSimilarity } from './stats.ts';
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
): ClusterResult {
  const n = items.length;
  const labels = new Int32Array(n);
  if (n === 0) return { labels, k: 0 };
  const stats = items.slice();
  const vectors = stats.map((s) => supervector(ubm, s));
  const alive = new Uint8Array(n).fill(1);
  const owner = Int32Array.from({ length: n }, (_, i) => i);
  const dist = new Float64Array(n * n);
  const pitches = items.map((_, i) => pitch[i] ?? NaN);
  const weights = items.map((_, i) => weight[i] ?? 1);
  const distance = (a: number, b: number): number => {
    const dp = Math.abs(pitches[a]! - pitches[b]!);
    return 1 - cosineSimilarity(vectors[a]!, vectors[b]!) + (Number.isFinite(dp) ? (pitchWeight * dp) / 6 : 0);
  };
  let clusters = n;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) dist[i * n + j] = distance(i, j);
  while (clusters > 1) {
    let best = Infinity;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < n; i++) {
      if (!alive[i]) continue;
      for (let j = i + 1; j < n; j++) {
        if (!alive[j]) continue;
        const d = dist[i * n + j]!;
        if (d < best) {
          best = d;
          bi = i;
          bj = j;
        }
      }
    }
    if (bi < 0 || (best > threshold && clusters <= maxClusters)) break;
    stats[bi] = pool(stats[bi]!, stats[bj]!);
    vectors[bi] = supervector(ubm, stats[bi]!);
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
  }
  const remap = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const o = owner[i]!;
    if (!remap.has(o)) remap.set(o, remap.size);
    labels[i] = remap.get(o)!;
  }
  return { labels, k: remap.size };
}
