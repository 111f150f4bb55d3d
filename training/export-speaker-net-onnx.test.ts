// A deployment's own speaker model (SPEAKER_EMBEDDING_MODEL): the project's network exported to
// ONNX gives, through onnxruntime, the embeddings the TypeScript inference gives; the engine's
// loader refuses what it cannot use with a message that says why; and an analysis runs on a
// network that reads fbank. The models are built here (no file of ../shared, nothing downloaded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSpeakerNet, writeOnnxModel } from './export-speaker-net-onnx.ts';
import { seededSpeakerNet, writeMeanFbankModel } from './onnx-fixtures.ts';
import { embedRange, loadSpeakerNet, runFrameLayers, type SpeakerNetFile } from '../packages/analysis/src/speech/diarization/speaker-net.ts';
import { EmbeddingModelError, loadOnnxEmbedding, onnxRangeEmbedder, type OnnxEmbeddingModel } from '../packages/analysis/src/speech/diarization/onnx-embedding.ts';
import { analyzeSamples } from '../packages/analysis/src/analyze.ts';
import { synthConversation } from '../packages/analysis/src/speech/synthetic.ts';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';

const dir = mkdtempSync(join(tmpdir(), 'rapport-onnx-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** The trainer's architecture at a small size (20 features in, as the engine gives), seeded weights. */
const smallNet = (): SpeakerNetFile => seededSpeakerNet('small-net', 12, 16, 8, 11, 0.3);

function writeModel(name: string, onnx: Buffer, spec: unknown): string {
  const path = join(dir, `${name}.onnx`);
  writeOnnxModel(path, onnx, spec);
  return path;
}

test('the exported network gives through onnxruntime what the TypeScript inference gives', () => {
  const file = smallNet();
  const { onnx, spec } = exportSpeakerNet(file);
  const model = loadOnnxEmbedding(writeModel('net', onnx, spec));
  assert.match(model.name, /^small-net \(ONNX, sha256 [0-9a-f]{12}\)$/);
  const net = loadSpeakerNet(file);
  const rand = seededRandom(3);
  const frames = 400;
  const cep = Float32Array.from({ length: frames * 20 }, () => rand() * 4 - 2);
  const voiced = Uint8Array.from({ length: frames }, (_, i) => (i % 5 === 4 ? 0 : 1));
  const byo = onnxRangeEmbedder(model, { cep, dims: 20, model: voiced, speech: new Uint8Array(frames).fill(1), fbank: null, regions: [{ start: 0, end: frames }] });
  assert.ok(byo);
  assert.equal(byo.dims, 8);
  for (const [start, end] of [[0, 150], [100, 250], [37, 400], [390, 400]] as const) {
    // The network on the range alone, as the ONNX graph sees it (padded at the range's ends).
    const mask = voiced.map((v, i) => (i >= start && i < end ? v : 0));
    const expected = embedRange(net, runFrameLayers(net, cep, 20, mask), start, end);
    const got = byo.embed(start, end);
    if (!expected) {
      assert.equal(got, null, `[${start}, ${end}) has under 10 voiced frames`);
      continue;
    }
    assert.ok(got);
    const scale = Math.max(...expected.map(Math.abs));
    for (let d = 0; d < 8; d++) assert.ok(Math.abs(got[d]! - expected[d]!) <= 1e-4 * scale + 1e-5, `[${start}, ${end}) dimension ${d}: ${got[d]} vs ${expected[d]}`);
  }
});

test('a range longer than 10 s goes through the network in equal pieces, their embeddings averaged', () => {
  const file = smallNet();
  const { onnx, spec } = exportSpeakerNet(file);
  const model = loadOnnxEmbedding(writeModel('net-long', onnx, spec));
  const net = loadSpeakerNet(file);
  const rand = seededRandom(4);
  const frames = 2500;
  const cep = Float32Array.from({ length: frames * 20 }, () => rand() * 4 - 2);
  const voiced = new Uint8Array(frames).fill(1);
  const byo = onnxRangeEmbedder(model, { cep, dims: 20, model: voiced, speech: voiced, fbank: null, regions: [{ start: 0, end: frames }] })!;
  const got = byo.embed(0, frames)!;
  // 2500 frames: three pieces, [0, 833), [833, 1666), [1666, 2500).
  const pieces = [[0, 833], [833, 1666], [1666, 2500]].map(([a, b]) => embedRange(net, runFrameLayers(net, cep, 20, voiced.map((_, i) => (i >= a! && i < b! ? 1 : 0))), a!, b!)!);
  for (let d = 0; d < 8; d++) {
    const mean = (pieces[0]![d]! + pieces[1]![d]! + pieces[2]![d]!) / 3;
    assert.ok(Math.abs(got[d]! - mean) <= 1e-4 * Math.max(1, Math.abs(mean)), `dimension ${d}: ${got[d]} vs ${mean}`);
  }
});

test('a network trained on a fbank export is exported to read fbank with the bands and normalisation it was trained on', () => {
  // seededSpeakerNet's first layer reads 20 features: the fbank export of 20 bands fits it.
  const file = { ...smallNet(), features: { kind: 'fbank' as const, bins: 20, window: 'povey' as const, sampleScale: 32768, normalise: 'mean' as const } };
  const { onnx, spec } = exportSpeakerNet(file);
  assert.deepEqual(spec.input, { name: 'frames', features: 'fbank', bins: 20, window: 'povey', sampleScale: 32768, normalise: 'mean' });
  const model = loadOnnxEmbedding(writeModel('net-fbank', onnx, spec));
  assert.deepEqual(model.fbank, { bins: 20, window: 'povey', sampleScale: 32768 });
  // Without the export's features the network reads the engine's cepstra, unnormalised.
  assert.deepEqual(exportSpeakerNet(smallNet()).spec.input, { name: 'frames', features: 'speaker-cepstra', normalise: 'none' });
});

test('a model the service cannot use is refused with a message that names the problem', () => {
  const { onnx, spec } = exportSpeakerNet(smallNet());
  const refused = (path: string, pattern: RegExp): void => assert.throws(() => loadOnnxEmbedding(path), (err: Error) => err instanceof EmbeddingModelError && pattern.test(err.message));
  refused(join(dir, 'absent.onnx'), /absent\.onnx: cannot be read \(ENOENT\)/);
  writeFileSync(join(dir, 'alone.onnx'), onnx);
  refused(join(dir, 'alone.onnx'), /its description .*alone\.json is missing or not JSON/);
  refused(writeModel('garbage', Buffer.from('not a model at all'), spec), /not a model onnxruntime can load/);
  refused(writeModel('wrong-input', onnx, { ...spec, input: { ...spec.input, name: 'feats' } }), /no input "feats" \(it has: frames\)/);
  refused(writeModel('wrong-output', onnx, { ...spec, output: { name: 'embs', dims: 8 } }), /no output "embs"/);
  refused(writeModel('wrong-dims', onnx, { ...spec, output: { name: 'embedding', dims: 256 } }), /has 8 values, its description says 256/);
  refused(writeModel('wrong-width', onnx, { ...spec, input: { name: 'frames', features: 'fbank', bins: 80, normalise: 'mean' } }), /reads 20 features per frame; fbank gives 80/);
  refused(writeModel('bad-field', onnx, { ...spec, whitened: 'yes' }), /"whitened" must be true or false/);
  refused(writeModel('bad-window', onnx, { ...spec, windowSec: 30 }), /"windowSec" must be from 0.5 to 4/);
});

test('an analysis runs on a fbank network: its windows read 40 bands of speech, and the method names it', () => {
  const loaded = loadOnnxEmbedding(writeMeanFbankModel(dir));
  let windows = 0;
  const counting: OnnxEmbeddingModel = {
    ...loaded,
    run: (x, frames) => {
      windows++;
      assert.equal(x.length, frames * 40);
      return loaded.run(x, frames);
    },
  };
  const { samples, rate } = synthConversation([{ f0: 105, formantScale: 1 }, { f0: 230, formantScale: 1.2 }], 40, { seed: 2, turnSec: 3 });
  // The mean of the fbank is no speaker embedding (every voice's cosine is near 1), so the count is given.
  const a = analyzeSamples(samples, rate, { speakerEmbedding: counting, speakers: { exact: 2 } });
  assert.ok(windows > 20, `${windows} windows embedded`);
  assert.match(a.method.diarization, /embedded by mean-fbank \(ONNX, sha256 [0-9a-f]{12}\), the deployment's network/);
  assert.equal(a.speakers.length, 2);
  const plain = analyzeSamples(samples, rate);
  assert.doesNotMatch(plain.method.diarization, /mean-fbank/);
});

test("a range too short for the network's convolutions is run again repeated up to the declared window, instead of failing the analysis", () => {
  const loaded = loadOnnxEmbedding(writeMeanFbankModel(dir, 'short-ranges'));
  const seen: number[] = [];
  // A time-delay network fails on fewer frames than it sees at once (onnxruntime: "Invalid input shape").
  const strict: OnnxEmbeddingModel = {
    ...loaded,
    run: (x, frames) => {
      if (frames < 15) throw new Error('Invalid input shape');
      seen.push(frames);
      return loaded.run(x, frames);
    },
  };
  const frames = 400;
  const rand = seededRandom(4);
  const fbank = { bins: 40, data: Int16Array.from({ length: frames * 40 }, () => Math.round(rand() * 2560)) };
  const ones = new Uint8Array(frames).fill(1);
  const embedder = onnxRangeEmbedder(strict, { cep: new Float32Array(frames * 20), dims: 20, model: ones, speech: ones, fbank, regions: [{ start: 0, end: frames }] })!;
  const short = embedder.embedFrames([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
  assert.ok(short && short.every(Number.isFinite), 'twelve frames are embedded');
  assert.equal(seen.at(-1), loaded.windowFrames);
  // Twelve frames repeated carry their own mean: the embedding is that of the same frames at full length.
  const long = embedder.embedFrames(Array.from({ length: loaded.windowFrames }, (_, j) => 10 + (j % 12)))!;
  short.forEach((v, d) => assert.ok(Math.abs(v - long[d]!) < 1e-6));
  assert.ok(embedder.embed(30, 30 + 200), 'a range longer than the window runs as it is');
  assert.equal(seen.at(-1), 200);
});
