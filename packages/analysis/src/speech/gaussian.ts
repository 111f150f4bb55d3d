// Full-covariance Gaussian statistics of feature frames, for the merge criterion between speaker
// clusters: the generalised likelihood ratio (GLR) of modelling two clusters with one Gaussian
// versus two, per frame, and its BIC-penalised form.

export interface GaussStats {
  n: number;
  dims: number;
  sum: Float64Array; // dims
  outer: Float64Array; // dims * dims
}

export function emptyStats(dims: number): GaussStats {
  return { n: 0, dims, sum: new Float64Array(dims), outer: new Float64Array(dims * dims) };
}

export function addFrame(s: GaussStats, x: Float32Array, offset: number): void {
  const d = s.dims;
  s.n++;
  for (let a = 0; a < d; a++) {
    const va = x[offset + a]!;
    s.sum[a] = s.sum[a]! + va;
    for (let b = a; b < d; b++) s.outer[a * d + b] = s.outer[a * d + b]! + va * x[offset + b]!;
  }
}

export function mergeStats(p: GaussStats, q: GaussStats): GaussStats {
  const out = emptyStats(p.dims);
  out.n = p.n + q.n;
  for (let i = 0; i < p.sum.length; i++) out.sum[i] = p.sum[i]! + q.sum[i]!;
  for (let i = 0; i < p.outer.length; i++) out.outer[i] = p.outer[i]! + q.outer[i]!;
  return out;
}

/** log-determinant of the covariance (Cholesky), with a small ridge for stability. */
export function logDetCov(s: GaussStats): number {
  const d = s.dims;
  const n = Math.max(1, s.n);
  const c = new Float64Array(d * d);
  for (let a = 0; a < d; a++)
    for (let b = a; b < d; b++) {
      const v = s.outer[a * d + b]! / n - (s.sum[a]! / n) * (s.sum[b]! / n);
      c[a * d + b] = v;
      c[b * d + a] = v;
    }
  for (let a = 0; a < d; a++) c[a * d + a] = c[a * d + a]! + 1e-3;
  let logDet = 0;
  for (let j = 0; j < d; j++) {
    let diag = c[j * d + j]!;
    for (let k = 0; k < j; k++) diag -= c[j * d + k]! ** 2;
    if (diag <= 1e-12) diag = 1e-12;
    const l = Math.sqrt(diag);
    c[j * d + j] = l;
    logDet += 2 * Math.log(l);
    for (let i = j + 1; i < d; i++) {
      let v = c[i * d + j]!;
      for (let k = 0; k < j; k++) v -= c[i * d + k]! * c[j * d + k]!;
      c[i * d + j] = v / l;
    }
  }
  return logDet;
}

/** Per-frame GLR distance: how much likelier two Gaussians are than one, per merged frame. */
export function glrPerFrame(p: GaussStats, q: GaussStats): number {
  const m = mergeStats(p, q);
  return (m.n * logDetCov(m) - p.n * logDetCov(p) - q.n * logDetCov(q)) / (2 * m.n);
}
