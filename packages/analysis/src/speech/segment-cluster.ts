// Bottom-up clustering of speech segments by BIC (Chen & Gopalakrishnan 1998): every segment
// is a diagonal Gaussian over its standardised cepstra; the pair whose merge costs the least
// likelihood (delta-BIC) is merged, statistics pooled, until every merge would cost more than
// the BIC model-size penalty. The speaker count is where merging stops.

export interface DiagStats {
  n: number;
  sum: Float64Array;
  sq: Float64Array;
}

export function diagStats(cep: Float32Array, dims: number, start: number, end: number, mask?: Uint8Array): DiagStats {
  const sum = new Float64Array(dims);
  const sq = new Float64Array(dims);
  let n = 0;
  for (let i = start; i < end; i++) {
    if (mask && !mask[i]) continue;
    n++;
    for (let d = 0; d < dims; d++) {
      const v = cep[i * dims + d]!;
      sum[d] = sum[d]! + v;
      sq[d] = sq[d]! + v * v;
    }
  }
  return { n, sum, sq };
}

function pooled(a: DiagStats, b: DiagStats): DiagStats {
  return { n: a.n + b.n, sum: a.sum.map((v, d) => v + b.sum[d]!), sq: a.sq.map((v, d) => v + b.sq[d]!) };
}

/** n/2 * sum of log variances: the negative log-likelihood part that depends on the model. */
function cost(s: DiagStats): number {
  let c = 0;
  for (let d = 0; d < s.sum.length; d++) {
    const m = s.sum[d]! / s.n;
    c += Math.log(Math.max(1e-3, s.sq[d]! / s.n - m * m));
  }
  return 0.5 * s.n * c;
}

export function deltaBic(a: DiagStats, b: DiagStats, lambda: number): number {
  const p = pooled(a, b);
  const params = 2 * a.sum.length;
  return cost(p) - cost(a) - cost(b) - lambda * 0.5 * params * Math.log(p.n);
}

/** Returns a cluster label per segment (0..k-1 in input order of first appearance). */
export function bicCluster(segments: DiagStats[], lambda: number): Int32Array {
  const n = segments.length;
  const stats = segments.slice();
  const alive = new Uint8Array(n).fill(1);
  const owner = Int32Array.from({ length: n }, (_, i) => i);
  const dist = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) dist[i * n + j] = deltaBic(stats[i]!, stats[j]!, lambda);
  for (;;) {
    let best = 0;
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
    if (bi < 0) break;
    stats[bi] = pooled(stats[bi]!, stats[bj]!);
    alive[bj] = 0;
    for (let x = 0; x < n; x++) if (owner[x] === bj) owner[x] = bi;
    for (let x = 0; x < n; x++) {
      if (!alive[x] || x === bi) continue;
      const d = deltaBic(stats[Math.min(x, bi)]!, stats[Math.max(x, bi)]!, lambda);
      dist[Math.min(x, bi) * n + Math.max(x, bi)] = d;
    }
  }
  const remap = new Map<number, number>();
  return owner.map((o) => {
    if (!remap.has(o)) remap.set(o, remap.size);
    return remap.get(o)!;
  });
}
