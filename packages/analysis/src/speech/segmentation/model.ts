// A speaker segmentation network: for a window of a few seconds of audio, which of up to three
// "local" speakers speaks in each of its output frames (who is speaker 1 in one window says
// nothing of who it is in the next: the clustering links them, diarization/). The engine ships
// one (packages/analysis/models/, trained by training/train-segmentation.py on simulated
// conversations of real voices), and a deployment may bring its own (SEGMENTATION_MODEL), for
// example pyannote's segmentation-3.0 exported to ONNX: an ONNX file and beside it a JSON that
// declares what the network reads and gives (docs/analysis-speech.md, "Bring your own
// segmentation model"). A bad model is refused when it is loaded, with what to fix.
import { createHash } from 'node:crypto';
import { onnxRuntimeOr, readModelFiles, SESSION_OPTIONS, type OrtSession } from '../onnx-runtime.ts';
import type { FbankOptions, FbankWindow } from '../fbank.ts';

/** What the JSON beside the ONNX file declares. */
export interface SegmentationSpec {
  name: string;
  input: {
    /** The graph input: fbank float32 [batch, frames, bins]; samples float32 [batch, 1, samples] or [batch, samples]. */
    name: string;
    /** 'fbank': Kaldi-style log mel energies of every 10 ms frame (fbank.ts); 'samples': 16 kHz samples in [-1, 1]. */
    features: 'fbank' | 'samples';
    bins?: number;
    window?: FbankWindow;
    sampleScale?: number;
    /** fbank values are multiplied by this before the network reads them (default 1: natural-log energies). */
    valueScale?: number;
  };
  output: {
    /** The graph output: float32 [batch, frames, classes]. */
    name: string;
    /** 'log-probabilities' (log-softmax, as pyannote's powerset models give) or 'probabilities'. */
    values: 'log-probabilities' | 'probabilities';
  };
  /** The window the network reads, seconds (2-20). */
  windowSec: number;
  /** Seconds between output frames, and the span of audio one output frame stands for. */
  frameStepSec: number;
  frameDurationSec: number;
  /**
   * 'powerset-3-2': 7 classes, the sets of at most two of three local speakers (none, 1, 2, 3, 1+2,
   * 1+3, 2+3; pyannote 3.x). 'multilabel-N': N independent speaker probabilities (pyannote 2.x).
   */
  classes: string;
}

export interface SegmentationModel {
  /** The declared name with the file's checksum: recorded in the analysis's method. */
  name: string;
  spec: SegmentationSpec;
  /** Local speakers per window. */
  speakers: number;
  /** Output classes per frame. */
  classes: number;
  windowFrames: number;
  /** Set when the network reads fbank: the analysis computes it while decoding. */
  fbank: FbankOptions | null;
  /** The network on `batch` windows laid end to end; [batch, frames, classes] out, and the frame count. */
  run(x: Float32Array, batch: number, length: number): { data: Float32Array; frames: number };
}

/** A segmentation model the service cannot use: the message says what to fix. */
export class SegmentationModelError extends Error {
  override name = 'SegmentationModelError';
}

/** The powerset classes of three local speakers with at most two at once, as bitmasks. */
export const POWERSET_3_2 = [0b000, 0b001, 0b010, 0b100, 0b011, 0b101, 0b110];

function fail(path: string, what: string): never {
  throw new SegmentationModelError(`speaker segmentation model ${path}: ${what}`);
}

export function parseSegmentationSpec(json: unknown, where: string): SegmentationSpec {
  const o = json as Partial<SegmentationSpec> | null;
  const bad = (what: string): never => fail(where, what);
  if (!o || typeof o !== 'object') bad('the JSON is not an object');
  const name = typeof o!.name === 'string' && o!.name.trim() ? o!.name.trim() : bad('"name" must be a non-empty string');
  const input = o!.input ?? bad('"input" is missing');
  if (typeof input.name !== 'string' || !input.name) bad('"input.name" must name the graph input');
  if (input.features !== 'fbank' && input.features !== 'samples') bad('"input.features" must be "fbank" or "samples"');
  if (input.features === 'fbank') {
    if (!Number.isInteger(input.bins) || input.bins! < 10 || input.bins! > 128) bad('"input.bins" must be an integer from 10 to 128 for fbank');
    if (input.window !== undefined && input.window !== 'povey' && input.window !== 'hamming') bad('"input.window" must be "povey" or "hamming"');
  }
  for (const k of ['sampleScale', 'valueScale'] as const) {
    const v = input[k];
    if (v !== undefined && !(typeof v === 'number' && v > 0 && Number.isFinite(v))) bad(`"input.${k}" must be a positive number`);
  }
  const output = o!.output ?? bad('"output" is missing');
  if (typeof output.name !== 'string' || !output.name) bad('"output.name" must name the graph output');
  if (output.values !== 'log-probabilities' && output.values !== 'probabilities') bad('"output.values" must be "log-probabilities" or "probabilities"');
  const num = (key: 'windowSec' | 'frameStepSec' | 'frameDurationSec', lo: number, hi: number): number => {
    const v = o![key];
    return typeof v === 'number' && v >= lo && v <= hi ? v : bad(`"${key}" must be a number from ${lo} to ${hi}`);
  };
  const windowSec = num('windowSec', 2, 20);
  const frameStepSec = num('frameStepSec', 0.005, 0.2);
  const frameDurationSec = num('frameDurationSec', 0.005, 1);
  const classes = typeof o!.classes === 'string' && /^(powerset-3-2|multilabel-[1-9])$/.test(o!.classes) ? o!.classes : bad('"classes" must be "powerset-3-2" or "multilabel-N" (N from 1 to 9)');
  return { name, input: { ...input }, output: { ...output }, windowSec, frameStepSec, frameDurationSec, classes };
}

