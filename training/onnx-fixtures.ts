// Small ONNX speaker models for tests (the service's and the training scripts'): built here from
// seeded numbers, never downloaded.
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { encodeOnnxModel } from './onnx-writer.ts';
import { writeOnnxModel } from './export-speaker-net-onnx.ts';
import type { SpeakerNetFile } from '../packages/analysis/src/speech/diarization/speaker-net.ts';

/**
 * A network that reads `bins`-band fbank: the window's mean log energies through a fixed
 * projection to `dims` numbers. Written as DIR/NAME.onnx with its description DIR/NAME.json;
 * returns the model's path.
 */
export function writeMeanFbankModel(dir: string, name = 'mean-fbank', bins = 40, dims = 12): string {
  const rand = seededRandom(5);
  const onnx = encodeOnnxModel({
    name,
    inputs: [{ name: 'feats', dims: [1, 'T', bins] }],
    outputs: [{ name: 'embs', dims: [1, dims] }],
    initializers: [{ name: 'projection', dims: [bins, dims], data: Float32Array.from({ length: bins * dims }, () => rand() * 2 - 1) }],
    nodes: [
      { op: 'ReduceMean', inputs: ['feats'], outputs: ['pooled'], attributes: [{ name: 'axes', ints: [1] }, { name: 'keepdims', int: 0 }] },
      { op: 'MatMul', inputs: ['pooled', 'projection'], outputs: ['embs'] },
    ],
  });
  const spec = { name, input: { name: 'feats', features: 'fbank', bins, window: 'hamming', normalise: 'none' }, output: { name: 'embs', dims }, windowSec: 1.5, whitened: false };
  const path = `${dir}/${name}.onnx`;
  writeOnnxModel(path, onnx, spec);
  return path;
}

/**
 * The trainer's architecture (train-speaker-net.py: four convolutions of `channels`, statistics
 * pooling, a linear layer of `emb`, an LDA to `keep`) over the engine's 20 features, with seeded
 * weights, written as the trainer writes one.
 */
export function seededSpeakerNet(name: string, channels: number, emb: number, keep: number, seed: number, scale: number): SpeakerNetFile {
  const rand = seededRandom(seed);
  const b64 = (n: number, s = scale): string => Buffer.from(Float32Array.from({ length: n }, () => (rand() * 2 - 1) * s).buffer).toString('base64');
  const C = channels;
  const shape = [
    { inC: 20, outC: C, kernel: 5, dilation: 1 },
    { inC: C, outC: C, kernel: 3, dilation: 2 },
    { inC: C, outC: C, kernel: 3, dilation: 3 },
    { inC: C, outC: 2 * C, kernel: 1, dilation: 1 },
  ];
  return {
    name,
    windowFrames: 150,
    dims: 20,
    emb,
    keep,
    layers: shape.map((l) => ({ ...l, weight: b64(l.outC * l.inC * l.kernel), bias: b64(l.outC), scale: b64(l.outC, 1), shift: b64(l.outC) })),
    embWeight: b64(emb * 4 * C),
    embBias: b64(emb),
    ldaMean: b64(emb),
    ldaRows: b64(keep * emb),
  };
}
