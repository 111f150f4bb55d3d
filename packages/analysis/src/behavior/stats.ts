// Small numeric helpers shared by the behavior, matching and document modules.

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const hi = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? hi : ((sorted[mid - 1] ?? 0) + hi) / 2;
}

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function std(values: readonly number[]): number | null {
  const m = mean(values);
  if (m === null || values.length < 2) return null;
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1));
}

/** Pearson correlation; null when fewer than 3 pairs or a constant series. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 3) return null;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i += 1) {
    sx += xs[i] ?? 0;
    sy += ys[i] ?? 0;
  }
  const mx = sx / n;
  const my = sy / n;
  let cov = 0;
  let vx = 0;
  let vy = 0;
  for (let i = 0; i < n; i += 1) {
    const dx = (xs[i] ?? 0) - mx;
    const dy = (ys[i] ?? 0) - my;
    cov += dx * dy;
    vx += dx * dx;
    vy += dy * dy;
  }
  if (vx <= 1e-12 || vy <= 1e-12) return null;
  return cov / Math.sqrt(vx * vy);
}

export function clamp(value: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, value));
}

/** Deterministic PRNG (mulberry32) so that shuffled baselines give the same result every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}

export interface Interval {
  start: number;
  end: number;
}

/** Sorted, non-overlapping union of intervals. */
export function unionIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const iv of sorted) {
    const last = out[out.length - 1];
    if (last && iv.start <= last.end) last.end = Math.max(last.end, iv.end);
    else out.push({ start: iv.start, end: iv.end });
  }
  return out;
}

export function totalLength(intervals: readonly Interval[]): number {
  return intervals.reduce((s, i) => s + (i.end - i.start), 0);
}

/** Length of the intersection of two sorted unions. */
export function intersectionLength(a: readonly Interval[], b: readonly Interval[]): number {
  let i = 0;
  let j = 0;
  let total = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Interval;
    const y = b[j] as Interval;
    total += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
    if (x.end < y.end) i += 1;
    else j += 1;
  }
  return total;
}

/** Speech seconds of each speaker inside [from, to]. */
export function speechInRange(
  segments: readonly { speaker: number; start: number; end: number }[],
  speakerCount: number,
  from: number,
  to: number,
): number[] {
  const out = Array.from({ length: speakerCount }, () => 0);
  const perSpeaker = Array.from({ length: speakerCount }, (): Interval[] => []);
  for (const s of segments) perSpeaker[s.speaker]?.push({ start: Math.max(from, s.start), end: Math.min(to, s.end) });
  perSpeaker.forEach((ivs, k) => {
    out[k] = totalLength(unionIntervals(ivs));
  });
  return out;
}
