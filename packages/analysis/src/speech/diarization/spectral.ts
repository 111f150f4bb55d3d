// Spectral clustering with the count read off the eigengap of a pruned affinity (NME-SC: Park et
// al., "Auto-tuning spectral clustering for speaker diarization using normalized maximum
// eigengap", 2019). An alternative to the linkage's threshold (clustering.ts, `method`): the count
// needs no distance threshold, which is what the linkage's count leans on.
//
// The affinity is the cosine similarity of the items' embeddings; two items heard in one window
// are never neighbours. For each candidate p, every row keeps its p most similar items (1, others
// 0), the result is made symmetric, and the eigenvalues of its Laplacian are read: k clusters
// well apart show as k near-zero eigenvalues and a gap after them. The p whose largest gap,
// relative to the largest eigenvalue, is widest for the fewest neighbours (p / gap smallest) is
// kept; its gap gives the count (within the user's bounds), its eigenvectors the partition
// (k-means on their rows, normalised).
import { symmetricEigenvalues } from './eigen.ts';
import { symmetricEigen } from './lda.ts';
import { seededRandom } from '../../behavior/stats.ts';

export interface SpectralItem {
  embedding: Float64Array;
  groups: readonly number[];
}

/** The count and the partition (labels 0..k-1). */
export interface SpectralResult {
  k: number;
  labels: Int32Array;
}

function sharesGroup(a: readonly number[], b: readonly number[]): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) return true;
    if (a[i]! < b[j]!) i++;
    else j++;
  }
  return false;
}

function similarities(items: SpectralItem[]): Float64Array {
  const n = items.length;
  const unit = items.map(({ embedding: e }) => {
    let s = 0;
    for (const v of e) s += v * v;
    s = Math.sqrt(s) || 1;
    return e.map((v) => v / s);
  });
  const sim = new Float64Array(n * n).fill(-Infinity);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      if (sharesGroup(items[i]!.groups, items[j]!.groups)) continue;
      let dot = 0;
      const a = unit[i]!;
      const b = unit[j]!;
      for (let x = 0; x < a.length; x++) dot += a[x]! * b[x]!;
      sim[i * n + j] = dot;
      sim[j * n + i] = dot;
    }
  return sim;
}

/** The Laplacian of the affinity that keeps each row's `p` nearest items, made symmetric. */
function prunedLaplacian(sim: Float64Array, n: number, p: number): Float64Array {
  const a = new Float64Array(n * n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) order[j] = j;
    const row = sim.subarray(i * n, (i + 1) * n);
    const sorted = Array.from(order).sort((x, y) => row[y]! - row[x]!);
    for (let r = 0; r < p && r < n; r++) {
      const j = sorted[r]!;
      if (j === i || row[j] === -Infinity) continue;
      a[i * n + j] = a[i * n + j]! + 0.5;
      a[j * n + i] = a[j * n + i]! + 0.5;
    }
  }
  for (let i = 0; i < n; i++) {
    let deg = 0;
    for (let j = 0; j < n; j++) deg += a[i * n + j]!;
    for (let j = 0; j < n; j++) a[i * n + j] = -a[i * n + j]!;
    a[i * n + i] = deg;
  }
  return a;
}

/** The widest gap among the first eigenvalues, as a count within [lo, hi], and its size. */
function eigengap(values: Float64Array, lo: number, hi: number): { k: number; gap: number } {
  let k = lo;
  let gap = -Infinity;
  for (let c = lo; c <= hi && c < values.length; c++) {
    const g = values[c]! - values[c - 1]!;
    if (g > gap) {
      gap = g;
      k = c;
    }
  }
  return { k, gap };
}

/** k-means (k-means++ seeds, several restarts, the lowest inertia kept) on the rows of `x`. */
function kMeans(x: Float64Array[], k: number, restarts: number, seed: number): Int32Array {
  const n = x.length;
  const rand = seededRandom(seed);
  const dist = (a: Float64Array, b: Float64Array): number => {
    let s = 0;
    for (let d = 0; d < a.length; d++) s += (a[d]! - b[d]!) ** 2;
    return s;
  };
  let best = new Int32Array(n);
  let bestInertia = Infinity;
  for (let r = 0; r < restarts; r++) {
    const centres: Float64Array[] = [x[Math.floor(rand() * n)]!.slice()];
    while (centres.length < k) {
      const d2 = x.map((v) => Math.min(...centres.map((c) => dist(v, c))));
      const total = d2.reduce((s, v) => s + v, 0);
      let u = rand() * total;
      let pick = 0;
      while (pick < n - 1 && u > d2[pick]!) u -= d2[pick++]!;
      centres.push(x[pick]!.slice());
    }
    const labels = new Int32Array(n);
    let inertia = Infinity;
    for (let iter = 0; iter < 100; iter++) {
      let moved = false;
      inertia = 0;
      x.forEach((v, i) => {
        let c = 0;
        let dc = Infinity;
        centres.forEach((cen, j) => {
          const dd = dist(v, cen);
          if (dd < dc) {
            dc = dd;
            c = j;
          }
        });
        if (labels[i] !== c) moved = true;
        labels[i] = c;
        inertia += dc;
      });
      if (!moved && iter > 0) break;
      centres.forEach((cen, j) => {
        const sum = new Float64Array(cen.length);
        let count = 0;
        x.forEach((v, i) => {
          if (labels[i] !== j) return;
          count++;
          v.forEach((w, d) => (sum[d] = sum[d]! + w));
        });
        if (count > 0) centres[j] = sum.map((s) => s / count);
      });
    }
    if (inertia < bestInertia) {
      bestInertia = inertia;
      best = labels;
    }
  }
  return best;
}

/**
 * The count and partition of `items` by NME-SC, the count within [min, max] (and at most
 * `maxCount`). Items number a few hundred at most here: the eigenvectors come from the Jacobi
 * solver, O(n³) per sweep.
 */
export function spectralClusters(items: SpectralItem[], bounds: { min: number; max: number }, maxCount: number): SpectralResult {
  const n = items.length;
  const hi = Math.max(1, Math.min(bounds.max, maxCount, n - 1));
  const lo = Math.max(1, Math.min(bounds.min, hi));
  if (n < 3) return { k: Math.min(n, lo), labels: Int32Array.from({ length: n }, (_, i) => Math.min(i, lo - 1)) };
  const sim = similarities(items);
  const pMax = Math.max(2, Math.floor(n / 4));
  const step = Math.max(1, Math.floor(pMax / 25));
  let chosen = { p: 2, k: lo, ratio: Infinity };
  for (let p = 2; p <= pMax; p += step) {
    const values = symmetricEigenvalues(prunedLaplacian(sim, n, p), n);
    const { k, gap } = eigengap(values, lo, hi);
    const ratio = p / (gap / (values[n - 1]! + 1e-10));
    if (gap > 0 && ratio < chosen.ratio) chosen = { p, k, ratio };
  }
  const lap = prunedLaplacian(sim, n, chosen.p);
  const rows = Array.from({ length: n }, (_, i) => Array.from(lap.subarray(i * n, (i + 1) * n)));
  const { vectors } = symmetricEigen(rows); // descending: the last k are the smallest
  const k = chosen.k;
  const basis = vectors.slice(n - k);
  const x = Array.from({ length: n }, (_, i) => {
    const v = Float64Array.from(basis, (b) => b[i]!);
    const norm = Math.hypot(...v) || 1;
    return v.map((w) => w / norm);
  });
  return { k, labels: kMeans(x, k, 10, 1) };
}
