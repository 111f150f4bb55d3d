// Diarization from the speaker segmentation, in the shape the best open systems share (pyannote
// 3.x SpeakerDiarization.apply()): segmentation -> embeddings of the local speakers ->
// clustering -> reconstruction.
//
//   1. local speakers    local-speakers.ts  per window, who the network hears in each frame, and
//                                           the clean (non-overlapped) frames of each local speaker
//   2. embeddings        window-embedding.ts each local speaker's clean speech embedded (the LDA
//                                           of speaker-lda.model.ts, or the deployment's network)
//   3. clustering        clustering.ts      average linkage with cannot-link inside a window; the
//                                           count decided there, the user's bounds first
//   4. assignment        assign.ts          local speakers with too little clean speech follow the
//                                           overlapping windows, or the nearest voice
//   5. reconstruction    reconstruct.ts     one track of the recording, two speakers where the
//                                           segmentation hears two
//   6. boundaries        boundary-resegmentation.ts  frames near each change given to the
//                                           voice whose frame-level model explains them best
//   7. numbering         numbering.ts       speakers in order of first speech
import type { FrameFeatures } from '../features.ts';
import { NUM_CEPS } from '../features.ts';
import type { FrameRegion } from '../vad.ts';
import type { LocalSegmentation } from '../segmentation/local-segmentation.ts';
import type { CountEvidence } from '../../types.ts';
import { modellingMask, standardisedCepstra } from './speaker-frames.ts';
import { rangeEmbedder, type WindowEmbeddingModel } from './window-embedding.ts';
import { localSpeakers, windowFrames } from './local-speakers.ts';
import { clusterSpeakers, type CountBounds } from './clustering.ts';
import { assignLocalSpeakers } from './assign.ts';
import { reconstruct } from './reconstruct.ts';
import { resegmentBoundaries } from './boundary-resegmentation.ts';
import type { DiarizationSettings } from './settings.ts';
import { renumberByFirstSpeech } from './numbering.ts';
import { cosineSimilarity } from '../stats.ts';

export interface SegmentedDiarization {
  /** Speaker per frame (the best scored where two speak), -1 for non-speech; numbered by first speech. */
  frameSpeaker: Int16Array;
  /** The second speaker of frames where two speak, -1 elsewhere. */
  overlapSpeaker: Int16Array;
  speakers: number;
  countEvidence?: CountEvidence;
  /** Per speaker, the share of its clustered local speakers nearer its own centroid than any other's (null: one speaker, or none clustered). */
  separation?: (number | null)[];
}

export function diarizeSegmented(
  f: FrameFeatures,
  regions: FrameRegion[],
  speech: Uint8Array,
  seg: LocalSegmentation,
  windowSec: number,
  embeddingModel: WindowEmbeddingModel,
  bounds: CountBounds,
  s: DiarizationSettings,
): SegmentedDiarization {
  const none = (): SegmentedDiarization => ({ frameSpeaker: new Int16Array(f.frames).fill(-1), overlapSpeaker: new Int16Array(f.frames).fill(-1), speakers: 0 });
  if (regions.length === 0) return none();
  const model = modellingMask(f, speech);
  const cep = standardisedCepstra(f, model);
  const embedder = rangeEmbedder(embeddingModel, cep, NUM_CEPS, model, { speech, regions, fbank: f.fbank ?? null });
  const windows = windowFrames(seg, windowSec, f.frames);
  const minClean = Math.round(s.localSpeakers.minCleanSec * 100);
  const locals = localSpeakers(seg, windows, speech, embedder, minClean);
  const clustered = evenlySpread(locals.filter((ls) => ls.embedding !== null), s.localSpeakers.maxClustered);
  const clustering = clusterSpeakers(
    clustered.map((ls) => ({ embedding: ls.embedding!, groups: [ls.window], frames: ls.clean.length })),
    bounds,
    s.cluster,
    'space' in embeddingModel ? embeddingModel.space : undefined,
  );
  if (clustering.k === 0) {
    // Too little clean speech to tell voices apart: the speech is one speaker.
    const frameSpeaker = new Int16Array(f.frames).fill(-1);
    for (const r of regions) frameSpeaker.fill(0, r.start, r.end);
    return { frameSpeaker, overlapSpeaker: new Int16Array(f.frames).fill(-1), speakers: 1 };
  }
  const L = seg.speakers;
  const speakerOf = new Int16Array(seg.windows.length * L).fill(-1);
  clustered.forEach((ls, x) => (speakerOf[ls.window * L + ls.local] = clustering.labels[x]!));
  assignLocalSpeakers(seg, windows, speech, locals, speakerOf, clustering.centroids, embedder);
  const { first, second } = reconstruct(seg, windows, speakerOf, clustering.k, f.frames, regions, speech, s.overlap);
  // Every speaker the user's minimum asked for is one that must keep its voice's own speech.
  keepEverySpeaker(first, second, clustering.k, clustered, clustering.labels, clustering.k >= 2 && bounds.min >= clustering.k);
  resegmentBoundaries(f, regions, speech, first, second, clustering.k, Math.round(s.boundaries.reachSec * 100), s.guided, { model, cep });
  const order = renumberByFirstSpeech(first, Math.max(1, Math.round(s.numbering.firstSpeechMinSec * 100)));
  for (let i = 0; i < second.length; i++) {
    const x = second[i]!;
    if (x < 0) continue;
    // A speaker heard only in overlap is numbered after the others.
    let to = order.get(x);
    if (to === undefined) order.set(x, (to = order.size));
    second[i] = first[i] === to ? -1 : to;
  }
  const separation = new Array<number | null>(order.size).fill(null);
  separationByCluster(clustered.map((ls) => ls.embedding!), clustering.labels, clustering.centroids).forEach((v, c) => {
    const to = order.get(c);
    if (to !== undefined) separation[to] = v;
  });
  return { frameSpeaker: first, overlapSpeaker: second, speakers: order.size, separation, countEvidence: { nearestPair: clustering.evidence.nextMerge, widestSplit: clustering.evidence.lastMerge } };
}

