// Small numeric helpers shared by the speech modules.

/** q-quantile (0..1) of the values, linear interpolation; null when empty. */
export function quantile(values: ArrayLike<number>, q: number): number | null {
  return values.length === 0 ? null : quantiles(values, [q])[0]!;
}

/** Several quantiles of the same values with one sort (the values are copied, not changed). */
export function quantiles(values: ArrayLike<number>, qs: readonly number[]): number[] {
  const n = values.length;
  if (n === 0) return qs.map(() => NaN);
  return quantilesInPlace(Float64Array.from(values as ArrayLike<number>), qs);
}

/**
 * quantiles() of values the caller owns: sorts them in place instead of copying (hot paths
 * fill a reused scratch buffer, so that long recordings do not allocate a copy per call).
 */
export function quantilesInPlace(values: Float64Array, qs: readonly number[]): number[] {
  const n = values.length;
  if (n === 0) return qs.map(() => NaN);
  const sorted = values.sort();
  return qs.map((q) => {
    const pos = Math.min(1, Math.max(0, q)) * (n - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(n - 1, lo + 1);
    return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
  });
}

export function mean(values: ArrayLike<number>): number | null {
  if (values.length === 0) return null;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s / values.length;
}

export function std(values: ArrayLike<number>): number | null {
  const m = mean(values);
  if (m === null) return null;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += (values[i]! - m) ** 2;
  return Math.sqrt(s / values.length);
}

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
