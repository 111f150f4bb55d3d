// The neural window speaker embedding's inference (trained offline by
// training/train-speaker-net.py on voices outside the dev set; training/README.md): a small
// time-delay network over the recording's voiced speech frames (standardised c1..c19 and log F0,
// the same features the rest of diarization reads), statistics pooling over any range of frames,
// a linear layer, then an LDA that whitens one voice's scatter. The frame layers run once per
// recording; embedding a window or a piece then costs only its pooling.
//
//   conv k5 (20->C) -> conv k3 dil2 -> conv k3 dil3 -> conv k1 (C->2C), each ReLU then a per-channel
//   scale and shift (the training's batch norms, folded) -> mean and standard deviation -> linear

/** A layer as written by the trainer: weights out x in x kernel, row-major. */
interface ConvLayer {
  inC: number;
  outC: number;
  kernel: number;
  dilation: number;
  weight: Float32Array;
  bias: Float32Array;
  scale: Float32Array;
  shift: Float32Array;
}

/** The trainer's JSON (arrays as base64 little-endian float32). */
export interface SpeakerNetFile {
  name: string;
  windowFrames: number;
  dims: number;
  emb: number;
  keep: number;
  layers: { inC: number; outC: number; kernel: number; dilation: number; weight: string; bias: string; scale: string; shift: string }[];
  embWeight: string;
  embBias: string;
  ldaMean: string;
  ldaRows: string;
  trained?: unknown;
  /** The trainer's own output for one input: the TypeScript inference must reproduce it. */
  check?: { input: string; start: number; end: number; output: number[] };
}

export interface SpeakerNet {
  kind: 'net';
  name: string;
  windowFrames: number;
  /** Input features per frame. */
  dims: number;
  /** Output dimensions (after the LDA). */
  outDims: number;
  layers: ConvLayer[];
  /** emb x (2 * last layer's channels). */
  embWeight: Float32Array;
  embBias: Float32Array;
  ldaMean: Float32Array;
  /** outDims x emb. */
  ldaRows: Float32Array;
}

