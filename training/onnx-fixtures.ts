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

/**
 * A segmentation network for tests (SEGMENTATION_MODEL's shape): every frame whose mean log
 * energy is over `threshold` is local speaker 1, the others nobody. `input`: 'fbank' reads 40-band
 * fbank [batch, frames, 40] (one output frame per input frame, 10 ms); 'samples' reads 16 kHz
 * samples [batch, 1, samples] in frames of 160 (their mean square's log). Powerset classes, as
 * log-probabilities. Written as DIR/NAME.onnx with DIR/NAME.json; returns the model's path.
 */
export function writeEnergySegmenter(dir: string, name: string, input: 'fbank' | 'samples', threshold: number): string {
  const classes = 7;
  // Class 0 (nobody) scores the threshold, class 1 the frame's mean log energy, the rest far less.
  const width = input === 'fbank' ? 40 : 1;
  const weights = new Float32Array(width * classes);
  for (let b = 0; b < width; b++) weights[b * classes + 1] = 1 / width;
  const bias = Float32Array.from({ length: classes }, (_, c) => (c === 0 ? threshold : c === 1 ? 0 : -1000));
  const head = [
    { op: 'MatMul', inputs: ['x', 'weights'], outputs: ['scores'] },
    { op: 'Add', inputs: ['scores', 'bias'], outputs: ['logits'] },
    { op: 'LogSoftmax', inputs: ['logits'], outputs: ['log_probs'], attributes: [{ name: 'axis', int: -1 }] },
  ];
  const initializers = [
    { name: 'weights', dims: [width, classes], data: weights },
    { name: 'bias', dims: [classes], data: bias },
  ];
  const graph =
    input === 'fbank'
      ? { name, inputs: [{ name: 'fbank', dims: ['B', 'T', 40] }], outputs: [{ name: 'log_probs', dims: ['B', 'T', classes] }], initializers, nodes: [{ op: 'Identity', inputs: ['fbank'], outputs: ['x'] }, ...head] }
      : {
          name,
          inputs: [{ name: 'waveform', dims: ['B', 1, 'S'] }],
          outputs: [{ name: 'log_probs', dims: ['B', 'F', classes] }],
          initializers: [...initializers, { name: 'frame_shape', dims: [3], data: BigInt64Array.from([0n, -1n, 160n]) }, { name: 'floor', dims: [1], data: Float32Array.from([1e-10]) }],
          nodes: [
            { op: 'Reshape', inputs: ['waveform', 'frame_shape'], outputs: ['frames'] },
            { op: 'Mul', inputs: ['frames', 'frames'], outputs: ['squares'] },
            { op: 'ReduceMean', inputs: ['squares'], outputs: ['power'], attributes: [{ name: 'axes', ints: [2] }, { name: 'keepdims', int: 1 }] },
            { op: 'Add', inputs: ['power', 'floor'], outputs: ['floored'] },
            { op: 'Log', inputs: ['floored'], outputs: ['x'] },
            ...head,
          ],
        };
  const onnx = encodeOnnxModel(graph);
  const spec = {
    name,
    input: input === 'fbank' ? { name: 'fbank', features: 'fbank', bins: 40, window: 'povey', sampleScale: 32768 } : { name: 'waveform', features: 'samples' },
    output: { name: 'log_probs', values: 'log-probabilities' },
    windowSec: 5,
    frameStepSec: 0.01,
    frameDurationSec: 0.01,
    classes: 'powerset-3-2',
  };
  const path = `${dir}/${name}.onnx`;
  writeOnnxModel(path, onnx, spec);
  return path;
}
