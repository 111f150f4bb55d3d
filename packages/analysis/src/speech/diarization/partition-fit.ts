// How well a diarization's speakers fit the window speaker embedding (window-embedding.ts), a
// view of the voice that owes nothing to the recording's UBM. diarize.ts runs the UBM-based
// pipeline from more than one UBM seeding, because its speaker count hinges on where the UBM's
// EM starts (docs/analysis-speech.md), and keeps the run this fit prefers.
//
// Each half-overlapping window of the speech that one speaker holds (at least `purity` of its
// modelled frames) is embedded; with each speaker's windows modelled as a Gaussian around their
// mean with a variance common to all speakers and dimensions (the embedding is whitened for
// within-voice scatter), the maximised log-likelihood is -(n·D/2)·log(W / (n·D)), W the windows'
// summed squared distance to their speaker's mean. Joining two voices raises W; splitting their
// windows between speakers leaves fewer pure windows (smaller n), and both lower the fit.
import type { FrameRegion } from '../vad.ts';
import { windowSpans } from './speaker-frames.ts';
import { pureWindowSpeaker, type RangeEmbedder } from './window-embedding.ts';

/** The embedded windows of a recording (computed once, scored against each candidate). */
export interface EmbeddedWindows {
  start: Int32Array;
  end: Int32Array;
  /** windows * dims, row-major. */
  vectors: Float64Array;
  dims: number;
}

export function embedWindows(emb: RangeEmbedder, regions: FrameRegion[]): EmbeddedWindows {
  const spans = windowSpans(regions, emb.windowFrames, emb.windowFrames >> 1);
  const kept: { start: number; end: number; e: Float64Array }[] = [];
  for (const w of spans) {
    const e = emb.embed(w.start, w.end);
    if (e) kept.push({ start: w.start, end: w.end, e });
  }
  const d = emb.dims;
  const vectors = new Float64Array(kept.length * d);
  kept.forEach((w, i) => vectors.set(w.e, i * d));
  return { start: Int32Array.from(kept, (w) => w.start), end: Int32Array.from(kept, (w) => w.end), vectors, dims: d };
}

/** The fit of a frame labelling (speakers 0..k-1, -1 none), or null with under two pure windows. */
export function partitionFit(w: EmbeddedWindows, model: Uint8Array, frameSpeaker: Int16Array, k: number, purity = 0.8): number | null {
  const { dims: D, vectors } = w;
  const windows = w.start.length;
  const label = new Int32Array(windows);
  const counts = new Int32Array(Math.max(1, k));
  for (let x = 0; x < windows; x++) label[x] = pureWindowSpeaker(frameSpeaker, model, w.start[x]!, w.end[x]!, k, purity, counts);
  const sums = new Float64Array(Math.max(1, k) * D);
  const sizes = new Int32Array(Math.max(1, k));
  for (let x = 0; x < windows; x++) {
    const s = label[x]!;
    if (s < 0) continue;
    sizes[s] = sizes[s]! + 1;
    for (let d = 0; d < D; d++) sums[s * D + d] = sums[s * D + d]! + vectors[x * D + d]!;
  }
  let scatter = 0;
  let used = 0;
  for (let x = 0; x < windows; x++) {
    const s = label[x]!;
    if (s < 0) continue;
    used++;
    for (let d = 0; d < D; d++) scatter += (vectors[x * D + d]! - sums[s * D + d]! / sizes[s]!) ** 2;
  }
  if (used < 2 || scatter <= 0) return null;
  return -0.5 * used * D * Math.log(scatter / (used * D));
}

/**
 * Runs `run` at each seed phase and keeps the result `windows` fit best (the first on a tie or
 * when no result leaves two pure windows).
 */
export function bestFitting<D extends { frameSpeaker: Int16Array; speakers: number }>(phases: number[], run: (phase: number) => D, windows: EmbeddedWindows, model: Uint8Array): D {
  let best: D | null = null;
  let bestFit = -Infinity;
  for (const phase of phases) {
    const d = run(phase);
    const fit = partitionFit(windows, model, d.frameSpeaker, d.speakers) ?? -Infinity;
    if (!best || fit > bestFit) {
      best = d;
      bestFit = fit;
    }
  }
  return best!;
}
