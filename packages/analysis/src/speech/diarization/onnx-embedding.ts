// A speaker embedding network brought by the deployment (SPEAKER_EMBEDDING_MODEL): an ONNX file,
// for example one exported from WeSpeaker or 3D-Speaker, and beside it a small JSON that declares
// what the network reads and writes (docs/analysis-speech.md, "Bring your own speaker model").
// It replaces the built-in window embedding behind the same RangeEmbedder interface: every stage
// that compares windows, pieces or speakers by voice then reads the network's embeddings.
//
// Inference runs on onnxruntime-node's CPU build, synchronously (onnx-runtime.ts).
import { createHash } from 'node:crypto';
import { onnxRuntimeOr, readModelFiles, SESSION_OPTIONS } from '../onnx-runtime.ts';
import { FBANK_SCALE, type Fbank, type FbankOptions, type FbankWindow } from '../fbank.ts';
import { windowSpans } from './speaker-frames.ts';
import type { FrameRegion } from '../vad.ts';
import type { RangeEmbedder } from './range-embedder.ts';

/** What the JSON beside the ONNX file declares. */
export interface OnnxEmbeddingSpec {
  name: string;
  input: {
    /** The graph input: float32 [1, frames, features]. */
    name: string;
    /** 'fbank': Kaldi-style log mel energies of the speech frames (fbank.ts); 'speaker-cepstra': the engine's standardised c1..c19 and log F0 of the voiced frames (20 per frame). */
    features: 'fbank' | 'speaker-cepstra';
    bins?: number;
    window?: FbankWindow;
    sampleScale?: number;
    /** 'mean': each feature's mean over the window is subtracted first (the usual CMN). */
    normalise: 'none' | 'mean';
  };
  /** The graph output: float32 [1, dims]. */
  output: { name: string; dims: number };
  /** The window length the diarization embeds (seconds, 0.5-4). */
  windowSec: number;
  /**
   * true: the output is already scaled so that one voice's windows scatter with unit variance per
   * dimension (as the project's exported network is, through its LDA). false (the usual
   * network): outputs are length-normalised and scaled per recording (see scaleFor).
   */
  whitened: boolean;
}

export interface OnnxEmbeddingModel {
  kind: 'onnx';
  /** The declared name, the file's checksum beside it: recorded in the analysis's method. */
  name: string;
  spec: OnnxEmbeddingSpec;
  windowFrames: number;
  /** Input features per frame. */
  width: number;
  /** Set when the network reads fbank: the analysis computes it while decoding. */
  fbank: FbankOptions | null;
  /** The network on one window (frames x width, row-major): its `dims` outputs. */
  run(x: Float32Array, frames: number): Float32Array;
}

/** A model the service cannot use: the message says what to fix. */
export class EmbeddingModelError extends Error {
  override name = 'EmbeddingModelError';
}

function fail(path: string, what: string): never {
  throw new EmbeddingModelError(`speaker embedding model ${path}: ${what}`);
}

/** The JSON beside `model.onnx`: `model.json`. */
export function specPathOf(modelPath: string): string {
  return modelPath.replace(/\.onnx$/i, '') + '.json';
}

export function parseSpec(json: unknown, where: string): OnnxEmbeddingSpec {
  const o = json as Partial<OnnxEmbeddingSpec> | null;
  const bad = (what: string): never => fail(where, what);
  if (!o || typeof o !== 'object') bad('the JSON is not an object');
  const name = typeof o!.name === 'string' && o!.name.trim() ? o!.name.trim() : bad('"name" must be a non-empty string');
  const input = o!.input ?? bad('"input" is missing');
  if (typeof input.name !== 'string' || !input.name) bad('"input.name" must name the graph input');
  if (input.features !== 'fbank' && input.features !== 'speaker-cepstra') bad('"input.features" must be "fbank" or "speaker-cepstra"');
  if (input.normalise !== 'none' && input.normalise !== 'mean') bad('"input.normalise" must be "none" or "mean"');
  if (input.features === 'fbank') {
    if (!Number.isInteger(input.bins) || input.bins! < 10 || input.bins! > 128) bad('"input.bins" must be an integer from 10 to 128 for fbank');
    if (input.window !== undefined && input.window !== 'povey' && input.window !== 'hamming') bad('"input.window" must be "povey" or "hamming"');
    if (input.sampleScale !== undefined && !(typeof input.sampleScale === 'number' && input.sampleScale > 0 && Number.isFinite(input.sampleScale))) bad('"input.sampleScale" must be a positive number');
  }
  const output = o!.output ?? bad('"output" is missing');
  if (typeof output.name !== 'string' || !output.name) bad('"output.name" must name the graph output');
  if (!Number.isInteger(output.dims) || output.dims < 2 || output.dims > 4096) bad('"output.dims" must be an integer from 2 to 4096');
  const windowSec = o!.windowSec ?? 1.5;
  if (typeof windowSec !== 'number' || windowSec < 0.5 || windowSec > 4) bad('"windowSec" must be from 0.5 to 4');
  if (typeof o!.whitened !== 'boolean') bad('"whitened" must be true or false');
  return { name, input: { ...input }, output: { ...output }, windowSec, whitened: o!.whitened! };
}

