// A speaker embedding of a short window of speech that needs no pretrained network: the mean and
// standard deviation of the window's standardised cepstra and log F0 (40 numbers), projected by
// a linear discriminant analysis (LDA) trained offline on 716 real voices (the shared real-voice
// corpus in simulated sessions with rooms, noise and telephone codecs: training/README.md). LDA
// keeps the directions along which voices differ more than one voice's windows do (what is said,
// and the channel, which the training varied on purpose), and whitens them: one voice's windows scatter with unit variance
// in every direction, so a distance between two clusters' mean embeddings reads the same in
// any recording.
import { project, type LinearProjection } from './lda.ts';
import type { FrameRegion } from '../vad.ts';
import { windowSpans } from './speaker-frames.ts';
import { embedRange, loadSpeakerNet, runFrameLayers, type SpeakerNet, type SpeakerNetFile } from './speaker-net.ts';
import { onnxRangeEmbedder, type OnnxEmbeddingModel } from './onnx-embedding.ts';
import type { Fbank } from '../features.ts';
import type { RangeEmbedder } from './range-embedder.ts';
import type { SpeakerSpace } from './clustering.ts';

/** The linear model: window statistics projected by an LDA. */
export interface LdaEmbeddingModel extends LinearProjection {
  kind?: 'lda';
  name: string;
  /** Window length in frames (10 ms) the model was trained on. */
  windowFrames: number;
  /** Between- and within-speaker variance of each output dimension on its training windows. */
  space?: SpeakerSpace;
}

/**
 * The built-in models read the recording's standardised speaker features (speaker-frames.ts); a
 * deployment's ONNX network (onnx-embedding.ts) reads those or the fbank it declares.
 */
export type WindowEmbeddingModel = LdaEmbeddingModel | SpeakerNet | OnnxEmbeddingModel;

/** What an ONNX network may read besides the speaker features: the speech frames and the fbank. */
export interface EmbeddingContext {
  speech: Uint8Array;
  regions: FrameRegion[];
  fbank: Fbank | null;
}

export type { RangeEmbedder } from './range-embedder.ts';

/** A model as a trainer writes it (JSON): the neural one (it has layers) or an LDA. */
export function parseEmbeddingModel(json: unknown): WindowEmbeddingModel {
  const o = json as Partial<SpeakerNetFile> & Partial<LdaEmbeddingModel>;
  if (Array.isArray(o.layers)) return loadSpeakerNet(o as SpeakerNetFile);
  if (!Array.isArray(o.mean) || !Array.isArray(o.rows) || typeof o.windowFrames !== 'number') throw new Error('not a window embedding model');
  return { kind: 'lda', name: o.name ?? 'lda', windowFrames: o.windowFrames, mean: o.mean, rows: o.rows, ...(o.space ? { space: o.space } : {}) };
}

/** The model bound to the recording, or null when it does not read features of this width. */
export function rangeEmbedder(emb: WindowEmbeddingModel, cep: Float32Array, dims: number, model: Uint8Array, context?: EmbeddingContext): RangeEmbedder | null {
  if (emb.kind === 'onnx') return context ? onnxRangeEmbedder(emb, { cep, dims, model, ...context }) : null;
  if (emb.kind === 'net') {
    if (emb.dims !== dims) return null;
    const frames = runFrameLayers(emb, cep, dims, model);
    const embedder: RangeEmbedder = {
      name: emb.name,
      dims: emb.outDims,
      windowFrames: emb.windowFrames,
      embed: (start, end) => embedRange(emb, frames, start, end),
      // Each run of consecutive frames pooled alone (a gap of 2 frames or more starts a new run), as the
      // network was trained on runs of modelled frames; 1 would make every frame a run of its own, and
      // every run too short to embed.
      embedFrames: (list) => meanOf(pieceEmbeddings(embedder, list, 2)),
    };
    return embedder;
  }
  if (emb.mean.length !== 2 * dims) return null;
  return {
    name: emb.name,
    dims: emb.rows.length,
    windowFrames: emb.windowFrames,
    embed: (start, end) => {
      const stats = windowStats(cep, dims, model, start, end);
      return stats ? project(emb, stats) : null;
    },
    embedFrames: (list) => {
      const stats = frameStats(cep, dims, model, list);
      return stats ? project(emb, stats) : null;
    },
  };
}

function meanOf(e: EmbeddingSum): Float64Array | null {
  return e.n > 0 ? e.sum.map((v) => v / e.n) : null;
}

/** Mean and standard deviation of each dimension over the modelled frames among `count` (`frameAt(j)` the j-th), or null under 10 of them. */
function statsOf(cep: Float32Array, dims: number, model: Uint8Array, count: number, frameAt: (j: number) => number): Float64Array | null {
  const out = new Float64Array(2 * dims);
  let n = 0;
  for (let j = 0; j < count; j++) {
    const i = frameAt(j);
    if (!model[i]) continue;
    n++;
    for (let d = 0; d < dims; d++) {
      const x = cep[i * dims + d]!;
      out[d] = out[d]! + x;
      out[dims + d] = out[dims + d]! + x * x;
    }
  }
  if (n < 10) return null;
  for (let d = 0; d < dims; d++) {
    const m = out[d]! / n;
    out[d] = m;
    out[dims + d] = Math.sqrt(Math.max(1e-6, out[dims + d]! / n - m * m));
  }
  return out;
}

