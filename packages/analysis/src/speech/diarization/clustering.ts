// The one clustering, and the one place where the number of speakers is decided.
//
// Items are the local speakers of the segmentation windows that have enough clean speech to be
// embedded (local-speakers.ts), or chains of them followed across windows. They are clustered
// bottom-up with average linkage on the cosine distance of their embeddings; two items heard in
// one window (the network heard two voices there) are as far apart as two embeddings can be
// (a soft cannot-link: a hard one lets one window where the network split a voice keep that voice
// in two clusters for the whole recording; assign.ts then gives each window's local speakers
// distinct speakers). The whole merge history is kept; the count
// is then read off it in this order:
// 1. the user's bounds first: at least `min` and at most `max` speakers whenever the history has
//    such a partition;
// 2. within them, merging stops at the first merge further apart than the threshold; that
//    partition is refined by VBx (vbx.ts) in the embedding's speaker space (the LDA's training
//    says how much voices differ along each dimension: cosine weighs all alike), which moves
//    items between the clusters and may empty one, though never under the user's minimum;
// 3. a cluster with less clean speech than `minSpeakerSec` is not a speaker of its own (a cough,
//    a laugh, a few words that the embedding cannot place): its items go to the nearest speaker.
// How near the count was to being another one is the margin of the threshold: the next merge
// not made and the last one made (ClusterEvidence), from which speaker_count_uncertain is said.

export interface ClusterItem {
  embedding: Float64Array;
  /** Items that share a group (a segmentation window they were heard in: ascending) never share a cluster. */
  groups: readonly number[];
  /** Frames of clean speech it stands for. */
  frames: number;
}

export interface ClusterSettings {
  /** Average-linkage cosine distance above which two clusters are not merged. */
  threshold: number;
  /** A speaker needs this much clean speech (seconds) across its items. */
  minSpeakerSec: number;
  /** VBx after the linkage (vbx.ts): statistics scale; 0 or absent: no VBx. */
  vbxFa?: number;
  /** VBx speaker regularisation. */
  vbxFb?: number;
}

/** The embedding space's between- and within-speaker variances per dimension (the LDA's training). */
export interface SpeakerSpace {
  within: readonly number[];
  between: readonly number[];
}

export interface CountBounds {
  min: number;
  max: number;
}

export interface ClusterEvidence {
  /** Distance of the next merge not made, over the threshold (null when none was possible). */
  nextMerge: number | null;
  /** Distance of the last merge made, over the threshold (null when none was made). */
  lastMerge: number | null;
}

export interface Clustering {
  /** Speaker 0..k-1 of each item, or -1 for an item left out (no speaker would take it). */
  labels: Int32Array;
  k: number;
  /** Mean embedding of each speaker's items. */
  centroids: Float64Array[];
  evidence: ClusterEvidence;
}

import { cosineSimilarity } from '../stats.ts';
import { vbx } from './vbx.ts';

interface Merge {
  a: number;
  b: number;
  distance: number;
}

function unitVectors(items: ClusterItem[]): Float64Array[] {
  return items.map(({ embedding: e }) => {
    let n = 0;
    for (const v of e) n += v * v;
    n = Math.sqrt(n) || 1;
    return e.map((v) => v / n);
  });
}

/** The distance of two items heard in one window: the largest cosine distance. */
const CONFLICT_DISTANCE = 2;

/** Whether two ascending lists share a value. */
function shareGroup(a: readonly number[], b: readonly number[]): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) return true;
    if (a[i]! < b[j]!) i++;
    else j++;
  }
  return false;
}

/**
 * The full merge history of average-linkage clustering: merges in the order made (each into the
 * lower index), down to one cluster. O(n²) memory; each merge
 * rescans only the clusters whose nearest neighbour it changed.
 */
