// Linear discriminant analysis for the window speaker embedding (window-embedding.ts): the math
// the offline training (training/train-speaker-lda.ts) uses, and the projection the engine runs.

export interface LinearProjection {
  /** Subtracted before projecting. */
  mean: number[];
  /** rows: output dimensions. */
  rows: number[][];
}

export function project(p: LinearProjection, v: ArrayLike<number>): Float64Array {
  const out = new Float64Array(p.rows.length);
  for (let r = 0; r < p.rows.length; r++) {
    const row = p.rows[r]!;
    let s = 0;
    for (let d = 0; d < row.length; d++) s += row[d]! * (v[d]! - p.mean[d]!);
    out[r] = s;
  }
  return out;
}

/** Eigen-decomposition of a symmetric matrix (cyclic Jacobi): values descending, vectors as rows. */
export function symmetricEigen(a: number[][]): { values: number[]; vectors: number[][] } {
  const n = a.length;
  const m = a.map((r) => r.slice());
  const v = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j): number => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += m[p]![q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = m[p]![q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (m[q]![q]! - m[p]![p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = m[k]![p]!;
          const akq = m[k]![q]!;
          m[k]![p] = c * akp - s * akq;
          m[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = m[p]![k]!;
          const aqk = m[q]![k]!;
          m[p]![k] = c * apk - s * aqk;
          m[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => m[y]![y]! - m[x]![x]!);
  return { values: order.map((i) => m[i]![i]!), vectors: order.map((i) => v.map((row) => row[i]!)) };
}

/**
 * LDA: whiten the within-class covariance (regularised by `shrink` times its mean variance), then
 * keep the `keep` principal directions of the class means in that space. The projected
 * within-class covariance is the identity, so cosine and Euclidean distances are meaningful.
 */
export function fitLda(vectors: Float64Array[], labels: number[], keep: number, shrink = 0.05): LinearProjection {
  const dims = vectors[0]!.length;
  const classes = new Map<number, { sum: Float64Array; n: number }>();
  const mean = new Float64Array(dims);
  vectors.forEach((v, i) => {
    const c = classes.get(labels[i]!) ?? { sum: new Float64Array(dims), n: 0 };
    for (let d = 0; d < dims; d++) {
      c.sum[d] = c.sum[d]! + v[d]!;
      mean[d] = mean[d]! + v[d]! / vectors.length;
    }
    c.n++;
    classes.set(labels[i]!, c);
  });
  const sw = Array.from({ length: dims }, () => new Array<number>(dims).fill(0));
  vectors.forEach((v, i) => {
    const c = classes.get(labels[i]!)!;
    for (let a = 0; a < dims; a++) {
      const da = v[a]! - c.sum[a]! / c.n;
      for (let b = a; b < dims; b++) sw[a]![b] = sw[a]![b]! + da * (v[b]! - c.sum[b]! / c.n);
    }
  });
  let trace = 0;
  for (let a = 0; a < dims; a++) {
    for (let b = a; b < dims; b++) sw[b]![a] = sw[a]![b] = sw[a]![b]! / vectors.length;
    trace += sw[a]![a]!;
  }
  for (let a = 0; a < dims; a++) sw[a]![a] = sw[a]![a]! + (shrink * trace) / dims;
  const { values, vectors: evec } = symmetricEigen(sw);
  // W = diag(1/sqrt(values)) * evec: whitening of the within-class covariance.
  const white = evec.map((row, r) => row.map((x) => x / Math.sqrt(Math.max(1e-12, values[r]!))));
  const sb = Array.from({ length: dims }, () => new Array<number>(dims).fill(0));
  for (const c of classes.values()) {
    const diff = Array.from({ length: dims }, (_, d) => c.sum[d]! / c.n - mean[d]!);
    const w = white.map((row) => row.reduce((s, x, d) => s + x * diff[d]!, 0));
    for (let a = 0; a < dims; a++) for (let b = 0; b < dims; b++) sb[a]![b] = sb[a]![b]! + (c.n / vectors.length) * w[a]! * w[b]!;
  }
  const between = symmetricEigen(sb);
  const rows = between.vectors.slice(0, keep).map((u) => Array.from({ length: dims }, (_, d) => white.reduce((s, row, r) => s + u[r]! * row[d]!, 0)));
  return { mean: Array.from(mean), rows };
}