/**
 * Loads, checks and binds a model; throws EmbeddingModelError naming what is wrong (no file, no
 * JSON, a field, a graph without the declared input or output, an output of the wrong size).
 */
export function loadOnnxEmbedding(modelPath: string): OnnxEmbeddingModel {
  const specPath = specPathOf(modelPath);
  const { bytes, json } = readModelFiles(modelPath, specPath, (what) => fail(modelPath, what));
  const spec = parseSpec(json, specPath);
  const runtime = onnxRuntimeOr((message) => new EmbeddingModelError(message));
  const { Session, tensor } = runtime;
  const session = new Session();
  try {
    session.loadModel(modelPath, SESSION_OPTIONS);
  } catch (err) {
    fail(modelPath, `not a model onnxruntime can load (${(err as Error).message})`);
  }
  const input = session.inputMetadata.find((m) => m.name === spec.input.name);
  if (!input) fail(modelPath, `the graph has no input "${spec.input.name}" (it has: ${session.inputMetadata.map((m) => m.name).join(', ')})`);
  if (!session.outputMetadata.some((m) => m.name === spec.output.name)) fail(modelPath, `the graph has no output "${spec.output.name}" (it has: ${session.outputMetadata.map((m) => m.name).join(', ')})`);
  const width = spec.input.features === 'fbank' ? spec.input.bins! : 20;
  if (input.shape.length !== 3) fail(modelPath, `input "${input.name}" must be [1, frames, ${width}], it has ${input.shape.length} dimensions`);
  const last = input.shape[2]!;
  if (last >= 0 && last !== width) fail(modelPath, `input "${input.name}" reads ${last} features per frame; ${spec.input.features} gives ${width}`);
  const windowFrames = Math.round(spec.windowSec * 100);
  const run = (x: Float32Array, frames: number): Float32Array => {
    const out = session.run({ [spec.input.name]: tensor(x, [1, frames, width]) }, { [spec.output.name]: null }, {})[spec.output.name];
    if (!out || out.data.length !== spec.output.dims) throw new EmbeddingModelError(`speaker embedding model ${modelPath}: output "${spec.output.name}" has ${out?.data.length ?? 0} values, its description says ${spec.output.dims}`);
    return Float32Array.from(out.data);
  };
  // One run before any media: a graph that cannot take a window of the declared size fails now.
  let probe: Float32Array;
  try {
    probe = run(new Float32Array(windowFrames * width), windowFrames);
  } catch (err) {
    fail(modelPath, `a window of ${windowFrames} frames did not run (${(err as Error).message})`);
  }
  if (!probe.every(Number.isFinite)) fail(modelPath, 'a silent window gives values that are not finite');
  const checksum = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const fbank = spec.input.features === 'fbank' ? { bins: spec.input.bins!, window: spec.input.window ?? 'povey', sampleScale: spec.input.sampleScale ?? 1 } : null;
  return { kind: 'onnx', name: `${spec.name} (ONNX, sha256 ${checksum})`, spec, windowFrames, width, fbank, run };
}

/** What a model bound to one recording reads. */
export interface OnnxRecording {
  cep: Float32Array;
  dims: number;
  /** Voiced frames (the modelling mask): a range needs 10 of them to be embedded. */
  model: Uint8Array;
  /** Speech frames (the VAD's mask): what fbank models read. */
  speech: Uint8Array;
  fbank: Fbank | null;
  regions: FrameRegion[];
}

/** Ranges kept per recording: beyond this the memo starts again (about 20 MB at 256 dims). */
const MEMO_LIMIT = 10_000;
/** The most frames one network run reads (10 s). */
const MAX_RUN_FRAMES = 1000;

function normalise(e: Float32Array): void {
  let n = 0;
  for (const v of e) n += v * v;
  n = Math.sqrt(n) || 1;
  for (let d = 0; d < e.length; d++) e[d] = e[d]! / n;
}

/**
 * The model bound to one recording, in the shape of a RangeEmbedder: the embedding of any range
 * of frames, memoised (the stages embed the same windows many times), or null when the range
 * has under 10 voiced frames or the model cannot read this recording (no fbank kept).
 */
