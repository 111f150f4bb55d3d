// Small ONNX speaker models for tests (the service's and the training scripts'): built here from
// seeded numbers, never downloaded.
import { writeFileSync } from 'node:fs';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { encodeOnnxModel } from './onnx-writer.ts';

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
  writeFileSync(path, onnx);
  writeFileSync(`${dir}/${name}.json`, JSON.stringify(spec));
  return path;
}