/** At most `max` of `items`, spread evenly over their order (all of them when they fit). */
export function evenlySpread<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  return Array.from({ length: max }, (_, j) => items[Math.floor((j * items.length) / max)]!);
}

/**
 * A speaker the clustering found keeps at least its own clean speech: where the windows' scores
 * gave all its frames to others (a speaker the user's minimum asked for, heard beside louder
 * ones), the clean frames of its clustered local speakers are given back to it. With `asked`
 * (every speaker was asked for), also a speaker left fewer frames than that clean speech: else
 * the gap restoring after the diarization absorbs its fragments and the hint comes back short.
 */
function keepEverySpeaker(first: Int16Array, second: Int16Array, k: number, clustered: { clean: Int32Array }[], labels: Int32Array, asked = false): void {
  const has = new Int32Array(k);
  for (let i = 0; i < first.length; i++) {
    if (first[i]! >= 0) has[first[i]!]!++;
    if (second[i]! >= 0) has[second[i]!]!++;
  }
  const clean = new Int32Array(k);
  clustered.forEach((ls, x) => {
    const c = labels[x]!;
    if (c >= 0) clean[c] = clean[c]! + ls.clean.length;
  });
  // Decided on the counts before any frame is given back, so that giving back never changes them.
  const short = Array.from({ length: k }, (_, c) => has[c] === 0 || (asked && has[c]! < clean[c]!));
  clustered.forEach((ls, x) => {
    const c = labels[x]!;
    if (c < 0 || !short[c]) return;
    for (const i of ls.clean) {
      if (second[i] === c) second[i] = -1;
      first[i] = c;
    }
  });
}

/**
 * How cleanly each cluster's voice separates from the others': the share of its items whose
 * embedding is nearer (cosine) its own centroid than any other centroid. Null with one cluster.
 */
function separationByCluster(embeddings: Float64Array[], labels: Int32Array, centroids: Float64Array[]): (number | null)[] {
  const k = centroids.length;
  const near = new Float64Array(k);
  const all = new Float64Array(k);
  if (k < 2) return new Array<number | null>(k).fill(null);
  embeddings.forEach((e, i) => {
    const c = labels[i]!;
    if (c < 0) return;
    all[c] = all[c]! + 1;
    const own = cosineSimilarity(e, centroids[c]!);
    if (centroids.every((cen, j) => j === c || cosineSimilarity(e, cen) < own)) near[c] = near[c]! + 1;
  });
  return Array.from(all, (n, c) => (n > 0 ? Math.round((near[c]! / n) * 1000) / 1000 : null));
}