/** The JSON beside `model.onnx`: `model.json`. */
export function segmentationSpecPath(modelPath: string): string {
  return modelPath.replace(/\.onnx$/i, '') + '.json';
}

/**
 * Loads, checks and binds a model; throws SegmentationModelError naming what is wrong (no file,
 * no JSON, a field, a graph without the declared input or output, output of the wrong shape).
 */
export function loadSegmentationModel(modelPath: string): SegmentationModel {
  const specPath = segmentationSpecPath(modelPath);
  const { bytes, json } = readModelFiles(modelPath, specPath, (what) => fail(modelPath, what));
  const spec = parseSegmentationSpec(json, specPath);
  const runtime = onnxRuntimeOr((message) => new SegmentationModelError(message));
  const session: OrtSession = new runtime.Session();
  try {
    session.loadModel(modelPath, SESSION_OPTIONS);
  } catch (err) {
    fail(modelPath, `not a model onnxruntime can load (${(err as Error).message})`);
  }
  const input = session.inputMetadata.find((m) => m.name === spec.input.name);
  if (!input) fail(modelPath, `the graph has no input "${spec.input.name}" (it has: ${session.inputMetadata.map((m) => m.name).join(', ')})`);
  if (!session.outputMetadata.some((m) => m.name === spec.output.name)) fail(modelPath, `the graph has no output "${spec.output.name}" (it has: ${session.outputMetadata.map((m) => m.name).join(', ')})`);
  const fbankInput = spec.input.features === 'fbank';
  const width = fbankInput ? spec.input.bins! : 1;
  if (fbankInput && (input.shape.length !== 3 || (input.shape[2]! >= 0 && input.shape[2] !== width))) fail(modelPath, `input "${input.name}" must be [batch, frames, ${width}] (it is [${input.shape.join(', ')}])`);
  if (!fbankInput && input.shape.length !== 3 && input.shape.length !== 2) fail(modelPath, `input "${input.name}" must be [batch, 1, samples] or [batch, samples] (it is [${input.shape.join(', ')}])`);
  const samplesDims = input.shape.length;
  const powerset = spec.classes === 'powerset-3-2';
  const classes = powerset ? POWERSET_3_2.length : Number(spec.classes.slice('multilabel-'.length));
  const windowFrames = Math.round(spec.windowSec * 100);
  const run = (x: Float32Array, batch: number, length: number): { data: Float32Array; frames: number } => {
    const dims = fbankInput ? [batch, length, width] : samplesDims === 3 ? [batch, 1, length] : [batch, length];
    const out = session.run({ [spec.input.name]: runtime.tensor(x, dims) }, { [spec.output.name]: null }, {})[spec.output.name];
    if (!out || out.dims.length !== 3 || out.dims[0] !== batch || out.dims[2] !== classes) throw new SegmentationModelError(`speaker segmentation model ${modelPath}: output "${spec.output.name}" is [${out?.dims.join(', ') ?? ''}], its description says [${batch}, frames, ${classes}]`);
    return { data: out.data instanceof Float32Array ? out.data : Float32Array.from(out.data), frames: out.dims[1]! };
  };
  // One run before any media: a graph that cannot take a window of the declared size fails now.
  const probeLength = fbankInput ? windowFrames : Math.round(spec.windowSec * 16000);
  let probe: { data: Float32Array; frames: number };
  try {
    probe = run(new Float32Array(probeLength * width), 1, probeLength);
  } catch (err) {
    fail(modelPath, `a window of ${spec.windowSec} s did not run (${(err as Error).message})`);
  }
  if (!probe.data.every(Number.isFinite)) fail(modelPath, 'a silent window gives values that are not finite');
  const expected = Math.round(spec.windowSec / spec.frameStepSec);
  if (Math.abs(probe.frames - expected) > Math.max(2, 0.05 * expected)) fail(modelPath, `a window of ${spec.windowSec} s gives ${probe.frames} frames; "frameStepSec" ${spec.frameStepSec} says about ${expected}`);
  const checksum = createHash('sha256').update(bytes).digest('hex');
  const fbank = fbankInput ? { bins: spec.input.bins!, window: spec.input.window ?? 'povey', sampleScale: spec.input.sampleScale ?? 1 } : null;
  return { name: `${spec.name} (ONNX, sha256 ${checksum})`, spec, speakers: powerset ? 3 : classes, classes, windowFrames, fbank, run };
}
