// Every local speaker of every window given a speaker of the recording. Those with enough clean
// speech were clustered (clustering.ts); the others (a backchannel, a voice heard only in
// overlap, the edge of a window) take the speaker that the overlapping windows give the same
// stretch of speech, where they agree on it, or else the speaker whose voice their speech is
// nearest to. Two local speakers of one window never take the same speaker.
import type { LocalSegmentation } from '../segmentation/local-segmentation.ts';
import { agreement, type LocalSpeaker, type WindowFrames } from './local-speakers.ts';
import type { RangeEmbedder } from './window-embedding.ts';
import { cosineSimilarity } from '../stats.ts';

/** Agreement (shared activity over joint activity, on the frames both windows cover) needed to follow a neighbour window. */
const MIN_AGREEMENT = 0.3;

/**
 * Completes `speakerOf[w * L + local]` (the clustered local speakers' speakers, -1 for the rest)
 * for every local speaker as the header says; -1 stays for a local speaker nobody takes.
 */
export function assignLocalSpeakers(seg: LocalSegmentation, windows: WindowFrames[], speech: Uint8Array, locals: LocalSpeaker[], speakerOf: Int16Array, centroids: Float64Array[], embedder: RangeEmbedder | null): Int16Array {
  const L = seg.speakers;
  // Two local speakers of one window that the clustering put together: the one with more speech
  // keeps the speaker, the other is assigned below like the unclustered ones.
  const byKey = new Map<number, LocalSpeaker>();
  for (const ls of locals) byKey.set(ls.window * L + ls.local, ls);
  for (let w = 0; w < seg.windows.length; w++)
    for (let a = 0; a < L; a++)
      for (let b = 0; b < L; b++) {
        if (a === b || speakerOf[w * L + a]! < 0 || speakerOf[w * L + a] !== speakerOf[w * L + b]) continue;
        const la = byKey.get(w * L + a)?.active ?? 0;
        const lb = byKey.get(w * L + b)?.active ?? 0;
        if (la < lb || (la === lb && a > b)) speakerOf[w * L + a] = -1;
      }
  const used = (w: number, c: number): boolean => {
    for (let s = 0; s < L; s++) if (speakerOf[w * L + s] === c) return true;
    return false;
  };
  // Windows that overlap window w lie within this many windows of it (windows are in time order).
  const reach = (w: number): number[] => {
    const out: number[] = [];
    for (let v = w - 1; v >= 0 && windows[v]!.end > windows[w]!.start; v--) out.push(v);
    for (let v = w + 1; v < windows.length && windows[v]!.start < windows[w]!.end; v++) out.push(v);
    return out;
  };
  // Longest first: a local speaker with more speech is surer of its neighbours.
  const rest = locals.filter((ls) => speakerOf[ls.window * L + ls.local]! < 0).sort((a, b) => b.active - a.active);
  for (const ls of rest) {
    const { window: w, local: k } = ls;
    const best = new Map<number, number>();
    for (const v of reach(w))
      for (let j = 0; j < L; j++) {
        const c = speakerOf[v * L + j]!;
        if (c < 0 || used(w, c)) continue;
        const g = agreement(seg, windows, speech, w, k, v, j);
        if (g > (best.get(c) ?? 0)) best.set(c, g);
      }
    let pick = -1;
    let pickAgreement = MIN_AGREEMENT;
    for (const [c, g] of best)
      if (g >= pickAgreement) {
        pick = c;
        pickAgreement = g;
      }
    if (pick < 0 && embedder && centroids.length > 0) {
      // Its speech as heard, overlap included.
      const wf = windows[w]!;
      const frames: number[] = [];
      for (let i = wf.start; i < wf.end; i++) if (seg.active[w]![wf.outputFrame[i - wf.start]!]! & (1 << k)) frames.push(i);
      const e = embedder.embedFrames(frames);
      if (e) {
        let bestSim = -Infinity;
        centroids.forEach((cen, c) => {
          if (used(w, c)) return;
          const sim = cosineSimilarity(e, cen);
          if (sim > bestSim) {
            bestSim = sim;
            pick = c;
          }
        });
      }
    }
    if (pick >= 0) speakerOf[w * L + k] = pick;
  }
  return speakerOf;
}
