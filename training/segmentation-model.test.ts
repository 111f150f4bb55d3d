// A deployment's own segmentation network (SEGMENTATION_MODEL, issue 38 §6): small ONNX networks
// the project writes (onnx-fixtures.ts) are loaded, checked and run behind the engine's interface,
// and bad ones are refused with what to fix. The engine's own network is checked the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEnergySegmenter } from './onnx-fixtures.ts';
import { loadSegmentationModel, parseSegmentationSpec, SegmentationModelError } from '../packages/analysis/src/speech/segmentation/model.ts';
import { BUILT_IN_SEGMENTATION, BUILT_IN_SEGMENTATIONS, builtInSegmentation } from '../packages/analysis/src/speech/segmentation/built-in.ts';
import { SampleSegmenter, segmentFbank, windowStarts } from '../packages/analysis/src/speech/segmentation/local-segmentation.ts';
import { FbankAnalyzer } from '../packages/analysis/src/speech/fbank.ts';
import { analyzeSamples } from '../packages/analysis/src/analyze.ts';
import { synthConversation } from '../packages/analysis/src/speech/synthetic.ts';

const dir = mkdtempSync(join(tmpdir(), 'seg-model-'));
const MAN = { f0: 110, formantScale: 1 };

/** 3 s of a tone burst at 1-2 s, else near silence. */
function burst(): Float32Array {
  const x = new Float32Array(48000);
  for (let i = 0; i < x.length; i++) x[i] = i >= 16000 && i < 32000 ? 0.3 * Math.sin(i * 0.2) : 1e-5 * Math.sin(i);
  return x;
}

test('windows cover the recording: every hop, the last one ending with it, one short window for a short recording', () => {
  assert.deepEqual(windowStarts(1000, 800, 200), [0, 200]);
  assert.deepEqual(windowStarts(1050, 800, 200), [0, 200, 250]);
  assert.deepEqual(windowStarts(500, 800, 200), [0]);
});

test('an fbank network: loaded, run in windows, loud frames heard as local speaker 1, silence as nobody', () => {
  const model = loadSegmentationModel(writeEnergySegmenter(dir, 'energy-fbank', 'fbank', 0));
  assert.match(model.name, /^energy-fbank \(ONNX, sha256 [0-9a-f]{64}\)$/);
  assert.equal(model.speakers, 3);
  const fb = new FbankAnalyzer(model.fbank!);
  fb.push(burst());
  const seg = segmentFbank(model, fb.finish(), 2);
  assert.equal(seg.windows.length, 1, 'a 3 s recording is one window of its own length');
  const active = seg.active[0]!;
  assert.equal(active[150], 1, 'the burst: speaker 1');
  assert.equal(active[50], 0, 'silence: nobody');
  assert.ok(Math.abs(seg.activity[0]![150 * 3]! - 1 / (1 + Math.exp(-6.04))) < 0.01, 'its probability is the class marginal');
});

test('a network that reads samples runs while the samples stream, and gives the same as in one piece', () => {
  const model = loadSegmentationModel(writeEnergySegmenter(dir, 'energy-samples', 'samples', Math.log(1e-3)));
  const x = new Float32Array(16000 * 12);
  x.set(burst(), 16000 * 6);
  const whole = new SampleSegmenter(model, 2);
  whole.push(x);
  const a = whole.finish();
  const chunked = new SampleSegmenter(model, 2);
  for (let i = 0; i < x.length; i += 4321) chunked.push(x.subarray(i, i + 4321));
  const b = chunked.finish();
  assert.deepEqual(a.windows, b.windows);
  assert.deepEqual(a.windows.map((w) => w.startSec), [0, 2, 4, 6, 7]);
  assert.deepEqual(a.active, b.active);
  // The burst at 7-8 s is frames 100-199 of the window that starts at 6 s.
  assert.equal(a.active[3]![150], 1);
  assert.equal(a.active[3]![50], 0);
});

test('bad models are refused at load with what to fix', () => {
  const refused = (path: string, pattern: RegExp): void => assert.throws(() => loadSegmentationModel(path), (err: Error) => err instanceof SegmentationModelError && pattern.test(err.message), pattern.source);
  refused(join(dir, 'absent.onnx'), /cannot be read \(ENOENT\)/);
  const good = writeEnergySegmenter(dir, 'spec-less', 'fbank', 10);
  writeFileSync(good.replace(/\.onnx$/, '.json'), 'not json');
  refused(good, /description .* is missing or not JSON/);
  const spec = (name: string, edit: (s: Record<string, unknown>) => void): string => {
    const path = writeEnergySegmenter(dir, name, 'fbank', 10);
    const s = JSON.parse(readFileSync(path.replace(/\.onnx$/, '.json'), 'utf8')) as Record<string, unknown>;
    edit(s);
    writeFileSync(path.replace(/\.onnx$/, '.json'), JSON.stringify(s));
    return path;
  };
  refused(spec('wrong-input', (s) => ((s.input as Record<string, unknown>).name = 'audio')), /the graph has no input "audio" \(it has: fbank\)/);
  refused(spec('wrong-bins', (s) => ((s.input as Record<string, unknown>).bins = 80)), /must be \[batch, frames, 80\]/);
  refused(spec('wrong-classes', (s) => (s.classes = 'multilabel-4')), /output "log_probs" is \[1, 500, 7\], its description says \[1, frames, 4\]/);
  refused(spec('wrong-step', (s) => (s.frameStepSec = 0.02)), /gives 500 frames; "frameStepSec" 0.02 says about 250/);
  refused(spec('no-window', (s) => delete s.windowSec), /"windowSec" must be a number from 2 to 20/);
  const notOnnx = join(dir, 'text.onnx');
  copyFileSync(good.replace(/\.onnx$/, '.json'), notOnnx.replace(/\.onnx$/, '.json'));
  writeFileSync(notOnnx, 'hello');
  refused(notOnnx, /description|not a model onnxruntime can load/);
  assert.throws(() => parseSegmentationSpec({ name: 'x', input: { name: 'x', features: 'mfcc' } }, 'x.json'), /"input.features" must be "fbank" or "samples"/);
});

test("the engine's own networks load, read the fbank they were trained on, and run as one model, each named with its checksum", () => {
  const model = builtInSegmentation();
  assert.equal(model.spec.input.features, 'fbank');
  assert.equal(model.spec.classes, 'powerset-3-2');
  assert.equal(BUILT_IN_SEGMENTATIONS[0], BUILT_IN_SEGMENTATION);
  for (const f of BUILT_IN_SEGMENTATIONS) assert.ok(model.name.includes(loadSegmentationModel(f).name), model.name);
  assert.match(model.name, /^ensemble of 3: /);
});

test("a deployment's network is what the analysis diarizes with, and its name is in the method", () => {
  const { samples } = synthConversation([MAN], 20, { seed: 4, turnSec: 3 });
  const model = loadSegmentationModel(writeEnergySegmenter(dir, 'energy-analysis', 'fbank', 0));
  const a = analyzeSamples(samples, 16000, { segmentationModel: model });
  assert.ok(a.method.diarization.includes(model.name), a.method.diarization);
  assert.equal(a.speakers.length, 1);
});
