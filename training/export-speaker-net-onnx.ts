// Exports the project's speaker network (train-speaker-net.py's JSON) as an ONNX model and the JSON
// that describes it, so that it can be used as a deployment's own model (SPEAKER_EMBEDDING_MODEL,
// docs/analysis-speech.md "Bring your own speaker model"):
//   node training/export-speaker-net-onnx.ts NET.json OUT.onnx      (writes OUT.onnx and OUT.json)
// The graph computes what speaker-net.ts computes for one window of voiced frames: the frame
// layers (convolutions zero-padded at the window's ends), mean and standard deviation pooling, the
// linear layer and the LDA. The output is whitened by that LDA, hence "whitened": true.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadSpeakerNet, type SpeakerNet, type SpeakerNetFile } from '../packages/analysis/src/speech/diarization/speaker-net.ts';
import { specPathOf, type OnnxEmbeddingSpec } from '../packages/analysis/src/speech/diarization/onnx-embedding.ts';
import { encodeOnnxModel, type OnnxGraph, type OnnxNode, type OnnxTensor } from './onnx-writer.ts';

/** rows x cols (row-major) transposed. */
function transpose(a: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(a.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = a[r * cols + c]!;
  return out;
}

export function speakerNetGraph(net: SpeakerNet): OnnxGraph {
  const nodes: OnnxNode[] = [];
  const initializers: OnnxTensor[] = [];
  const init = (name: string, dims: number[], data: Float32Array): string => {
    initializers.push({ name, dims, data });
    return name;
  };
  const op = (type: string, inputs: string[], attributes?: OnnxNode['attributes']): string => {
    const out = `t${nodes.length}`;
    nodes.push({ op: type, inputs, outputs: [out], ...(attributes ? { attributes } : {}) });
    return out;
  };
  let x = op('Transpose', ['frames'], [{ name: 'perm', ints: [0, 2, 1] }]);
  net.layers.forEach((l, i) => {
    const half = ((l.kernel - 1) / 2) * l.dilation;
    const w = init(`conv${i}.weight`, [l.outC, l.inC, l.kernel], l.weight);
    const b = init(`conv${i}.bias`, [l.outC], l.bias);
    x = op('Conv', [x, w, b], [
      { name: 'kernel_shape', ints: [l.kernel] },
      { name: 'dilations', ints: [l.dilation] },
      { name: 'pads', ints: [half, half] },
    ]);
    x = op('Relu', [x]);
    x = op('Mul', [x, init(`bn${i}.scale`, [1, l.outC, 1], l.scale)]);
    x = op('Add', [x, init(`bn${i}.shift`, [1, l.outC, 1], l.shift)]);
  });
  const mean = op('ReduceMean', [x], [{ name: 'axes', ints: [2] }, { name: 'keepdims', int: 0 }]);
  const meanSq = op('ReduceMean', [op('Mul', [x, x])], [{ name: 'axes', ints: [2] }, { name: 'keepdims', int: 0 }]);
  const variance = op('Relu', [op('Sub', [meanSq, op('Mul', [mean, mean])])]);
  const std = op('Sqrt', [op('Add', [variance, init('eps', [1], Float32Array.of(1e-5))])]);
  const stats = op('Concat', [mean, std], [{ name: 'axis', int: 1 }]);
  const E = net.embBias.length;
  const emb = op('Gemm', [stats, init('emb.weight', [E, net.embWeight.length / E], net.embWeight), init('emb.bias', [E], net.embBias)], [{ name: 'transB', int: 1 }]);
  const centred = op('Sub', [emb, init('lda.mean', [E], net.ldaMean)]);
  nodes.push({ op: 'MatMul', inputs: [centred, init('lda.rowsT', [E, net.outDims], transpose(net.ldaRows, net.outDims, E))], outputs: ['embedding'] });
  return { name: net.name, inputs: [{ name: 'frames', dims: [1, 'frames', net.dims] }], outputs: [{ name: 'embedding', dims: [1, net.outDims] }], initializers, nodes };
}

/** Writes `path` (…onnx) and, where the engine looks for it (specPathOf), its description. */
export function writeOnnxModel(path: string, onnx: Buffer, spec: unknown): void {
  writeFileSync(path, onnx);
  writeFileSync(specPathOf(path), `${JSON.stringify(spec, null, 2)}\n`);
}

/** The ONNX bytes and the description the engine reads beside them. */
export function exportSpeakerNet(file: SpeakerNetFile & { features?: { kind: 'fbank'; bins: number; window: 'povey' | 'hamming'; sampleScale: number; normalise: 'mean' | 'none' } }): { onnx: Buffer; spec: OnnxEmbeddingSpec } {
  const net = loadSpeakerNet(file);
  const f = file.features;
  return {
    onnx: encodeOnnxModel(speakerNetGraph(net), 'rapport training/export-speaker-net-onnx.ts'),
    spec: {
      name: net.name,
      // A network trained on a fbank export (export-sessions.ts --features fbank40) reads fbank.
      input: f ? { name: 'frames', features: 'fbank', bins: f.bins, window: f.window, sampleScale: f.sampleScale, normalise: f.normalise } : { name: 'frames', features: 'speaker-cepstra', normalise: 'none' },
      output: { name: 'embedding', dims: net.outDims },
      windowSec: net.windowFrames / 100,
      whitened: true,
    },
  };
}

if (import.meta.main) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output?.endsWith('.onnx')) {
    console.error('usage: node training/export-speaker-net-onnx.ts NET.json OUT.onnx');
    process.exit(2);
  }
  const { onnx, spec } = exportSpeakerNet(JSON.parse(readFileSync(input, 'utf8')) as SpeakerNetFile);
  writeOnnxModel(output, onnx, spec);
  console.error(`wrote ${output} (${onnx.length} bytes) and its description`);
}
