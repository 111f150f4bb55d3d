// The user's minimum speaker count, met after the evidence has spoken (decisions §15: an exact
// hint gives exactly that many speakers whenever the speech holds that many stretches long enough
// to tell apart). Resegmentation drops a speaker whose model no frame prefers, so a recording
// can come out of the count stage with fewer speakers than the user said are there. Then the
// speaker with the most speech is split in two by its runs' window embeddings (two-means, each
// run kept whole), again and again, until the minimum is met or no speaker has two runs the
// embedding can tell apart. What cannot be met is reported by the analysis (hint_not_met).
import type { RangeEmbedder } from './window-embedding.ts';

export interface Run {
  start: number;
  end: number;
  e: Float64Array;
}

/** The runs of speaker `s` (maximal stretches of its frames) of at least `minFrames` that the embedding can describe. */
export function speakerRuns(frameSpeaker: Int16Array, s: number, emb: RangeEmbedder, minFrames = 0): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < frameSpeaker.length; ) {
    if (frameSpeaker[i] !== s) {
      i++;
      continue;
    }
    let j = i;
    while (j < frameSpeaker.length && frameSpeaker[j] === s) j++;
    const e = j - i >= minFrames ? emb.embed(i, j) : null;
    if (e) runs.push({ start: i, end: j, e });
    i = j;
  }
  return runs;
}

function dist2(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let x = 0; x < a.length; x++) d += (a[x]! - b[x]!) ** 2;
  return d;
}

function centroid(runs: Run[], dims: number): Float64Array {
  const c = new Float64Array(dims);
  let w = 0;
  for (const r of runs) {
    const n = r.end - r.start;
    for (let d = 0; d < dims; d++) c[d] = c[d]! + n * r.e[d]!;
    w += n;
  }
  for (let d = 0; d < dims; d++) c[d] = c[d]! / Math.max(1, w);
  return c;
}

/** Two groups of runs by two-means, seeded with the two runs furthest apart; null under two runs. */
export function splitRuns(runs: Run[], dims: number): [Run[], Run[]] | null {
  if (runs.length < 2) return null;
  let a = 0;
  let b = 1;
  let far = -1;
  for (let i = 0; i < runs.length; i++)
    for (let j = i + 1; j < runs.length; j++) {
      const d = dist2(runs[i]!.e, runs[j]!.e);
      if (d > far) [far, a, b] = [d, i, j];
    }
  let ca = runs[a]!.e;
  let cb = runs[b]!.e;
  let side = runs.map((r) => dist2(r.e, cb) < dist2(r.e, ca));
  for (let it = 0; it < 10; it++) {
    const A = runs.filter((_, i) => !side[i]);
    const B = runs.filter((_, i) => side[i]);
    if (A.length === 0 || B.length === 0) break;
    ca = centroid(A, dims);
    cb = centroid(B, dims);
    const next = runs.map((r) => dist2(r.e, cb) < dist2(r.e, ca));
    if (next.every((v, i) => v === side[i])) break;
    side = next;
  }
  const A = runs.filter((_, i) => !side[i]);
  const B = runs.filter((_, i) => side[i]);
  return A.length > 0 && B.length > 0 ? [A, B] : null;
}

/**
 * Splits speakers of `frameSpeaker` (0..k-1) in place until there are `min`, largest first;
 * returns the new count (k when nothing could be split).
 */
export function splitToMinimum(frameSpeaker: Int16Array, k: number, min: number, emb: RangeEmbedder | null): number {
  if (!emb) return k;
  const tried = new Set<number>();
  while (k < min) {
    const size = new Int32Array(k);
    for (let i = 0; i < frameSpeaker.length; i++) {
      const x = frameSpeaker[i]!;
      if (x >= 0) size[x] = size[x]! + 1;
    }
    let s = -1;
    for (let x = 0; x < k; x++) if (!tried.has(x) && (s < 0 || size[x]! > size[s]!)) s = x;
    if (s < 0) return k;
    const parts = splitRuns(speakerRuns(frameSpeaker, s, emb), emb.dims);
    if (!parts) {
      tried.add(s);
      continue;
    }
    for (const r of parts[1]) frameSpeaker.fill(k, r.start, r.end);
    k++;
  }
  return k;
}
