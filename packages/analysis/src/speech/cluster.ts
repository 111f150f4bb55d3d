// Average-linkage agglomerative clustering on cosine distance, stopped at a distance threshold:
// the number of clusters (speakers) falls out of the threshold instead of being given.

export interface ClusterResult {
  labels: Int32Array; // cluster per item, 0..k-1
  k: number;
}

function normalise(v: Float64Array): Float64Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

/**
 * `items` are embeddings; `weights` how much speech each stands for (merging averages the
 * cluster embeddings weighted by it, i.e. centroid-like average linkage with a cheap update).
 */
export function agglomerate(items: Float64Array[], weights: number[], threshold: number, maxClusters = Infinity): ClusterResult {
  const n = items.length;
  const labels = new Int32Array(n);
  if (n === 0) return { labels, k: 0 };
  // Cluster state: summed (weighted) unit vectors; the distance is 1 - cosine of the sums.
  const sums = items.map((v, i) => normalise(v).map((x) => x * (weights[i] ?? 1)));
  const alive = new Uint8Array(n).fill(1);
  const owner = Array.from({ length: n }, (_, i) => i);
  const dist = new Float64Array(n * n);
  let clusters = n;
  const cos = (a: Float64Array, b: Float64Array): number => {
    let d = 0;
    let na = 0;
    let nb = 0;
    for (let i = 0; i < a.length; i++) {
      d += a[i]! * b[i]!;
      na += a[i]! * a[i]!;
      nb += b[i]! * b[i]!;
    }
    return na > 0 && nb > 0 ? d / Math.sqrt(na * nb) : 0;
  };
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) dist[i * n + j] = dist[j * n + i] = 1 - cos(sums[i]!, sums[j]!);
  for (;;) {
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
    clusters--;
    const si = sums[bi]!;
    const sj = sums[bj]!;
    for (let d = 0; d < si.length; d++) si[d] = si[d]! + sj[d]!;
    alive[bj] = 0;
    for (let x = 0; x < n; x++) if (owner[x] === bj) owner[x] = bi;
    for (let x = 0; x < n; x++) {
      if (!alive[x] || x === bi) continue;
      dist[bi * n + x] = dist[x * n + bi] = 1 - cos(si, sums[x]!);
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
