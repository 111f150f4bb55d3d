// Refinement of the clustering (an experiment of issue 38, off unless its settings ask for it):
// average linkage decides once per merge and never revisits an item, so a local speaker chained
// into the wrong cluster early stays there. Two passes undo that:
//   reassign  each clustered local speaker moves to the speaker whose centroid is nearest, never
//             to one already heard in its window (the cannot-link);
//   merge     two speakers whose whole clean speech, embedded at once, lies nearer than a distance
//             are one voice (long stretches embed more reliably than the 1.5 s pieces the
//             clustering compared), unless the network heard both in one window.
import { cosineSimilarity } from '../stats.ts';
import type { RangeEmbedder } from './window-embedding.ts';

export interface RefineSettings {
  /** Passes of reassignment (0: none). */
  reassignPasses: number;
  /** Speakers whose whole-speech embeddings are nearer than this cosine distance are merged (0: never). */
  mergeDistance: number;
}

export interface RefineItem {
  embedding: Float64Array;
  window: number;
  clean: Int32Array;
}

function centroidsOf(items: RefineItem[], labels: Int32Array, k: number): Float64Array[] {
  const dims = items[0]?.embedding.length ?? 0;
  const out = Array.from({ length: k }, () => new Float64Array(dims));
  items.forEach((it, i) => {
    const c = labels[i]!;
    if (c < 0) return;
    let n = 0;
    for (const v of it.embedding) n += v * v;
    n = Math.sqrt(n) || 1;
    const into = out[c]!;
    it.embedding.forEach((v, x) => (into[x] = into[x]! + v / n));
  });
  return out;
}

/** Labels renumbered 0..k-1 in order of first use, dropping empty speakers. */
function compact(labels: Int32Array): number {
  const map = new Map<number, number>();
  labels.forEach((c, i) => {
    if (c < 0) return;
    let to = map.get(c);
    if (to === undefined) map.set(c, (to = map.size));
    labels[i] = to;
  });
  return map.size;
}

/** Refines `labels` in place as the header says; returns the new count and centroids. */
export function refineClustering(items: RefineItem[], labels: Int32Array, k: number, minCount: number, embedder: RangeEmbedder, s: RefineSettings): { k: number; centroids: Float64Array[] } {
  if (items.length === 0 || k === 0) return { k, centroids: centroidsOf(items, labels, k) };
  const order = items.map((_, i) => i).sort((a, b) => items[b]!.clean.length - items[a]!.clean.length);
  for (let pass = 0; pass < s.reassignPasses; pass++) {
    const centroids = centroidsOf(items, labels, k);
    const taken = new Map<string, number>();
    let moved = 0;
    const next = new Int32Array(labels.length).fill(-1);
    for (const i of order) {
      const it = items[i]!;
      let best = labels[i]!;
      let bestSim = -Infinity;
      centroids.forEach((cen, c) => {
        if (taken.has(`${it.window}/${c}`)) return;
        const sim = cosineSimilarity(it.embedding, cen);
        if (sim > bestSim) {
          bestSim = sim;
          best = c;
        }
      });
      if (best >= 0 && !taken.has(`${it.window}/${best}`)) taken.set(`${it.window}/${best}`, i);
      if (best !== labels[i]) moved++;
      next[i] = best;
    }
    labels.set(next);
    k = compact(labels);
    if (moved === 0) break;
  }
  if (s.mergeDistance > 0) {
    for (;;) {
      if (k <= Math.max(1, minCount)) break;
      const frames: number[][] = Array.from({ length: k }, () => []);
      const windows = Array.from({ length: k }, () => new Set<number>());
      items.forEach((it, i) => {
        const c = labels[i]!;
        if (c < 0) return;
        for (const f of it.clean) frames[c]!.push(f);
        windows[c]!.add(it.window);
      });
      const whole = frames.map((f) => embedder.embedFrames(f.sort((a, b) => a - b)));
      let pair: [number, number] | null = null;
      let pairDistance = s.mergeDistance;
      for (let a = 0; a < k; a++)
        for (let b = a + 1; b < k; b++) {
          const ea = whole[a];
          const eb = whole[b];
          if (!ea || !eb) continue;
          if ([...windows[a]!].some((w) => windows[b]!.has(w))) continue;
          const d = 1 - cosineSimilarity(ea, eb);
          if (d < pairDistance) {
            pairDistance = d;
            pair = [a, b];
          }
        }
      if (!pair) break;
      const [a, b] = pair;
      labels.forEach((c, i) => c === b && (labels[i] = a));
      k = compact(labels);
    }
  }
  return { k, centroids: centroidsOf(items, labels, k) };
}