export function mergeHistory(items: ClusterItem[]): Merge[] {
  const n = items.length;
  const unit = unitVectors(items);
  const d = new Float32Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      let dot = 0;
      const a = unit[i]!;
      const b = unit[j]!;
      for (let x = 0; x < a.length; x++) dot += a[x]! * b[x]!;
      const v = shareGroup(items[i]!.groups, items[j]!.groups) ? CONFLICT_DISTANCE : 1 - dot;
      d[i * n + j] = v;
      d[j * n + i] = v;
    }
  const size = new Float64Array(n).fill(1);
  const alive = new Uint8Array(n).fill(1);
  const nn = new Int32Array(n).fill(-1);
  const nnDist = new Float64Array(n).fill(Infinity);
  const refresh = (i: number): void => {
    let best = -1;
    let bestD = Infinity;
    for (let j = 0; j < n; j++) {
      if (j === i || !alive[j]) continue;
      const v = d[i * n + j]!;
      if (v < bestD) {
        bestD = v;
        best = j;
      }
    }
    nn[i] = best;
    nnDist[i] = bestD;
  };
  for (let i = 0; i < n; i++) refresh(i);
  const merges: Merge[] = [];
  for (;;) {
    let a = -1;
    for (let i = 0; i < n; i++) if (alive[i] && nnDist[i]! < Infinity && (a < 0 || nnDist[i]! < nnDist[a]!)) a = i;
    if (a < 0) break;
    let b = nn[a]!;
    const distance = nnDist[a]!;
    if (b < a) [a, b] = [b, a];
    merges.push({ a, b, distance });
    // Average linkage (Lance-Williams).
    const sa = size[a]!;
    const sb = size[b]!;
    for (let k = 0; k < n; k++) {
      if (!alive[k] || k === a || k === b) continue;
      const v = (sa * d[a * n + k]! + sb * d[b * n + k]!) / (sa + sb);
      d[a * n + k] = v;
      d[k * n + a] = v;
    }
    size[a] = sa + sb;
    alive[b] = 0;
    for (let k = 0; k < n; k++) {
      if (!alive[k]) continue;
      if (k === a || nn[k] === a || nn[k] === b) refresh(k);
      else if (d[k * n + a]! < nnDist[k]!) {
        nn[k] = a;
        nnDist[k] = d[k * n + a]!;
      }
    }
  }
  return merges;
}

/** Cluster of each item after the first `m` merges of the history (labels are root indices). */
function partitionAfter(n: number, merges: Merge[], m: number): Int32Array {
  const root = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (root[i] !== i) i = root[i] = root[root[i]!]!;
    return i;
  };
  for (let x = 0; x < m; x++) {
    const { a, b } = merges[x]!;
    root[find(b)] = find(a);
  }
  return Int32Array.from({ length: n }, (_, i) => find(i));
}

/** Roots of the clusters with at least `minFrames` of clean speech. */
function largeClusters(items: ClusterItem[], part: Int32Array, minFrames: number): Set<number> {
  const frames = new Map<number, number>();
  part.forEach((r, i) => frames.set(r, (frames.get(r) ?? 0) + items[i]!.frames));
  return new Set([...frames].filter(([, f]) => f >= minFrames).map(([r]) => r));
}

