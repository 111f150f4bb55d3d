// Stage: initial segments. The speaker groups the count stage starts from, in one of three ways:
// - a transcript with named cues that describe the speech: each name's frames;
// - a long recording (long-recordings.ts): the speakers of its chunks, each diarized on its own
//   (the count stage links them across chunks);
// - otherwise: speech windows described by their GMM supervectors and median F0, clustered
//   bottom-up (cosine distance + pitch distance, cluster.ts) into at most a handful of groups.
import type { FrameFeatures } from '../features.ts';
import { hzToSemitones } from '../pitch.ts';
import { quantile } from '../stats.ts';
import { agglomerate } from './cluster.ts';
import { accumulate, emptyUbmStats, type Ubm, type UbmStats } from './ubm.ts';
import { framesByLabel, windowSpans } from './speaker-frames.ts';
import type { ChunkSpeakers } from './long-recordings.ts';
import type { RecordingModels } from './speaker-models.ts';
import type { DiarizationSettings } from './settings.ts';

/** At most this many windows (evenly spread) are clustered: a long recording costs no more here than a half-hour one. */
const MAX_CLUSTER_ITEMS = 600;
/** A transcript name needs 1 s of voiced speech in its cues to become a speaker model. */
const GUIDE_MIN_FRAMES = 100;

/** Where the groups came from decides what the count stage may do with them. */
export type InitialSegments =
  /** Modelling frames per group: a transcript's names (never merged) or window clusters. */
  | { from: 'transcript' | 'windows'; groups: Int32Array[] }
  /** A long recording's chunk speakers, to be linked across chunks. */
  | { from: 'chunks'; chunks: ChunkSpeakers };

/**
 * `bounds`: the user's count hint. Window clustering never stops under its minimum (decisions
 * §15: an exact hint gives that many speakers whenever the speech holds that many windows), and
 * may hand over up to that many clusters when it is above maxInitialClusters.
 */
export function initialSegments(m: RecordingModels, s: DiarizationSettings, guide: Int16Array | null, chunks: ChunkSpeakers | null, bounds: { min: number; max: number } = { min: 1, max: Infinity }): InitialSegments {
  const named = guide ? guideGroups(guide, m.model) : null;
  if (named) return { groups: named, from: 'transcript' };
  if (chunks) return { chunks, from: 'chunks' };
  return { groups: clusterWindows(m, s.initialSegments, bounds.min), from: 'windows' };
}

interface Window {
  start: number;
  end: number;
  stats: UbmStats;
  speechFrames: number;
  /** Median F0 in semitones over the window's modelling frames. */
  pitchSt: number;
}

/** UBM statistics and median F0 of one window's modelling frames. */
function makeWindow(f: FrameFeatures, ubm: Ubm, cep: Float32Array, model: Uint8Array, start: number, end: number, scratch: Float64Array): Window {
  const stats = emptyUbmStats(ubm);
  const st: number[] = [];
  let speechFrames = 0;
  for (let i = start; i < end; i++)
    if (model[i]) {
      accumulate(ubm, cep, i, stats, scratch);
      speechFrames++;
      if (f.pitchHz[i]! > 0) st.push(hzToSemitones(f.pitchHz[i]!));
    }
  return { start, end, stats, speechFrames, pitchSt: quantile(st, 0.5) ?? NaN };
}

/** Bottom-up clustering of speech windows: frames per initial cluster. */
function clusterWindows({ f, regions, ubm, cep, model }: RecordingModels, o: DiarizationSettings['initialSegments'], minClusters: number): Int32Array[] {
  const win = Math.round(o.windowSec * 100);
  const hop = Math.round(o.hopSec * 100);
  const modelled = (a: number, b: number): number => {
    let n = 0;
    for (let i = a; i < b; i++) n += model[i]!;
    return n;
  };
  const spans = windowSpans(regions, win, hop).filter((w) => modelled(w.start, w.end) >= 10);
  const stride = Math.max(1, spans.length / MAX_CLUSTER_ITEMS);
  const scratch = new Float64Array(ubm.components);
  const picked: Window[] = [];
  for (let x = 0; x < spans.length; x += stride) {
    const span = spans[Math.floor(x)]!;
    picked.push(makeWindow(f, ubm, cep, model, span.start, span.end, scratch));
  }
  const { labels, k } = agglomerate(
    ubm,
    picked.map((w) => w.stats),
    o.clusterThreshold,
    Math.max(o.maxInitialClusters, minClusters),
    picked.map((w) => w.pitchSt),
    picked.map((w) => w.speechFrames),
    o.clusterPitchWeight,
    minClusters,
  );
  // Windows overlap, so a frame can appear more than once (weighting it as the windows did).
  const sizes = new Int32Array(k);
  picked.forEach((w, i) => {
    const c = labels[i]!;
    for (let t = w.start; t < w.end; t++) sizes[c] = sizes[c]! + model[t]!;
  });
  const initial = Array.from(sizes, (n) => new Int32Array(n));
  sizes.fill(0);
  picked.forEach((w, i) => {
    const c = labels[i]!;
    const into = initial[c]!;
    let at = sizes[c]!;
    for (let t = w.start; t < w.end; t++) if (model[t]) into[at++] = t;
    sizes[c] = at;
  });
  return initial;
}

/**
 * Speaker groups from a transcript guide (`guide[i]` = index of the named speaker whose cue
 * covers frame i, -1 for none or several): the modelled frames of each name with at least
 * GUIDE_MIN_FRAMES of them, or null when no name has enough to be modelled.
 */
function guideGroups(guide: Int16Array, model: Uint8Array): Int32Array[] | null {
  let names = 0;
  for (let i = 0; i < guide.length; i++) names = Math.max(names, guide[i]! + 1);
  const usable = framesByLabel(guide, names, model).filter((fr) => fr.length >= GUIDE_MIN_FRAMES);
  return usable.length > 0 ? usable : null;
}