export function onnxRangeEmbedder(m: OnnxEmbeddingModel, r: OnnxRecording): RangeEmbedder | null {
  if (m.fbank && (!r.fbank || r.fbank.bins !== m.fbank.bins)) return null;
  if (!m.fbank && r.dims !== m.width) return null;
  // The network's outputs before the recording's scale, so that the ranges scaleFor embeds to
  // find that scale are not run again when the stages ask for them.
  const memo = new Map<number, Float32Array | null>();
  const rowsIn = (start: number, end: number): number[] | null => {
    let voiced = 0;
    for (let i = start; i < end && voiced < 10; i++) voiced += r.model[i]!;
    if (voiced < 10) return null;
    const pick = m.fbank ? r.speech : r.model;
    const rows: number[] = [];
    for (let i = start; i < end; i++) if (pick[i]) rows.push(i);
    return rows;
  };
  const raw = (start: number, end: number): Float32Array | null => {
    const rows = rowsIn(start, end);
    return rows ? runRows(rows) : null;
  };
  const runRows = (rows: number[]): Float32Array | null => {
    if (rows.length === 0) return null;
    if (rows.length >= m.windowFrames) return runAsGiven(rows);
    try {
      return runAsGiven(rows);
    } catch (err) {
      // A network whose convolutions see more frames at once than a short range holds fails on
      // it (a time-delay network without padding: "Invalid input shape"). Such a range is run
      // again repeated up to the declared window, the size the network was checked with at load.
      if (err instanceof EmbeddingModelError) throw err;
      return runAsGiven(Array.from({ length: m.windowFrames }, (_, j) => rows[j % rows.length]!));
    }
  };
  const runAsGiven = (rows: number[]): Float32Array => {
    const w = m.width;
    const x = new Float32Array(rows.length * w);
    rows.forEach((i, j) => {
      if (r.fbank) for (let d = 0; d < w; d++) x[j * w + d] = r.fbank.data[i * w + d]! / FBANK_SCALE;
      else x.set(r.cep.subarray(i * w, (i + 1) * w), j * w);
    });
    if (m.spec.input.normalise === 'mean') {
      for (let d = 0; d < w; d++) {
        let s = 0;
        for (let j = 0; j < rows.length; j++) s += x[j * w + d]!;
        const mean = s / rows.length;
        for (let j = 0; j < rows.length; j++) x[j * w + d] = x[j * w + d]! - mean;
      }
    }
    // A long range (a speaker's run of many seconds) goes through the network in pieces of at
    // most MAX_RUN_FRAMES, their outputs averaged: the cost stays linear and the input bounded.
    const pieces = Math.ceil(rows.length / MAX_RUN_FRAMES);
    const out = new Float32Array(m.spec.output.dims);
    for (let p = 0; p < pieces; p++) {
      const a = Math.floor((p * rows.length) / pieces);
      const b = Math.floor(((p + 1) * rows.length) / pieces);
      const e = m.run(x.subarray(a * w, b * w), b - a);
      if (!m.spec.whitened) normalise(e);
      for (let d = 0; d < out.length; d++) out[d] = out[d]! + e[d]! / pieces;
    }
    if (!m.spec.whitened && pieces > 1) normalise(out);
    return out;
  };
  const remembered = (start: number, end: number): Float32Array | null => {
    const key = start * 4_194_304 + end;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const e = raw(start, end);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, e);
    return e;
  };
  const scale = m.spec.whitened ? 1 : scaleFor(m, r, remembered);
  const embed = (start: number, end: number): Float64Array | null => {
    const e = remembered(start, end);
    return e ? Float64Array.from(e, (v) => v * scale) : null;
  };
  const embedFrames = (frames: ArrayLike<number>): Float64Array | null => {
    const pick = m.fbank ? r.speech : r.model;
    let voiced = 0;
    const rows: number[] = [];
    for (let j = 0; j < frames.length; j++) {
      const i = frames[j]!;
      voiced += r.model[i]!;
      if (pick[i]) rows.push(i);
    }
    const e = voiced < 10 ? null : runRows(rows);
    return e ? Float64Array.from(e, (v) => v * scale) : null;
  };
  return { name: m.name, dims: m.spec.output.dims, windowFrames: m.windowFrames, embed, embedFrames };
}

/**
 * The scale that gives a length-normalised network's embeddings unit within-voice variance per
 * dimension in this recording, as the diarization's distances expect (embeddingDistance). Two
 * windows that follow each other without a gap inside one speech region are mostly one voice:
 * half the squared distance between them, per dimension, estimates that variance, and the median
 * over all such pairs stays a within-voice figure while under half of them straddle a change of
 * speaker. With fewer than 8 pairs (short recordings) the sphere's own spread, 1/dims, stands in.
 */
function scaleFor(m: OnnxEmbeddingModel, r: OnnxRecording, raw: (start: number, end: number) => Float32Array | null): number {
  const dims = m.spec.output.dims;
  const spans = windowSpans(r.regions, m.windowFrames, m.windowFrames);
  const within: number[] = [];
  for (let j = 0; j + 1 < spans.length; j++) {
    const a = spans[j]!;
    const b = spans[j + 1]!;
    if (b.start <= a.start || b.start > a.end) continue; // another region
    const ea = raw(a.start, a.end);
    const eb = raw(b.start, b.end);
    if (!ea || !eb) continue;
    let s = 0;
    for (let d = 0; d < dims; d++) s += (ea[d]! - eb[d]!) ** 2;
    within.push(s / (2 * dims));
  }
  within.sort((x, y) => x - y);
  const variance = within.length >= 8 ? within[within.length >> 1]! : 1 / dims;
  return 1 / Math.sqrt(Math.max(variance, 1e-8));
}