function floats(b64: string): Float32Array {
  const buf = Buffer.from(b64, 'base64');
  const out = new Float32Array(buf.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(i * 4);
  return out;
}

export function loadSpeakerNet(file: SpeakerNetFile): SpeakerNet {
  const layers = file.layers.map((l) => ({ ...l, weight: floats(l.weight), bias: floats(l.bias), scale: floats(l.scale), shift: floats(l.shift) }));
  for (const [i, l] of layers.entries()) {
    if (l.weight.length !== l.outC * l.inC * l.kernel || l.bias.length !== l.outC) throw new Error(`speaker net: layer ${i} has the wrong size`);
    if (i > 0 && l.inC !== layers[i - 1]!.outC) throw new Error(`speaker net: layer ${i} does not follow layer ${i - 1}`);
  }
  const last = layers[layers.length - 1]!.outC;
  const net: SpeakerNet = { kind: 'net', name: file.name, windowFrames: file.windowFrames, dims: file.dims, outDims: file.keep, layers, embWeight: floats(file.embWeight), embBias: floats(file.embBias), ldaMean: floats(file.ldaMean), ldaRows: floats(file.ldaRows) };
  if (net.embWeight.length !== file.emb * 2 * last || net.ldaRows.length !== file.keep * file.emb || layers[0]!.inC !== file.dims) throw new Error('speaker net: the embedding or LDA has the wrong size');
  return net;
}

/** One layer over a sequence (frames x inC, row-major), zero-padded at both ends. */
function convLayer(l: ConvLayer, x: Float32Array, n: number): Float32Array {
  const out = new Float32Array(n * l.outC);
  const half = ((l.kernel - 1) / 2) * l.dilation;
  const acc = new Float64Array(l.outC);
  for (let t = 0; t < n; t++) {
    acc.set(l.bias);
    for (let k = 0; k < l.kernel; k++) {
      const src = t + k * l.dilation - half;
      if (src < 0 || src >= n) continue;
      const xo = src * l.inC;
      for (let o = 0; o < l.outC; o++) {
        const wo = (o * l.inC) * l.kernel + k;
        let s = 0;
        for (let i = 0; i < l.inC; i++) s += l.weight[wo + i * l.kernel]! * x[xo + i]!;
        acc[o] = acc[o]! + s;
      }
    }
    const yo = t * l.outC;
    for (let o = 0; o < l.outC; o++) out[yo + o] = Math.max(0, acc[o]!) * l.scale[o]! + l.shift[o]!;
  }
  return out;
}

/** Weights rearranged so that the inner loop reads them contiguously (kernel tap, out, in). */
function tapMajor(l: ConvLayer): ConvLayer {
  const w = new Float32Array(l.weight.length);
  for (let o = 0; o < l.outC; o++) for (let i = 0; i < l.inC; i++) for (let k = 0; k < l.kernel; k++) w[(k * l.outC + o) * l.inC + i] = l.weight[(o * l.inC + i) * l.kernel + k]!;
  return { ...l, weight: w };
}

/** convLayer with tap-major weights: the same numbers, several times faster. */
function convLayerFast(l: ConvLayer, x: Float32Array, n: number): Float32Array {
  const out = new Float32Array(n * l.outC);
  const half = ((l.kernel - 1) / 2) * l.dilation;
  const acc = new Float32Array(l.outC);
  const { inC, outC, weight } = l;
  for (let t = 0; t < n; t++) {
    acc.set(l.bias);
    for (let k = 0; k < l.kernel; k++) {
      const src = t + k * l.dilation - half;
      if (src < 0 || src >= n) continue;
      const xo = src * inC;
      let wo = k * outC * inC;
      for (let o = 0; o < outC; o++, wo += inC) {
        let s = 0;
        for (let i = 0; i < inC; i++) s += weight[wo + i]! * x[xo + i]!;
        acc[o] = acc[o]! + s;
      }
    }
    const yo = t * outC;
    for (let o = 0; o < outC; o++) out[yo + o] = Math.max(0, acc[o]!) * l.scale[o]! + l.shift[o]!;
  }
  return out;
}

export { convLayer as convLayerReference };

const prepared = new WeakMap<SpeakerNet, ConvLayer[]>();

/**
 * The frame layers' output for the recording's modelled frames (in order, the frames between
 * them skipped, as in training), and where each frame falls in that sequence.
 */
export interface NetFrames {
  /** Modelled frames x channels. */
  h: Float32Array;
  channels: number;
  /** position[i]: modelled frames before frame i (length frames + 1). */
  position: Int32Array;
}

export function runFrameLayers(net: SpeakerNet, cep: Float32Array, dims: number, model: Uint8Array): NetFrames {
  if (dims !== net.dims) throw new Error(`speaker net reads ${net.dims} features per frame, got ${dims}`);
  const position = new Int32Array(model.length + 1);
  for (let i = 0; i < model.length; i++) position[i + 1] = position[i]! + (model[i] ? 1 : 0);
  const n = position[model.length]!;
  let x: Float32Array<ArrayBuffer> = new Float32Array(n * dims);
  for (let i = 0, j = 0; i < model.length; i++) if (model[i]) x.set(cep.subarray(i * dims, (i + 1) * dims), dims * j++);
  let layers = prepared.get(net);
  if (!layers) prepared.set(net, (layers = net.layers.map(tapMajor)));
  for (const l of layers) x = convLayerFast(l, x, n) as Float32Array<ArrayBuffer>;
  return { h: x, channels: net.layers[net.layers.length - 1]!.outC, position };
}

/** The embedding of the modelled frames in [start, end), or null under 10 of them. */
export function embedRange(net: SpeakerNet, frames: NetFrames, start: number, end: number): Float64Array | null {
  const a = frames.position[start]!;
  const b = frames.position[end]!;
  const n = b - a;
  if (n < 10) return null;
  const C = frames.channels;
  const stats = new Float64Array(2 * C);
  for (let t = a; t < b; t++) {
    const o = t * C;
    for (let c = 0; c < C; c++) {
      const v = frames.h[o + c]!;
      stats[c] = stats[c]! + v;
      stats[C + c] = stats[C + c]! + v * v;
    }
  }
  for (let c = 0; c < C; c++) {
    const m = stats[c]! / n;
    stats[c] = m;
    stats[C + c] = Math.sqrt(Math.max(0, stats[C + c]! / n - m * m) + 1e-5);
  }
  const E = net.embBias.length;
  const e = new Float64Array(E);
  for (let r = 0; r < E; r++) {
    let s = net.embBias[r]!;
    const o = r * 2 * C;
    for (let c = 0; c < 2 * C; c++) s += net.embWeight[o + c]! * stats[c]!;
    e[r] = s - net.ldaMean[r]!;
  }
  const out = new Float64Array(net.outDims);
  for (let r = 0; r < net.outDims; r++) {
    let s = 0;
    const o = r * E;
    for (let c = 0; c < E; c++) s += net.ldaRows[o + c]! * e[c]!;
    out[r] = s;
  }
  return out;
}
