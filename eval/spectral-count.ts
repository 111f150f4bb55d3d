// An alternative speaker count, for evaluation (the engine's count is where merging stops:
// packages/analysis/src/speech/diarization/speaker-count.ts). The window speaker embeddings of the recording's speech are compared by
// cosine similarity and the count is read off the spectrum of their affinity graph by normalized
// maximum eigengap spectral clustering (NME-SC: Park et al., 2019, "Auto-tuning spectral
// clustering for speaker diarization using normalized maximum eigengap"), which tunes its one
// knob, how many neighbours each window keeps (p), on the recording itself: the p whose graph
// shows the clearest gap (smallest p / normalized gap) wins, and the count is where that gap is.
// The user's hint (SpeakerCountHint) bounds the search. On the speaker-disjoint folds it lost to
// the engine's count (docs/analysis-speech.md); `npm run eval -- --count spectral` feeds it to the
// engine as the user's exact count, and `eval/count-check.ts` scores it alone.
import { symmetricEigenvalues } from './eigen.ts';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { analyzeFrames } from '../packages/analysis/src/speech/features.ts';
import { detectSpeech, regionsToMask } from '../packages/analysis/src/speech/vad.ts';
import { modellingMask, standardisedCepstra } from '../packages/analysis/src/speech/diarization/speaker-frames.ts';
import { rangeEmbedder, type WindowEmbeddingModel } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { embedWindows, type EmbeddedWindows } from '../packages/analysis/src/speech/diarization/partition-fit.ts';

export interface CountBounds {
  min: number;
  max: number;
}

export interface CountDecision {
  count: number;
  /** The neighbours per window of the chosen graph. */
  p: number;
  /** The chosen graph's largest eigengap over its largest eigenvalue. */
  gap: number;
  /** Eigenvalues of the chosen graph's Laplacian, the first max + 1 (for evaluation). */
  eigenvalues: number[];
}

/** At most this many windows enter the graph (evenly spread): the eigenvalues cost O(n^3). */
export const MAX_COUNT_WINDOWS = 256;

/** Evenly spread indices of at most `max` of `n` items. */
export function spreadIndices(n: number, max: number): number[] {
  const step = Math.max(1, n / max);
  const out: number[] = [];
  for (let x = 0; x < n; x += step) out.push(Math.floor(x));
  return out;
}

/** Cosine similarity of the rows of `vectors` (n x dims). */
function cosineMatrix(vectors: Float64Array, dims: number, rows: number[]): Float64Array {
  const n = rows.length;
  const unit = new Float64Array(n * dims);
  rows.forEach((r, i) => {
    let s = 0;
    for (let d = 0; d < dims; d++) s += vectors[r * dims + d]! ** 2;
    const inv = 1 / Math.sqrt(s || 1);
    for (let d = 0; d < dims; d++) unit[i * dims + d] = vectors[r * dims + d]! * inv;
  });
  const sim = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = i; j < n; j++) {
      let s = 0;
      for (let d = 0; d < dims; d++) s += unit[i * dims + d]! * unit[j * dims + d]!;
      sim[i * n + j] = sim[j * n + i] = s;
    }
  return sim;
}

/** The Laplacian's eigenvalues of the graph keeping each window's p most similar windows. */
function laplacianSpectrum(sim: Float64Array, n: number, p: number): Float64Array {
  const keep = new Uint8Array(n * n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) order[j] = j;
    const row = sim.subarray(i * n, (i + 1) * n);
    const sorted = Array.from(order).sort((a, b) => row[b]! - row[a]!);
    for (let t = 0; t < Math.min(p, n); t++) keep[i * n + sorted[t]!] = 1;
  }
  const lap = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    let deg = 0;
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const w = (keep[i * n + j]! + keep[j * n + i]!) / 2;
      lap[i * n + j] = -w;
      deg += w;
    }
    lap[i * n + i] = deg;
  }
  return symmetricEigenvalues(lap, n);
}

/**
 * The neighbour counts tried: from log2(n) (fewer neighbours leave a k-nearest-neighbour graph in
 * pieces, whose zero eigenvalues then read as speakers: a 46 s recording came out as 10), growing
 * by about a fifth, up to a quarter of the windows.
 */
export function candidateP(n: number): number[] {
  const out: number[] = [];
  const first = Math.max(2, Math.ceil(Math.log2(Math.max(2, n))));
  for (let p = first; p <= Math.max(first, Math.floor(n / 4)); p = Math.max(p + 1, Math.round(p * 1.2))) out.push(p);
  return out;
}

/**
 * The speaker count of the windows `vectors` (count x dims), within `bounds`; null with fewer
 * than 2 windows per speaker of the lower bound (too little speech to compare: the caller keeps
 * one speaker per voice it can tell apart otherwise).
 */
export function decideSpeakerCount(vectors: Float64Array, dims: number, count: number, bounds: CountBounds): CountDecision | null {
  const rows = spreadIndices(count, MAX_COUNT_WINDOWS);
  const n = rows.length;
  if (bounds.min === bounds.max) return { count: bounds.min, p: 0, gap: 0, eigenvalues: [] };
  if (n < Math.max(4, 2 * bounds.min)) return null;
  const sim = cosineMatrix(vectors, dims, rows);
  const maxK = Math.min(bounds.max, n - 1);
  let best: CountDecision | null = null;
  let bestRatio = Infinity;
  for (const p of candidateP(n)) {
    const ev = laplacianSpectrum(sim, n, p);
    const top = ev[n - 1]! || 1;
    let k = Math.max(1, bounds.min);
    let gap = -Infinity;
    for (let c = Math.max(1, bounds.min); c <= maxK; c++) {
      const g = ev[c]! - ev[c - 1]!;
      if (g > gap) {
        gap = g;
        k = c;
      }
    }
    const normalized = gap / top;
    const ratio = p / Math.max(1e-9, normalized);
    if (ratio < bestRatio) {
      bestRatio = ratio;
      best = { count: k, p, gap: normalized, eigenvalues: Array.from(ev.subarray(0, Math.min(n, maxK + 1))) };
    }
  }
  return best;
}

/** The embedded speech windows of a media file, as the engine's diarization embeds them. */
export async function mediaWindows(path: string, emb: WindowEmbeddingModel): Promise<EmbeddedWindows | null> {
  const f = analyzeFrames(await decodeAudioToArray(path));
  const regions = detectSpeech(f);
  const model = modellingMask(f, regionsToMask(regions, f.frames));
  const e = rangeEmbedder(emb, standardisedCepstra(f, model), 20, model);
  return e ? embedWindows(e, regions) : null;
}

/** The spectral count of a media file (null when its windows cannot be counted). */
export async function spectralCount(path: string, emb: WindowEmbeddingModel, bounds: CountBounds): Promise<number | null> {
  const w = await mediaWindows(path, emb);
  return w ? (decideSpeakerCount(w.vectors, w.dims, w.start.length, bounds)?.count ?? null) : null;
}