/** windowStats over a list of frames (the modelled ones among them). */
export function frameStats(cep: Float32Array, dims: number, model: Uint8Array, frames: ArrayLike<number>): Float64Array | null {
  return statsOf(cep, dims, model, frames.length, (j) => frames[j]!);
}

/** Mean and standard deviation of each dimension over the window's modelled frames (2 * dims), or null under 10 frames. */
export function windowStats(cep: Float32Array, dims: number, model: Uint8Array, start: number, end: number): Float64Array | null {
  return statsOf(cep, dims, model, Math.max(0, end - start), (j) => start + j);
}

/** The sum and count of a cluster's window embeddings. */
export interface EmbeddingSum {
  sum: Float64Array;
  n: number;
}

/**
 * The speaker 0..k-1 holding at least `purity` of the modelled frames of [start, end), or -1 (also
 * under 10 labelled frames). `counts`: scratch of length >= k.
 */
export function pureWindowSpeaker(frameSpeaker: Int16Array, model: Uint8Array, start: number, end: number, k: number, purity: number, counts: Int32Array): number {
  counts.fill(0);
  let n = 0;
  for (let i = start; i < end; i++) {
    const s = frameSpeaker[i]!;
    if (!model[i] || s < 0) continue;
    counts[s] = counts[s]! + 1;
    n++;
  }
  let c = 0;
  for (let x = 1; x < k; x++) if (counts[x]! > counts[c]!) c = x;
  return n >= 10 && counts[c]! >= purity * n ? c : -1;
}

/**
 * Per speaker 0..k-1 of `frameSpeaker`: the embeddings of the windows (over the speech regions,
 * half-overlapping) in which that speaker holds at least `purity` of the modelled frames.
 */
export function speakerEmbeddings(emb: RangeEmbedder, model: Uint8Array, regions: FrameRegion[], frameSpeaker: Int16Array, k: number, purity = 0.9): EmbeddingSum[] {
  const out = Array.from({ length: k }, () => ({ sum: new Float64Array(emb.dims), n: 0 }));
  const counts = new Int32Array(k);
  for (const w of windowSpans(regions, emb.windowFrames, emb.windowFrames >> 1)) {
    const c = pureWindowSpeaker(frameSpeaker, model, w.start, w.end, k, purity, counts);
    if (c < 0) continue;
    const e = emb.embed(w.start, w.end);
    if (!e) continue;
    const into = out[c]!;
    for (let d = 0; d < e.length; d++) into.sum[d] = into.sum[d]! + e[d]!;
    into.n++;
  }
  return out;
}

/**
 * The embeddings of a set of frames taken piece by piece: each run of frames (ascending, a gap of
 * at least `gapFrames` starts a new piece) with at least 10 modelled frames is one "window",
 * however short. Pieces under the model's window length are noisier than its windows, which
 * embeddingDistance's count-based scale only partly reflects.
 */
export function pieceEmbeddings(emb: RangeEmbedder, frames: ArrayLike<number>, gapFrames = 30): EmbeddingSum {
  const out: EmbeddingSum = { sum: new Float64Array(emb.dims), n: 0 };
  let a = 0;
  while (a < frames.length) {
    let b = a;
    while (b + 1 < frames.length && frames[b + 1]! - frames[b]! < gapFrames) b++;
    const e = emb.embed(frames[a]!, frames[b]! + 1);
    if (e) {
      for (let d = 0; d < e.length; d++) out.sum[d] = out.sum[d]! + e[d]!;
      out.n++;
    }
    a = b + 1;
  }
  return out;
}

/**
 * How far apart two speakers' mean embeddings are, in units of the spread expected if both were
 * one voice: |ma - mb|^2 / (1/na + 1/nb) / dims. For two halves of one voice's reference windows
 * on the dev set it is 0.3-1.6; for two voices, 2-58 (most above 5). Null with fewer than two
 * windows on either side.
 */
export function embeddingDistance(a: EmbeddingSum, b: EmbeddingSum): number | null {
  if (a.n < 2 || b.n < 2) return null;
  let s = 0;
  for (let d = 0; d < a.sum.length; d++) s += (a.sum[d]! / a.n - b.sum[d]! / b.n) ** 2;
  return s / (1 / a.n + 1 / b.n) / a.sum.length;
}

/**
 * The mean embedding of a set of frames taken `size` of them at a time (ascending, however
 * spread: the windows the model was trained on, not the whole set at once); a last piece of
 * under half a window counts only when it is all there is. Null when no piece has 10 modelled frames.
 */
export function embedInPieces(emb: RangeEmbedder, frames: ArrayLike<number>, size: number): Float64Array | null {
  const out = new Float64Array(emb.dims);
  let n = 0;
  const piece: number[] = [];
  const flush = (): void => {
    const e = piece.length ? emb.embedFrames(piece) : null;
    piece.length = 0;
    if (!e) return;
    for (let d = 0; d < e.length; d++) out[d] = out[d]! + e[d]!;
    n++;
  };
  for (let j = 0; j < frames.length; j++) {
    piece.push(frames[j]!);
    if (piece.length === size) flush();
  }
  if (n === 0 || piece.length >= size / 2) flush();
  return n > 0 ? out.map((v) => v / n) : null;
}