/** Clusters the items and decides the count (see the header). */
export function clusterSpeakers(items: ClusterItem[], bounds: CountBounds, s: ClusterSettings, space?: SpeakerSpace): Clustering {
  const n = items.length;
  if (n === 0) return { labels: new Int32Array(0), k: 0, centroids: [], evidence: { nextMerge: null, lastMerge: null } };
  const merges = mergeHistory(items);
  const minFrames = s.minSpeakerSec * 100;
  // The cut: merges up to the threshold, then the user's bounds on the large clusters; below the
  // user's minimum, merges are undone until there are that many clusters at all.
  let m = 0;
  while (m < merges.length && merges[m]!.distance <= s.threshold) m++;
  const countAt = (cut: number): number => Math.max(1, largeClusters(items, partitionAfter(n, merges, cut), minFrames).size);
  let k = countAt(m);
  while (k > bounds.max && m < merges.length) k = countAt(++m);
  while (n - m < bounds.min && m > 0) m--;
  let part = partitionAfter(n, merges, m);
  if (space && s.vbxFa && n > 1) {
    const refined = vbxPartition(items, part, space, s);
    // A cluster VBx emptied must not take the count under the user's minimum.
    if (new Set(refined).size >= Math.min(bounds.min, new Set(part).size)) part = refined;
  }
  // The speakers: the large clusters, or as many of the largest as the user's minimum asks for
  // (decisions §15: the hint is met whenever the speech holds that many stretches to tell apart),
  // and at least the largest one.
  const frames = new Map<number, number>();
  part.forEach((r, i) => frames.set(r, (frames.get(r) ?? 0) + items[i]!.frames));
  const bySize = [...frames].sort((x, y) => y[1] - x[1]);
  const large = bySize.filter(([, f]) => f >= minFrames).length;
  const wanted = Math.min(bySize.length, Math.max(1, Math.min(bounds.max, Math.max(large, bounds.min))));
  const kept = new Set(bySize.slice(0, wanted).map(([r]) => r));
  const roots = [...kept].sort((x, y) => x - y);
  const index = new Map(roots.map((r, j) => [r, j]));
  const labels = Int32Array.from(part, (r) => index.get(r) ?? -1);
  const centroids = roots.map(() => new Float64Array(items[0]!.embedding.length));
  const unit = unitVectors(items);
  labels.forEach((c, i) => {
    if (c < 0) return;
    const into = centroids[c]!;
    unit[i]!.forEach((v, x) => (into[x] = into[x]! + v));
  });
  // The small clusters' items go to the nearest speaker not already heard in their window.
  const taken = new Set<string>();
  const take = (i: number, c: number): void => items[i]!.groups.forEach((g) => taken.add(`${g}/${c}`));
  labels.forEach((c, i) => c >= 0 && take(i, c));
  labels.forEach((c, i) => {
    if (c >= 0) return;
    let best = -1;
    let bestSim = -Infinity;
    centroids.forEach((cen, j) => {
      if (items[i]!.groups.some((g) => taken.has(`${g}/${j}`))) return;
      const sim = cosineSimilarity(items[i]!.embedding, cen);
      if (sim > bestSim) {
        bestSim = sim;
        best = j;
      }
    });
    if (best >= 0) {
      labels[i] = best;
      take(i, best);
    }
  });
  const next = merges[m];
  const last = merges[m - 1];
  return {
    labels,
    k: roots.length,
    centroids,
    evidence: { nextMerge: next && Number.isFinite(next.distance) ? next.distance / s.threshold : null, lastMerge: last ? last.distance / s.threshold : null },
  };
}

/** The linkage's partition refined by VBx (roots stay item indices, as partitionAfter gives them). */
function vbxPartition(items: ClusterItem[], part: Int32Array, space: SpeakerSpace, s: ClusterSettings): Int32Array {
  const roots = [...new Set(part)];
  const index = new Map(roots.map((r, j) => [r, j]));
  const init = Int32Array.from(part, (r) => index.get(r)!);
  const D = space.between.length;
  const x = items.map((it) => Float64Array.from({ length: D }, (_, d) => it.embedding[d]! / Math.sqrt(space.within[d]!)));
  const phi = Float64Array.from({ length: D }, (_, d) => space.between[d]! / space.within[d]!);
  const { gamma, pi } = vbx(x, phi, init, { fa: s.vbxFa!, fb: s.vbxFb ?? 1, maxIters: 20, initSmoothing: 7 });
  const S = roots.length;
  const out = new Int32Array(part.length);
  for (let t = 0; t < part.length; t++) {
    let best = 0;
    for (let c = 1; c < S; c++) if (pi[c]! > 1e-7 && (pi[best]! <= 1e-7 || gamma[t * S + c]! > gamma[t * S + best]!)) best = c;
    out[t] = best;
  }
  // Roots: the first item of each new cluster, so that labels read as partitionAfter's do.
  const first = new Map<number, number>();
  out.forEach((c, t) => first.has(c) || first.set(c, t));
  return Int32Array.from(out, (c) => first.get(c)!);
}
