import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convLayerReference, embedRange, loadSpeakerNet, runFrameLayers, type SpeakerNetFile } from './speaker-net.ts';
import { seededRandom } from '../../behavior/stats.ts';
import { rangeEmbedder } from './window-embedding.ts';

const b64 = (xs: number[]): string => Buffer.from(Float32Array.from(xs).buffer).toString('base64');

/** A small network with seeded weights, written as the trainer writes one. */
function tinyNet(dims = 3, C = 4, E = 5, keep = 2): SpeakerNetFile {
  const rand = seededRandom(42);
  const r = (n: number): number[] => Array.from({ length: n }, () => rand() * 2 - 1);
  const shape = [
    { inC: dims, outC: C, kernel: 5, dilation: 1 },
    { inC: C, outC: C, kernel: 3, dilation: 2 },
    { inC: C, outC: 2 * C, kernel: 1, dilation: 1 },
  ];
  return {
    name: 'tiny',
    windowFrames: 20,
    dims,
    emb: E,
    keep,
    layers: shape.map((l) => ({ ...l, weight: b64(r(l.outC * l.inC * l.kernel)), bias: b64(r(l.outC)), scale: b64(r(l.outC)), shift: b64(r(l.outC)) })),
    embWeight: b64(r(E * 4 * C)),
    embBias: b64(r(E)),
    ldaMean: b64(r(E)),
    ldaRows: b64(r(keep * E)),
  };
}

test('the frame layers give the reference convolution numbers, over the modelled frames only', () => {
  const net = loadSpeakerNet(tinyNet());
  const rand = seededRandom(7);
  const frames = 60;
  const cep = Float32Array.from({ length: frames * 3 }, () => rand() * 4 - 2);
  const model = Uint8Array.from({ length: frames }, (_, i) => (i % 4 === 3 ? 0 : 1));
  const out = runFrameLayers(net, cep, 3, model);
  // The reference: the modelled frames packed into one sequence, each layer by the plain loop.
  const n = model.reduce((a, b) => a + b, 0);
  let x: Float32Array<ArrayBuffer> = new Float32Array(n * 3);
  for (let i = 0, j = 0; i < frames; i++) if (model[i]) x.set(cep.subarray(i * 3, i * 3 + 3), 3 * j++);
  for (const l of net.layers) x = convLayerReference(l, x, n) as Float32Array<ArrayBuffer>;
  assert.equal(out.h.length, x.length);
  for (let i = 0; i < x.length; i++) assert.ok(Math.abs(out.h[i]! - x[i]!) < 1e-4, `value ${i}`);
  assert.equal(out.position[frames], n);
});

test('embedRange pools the range\'s modelled frames: null under 10, the LDA\'s width out, the same range the same vector', () => {
  const net = loadSpeakerNet(tinyNet());
  const rand = seededRandom(9);
  const cep = Float32Array.from({ length: 100 * 3 }, () => rand());
  const model = new Uint8Array(100).fill(1);
  const frames = runFrameLayers(net, cep, 3, model);
  assert.equal(embedRange(net, frames, 0, 9), null);
  const e = embedRange(net, frames, 10, 60)!;
  assert.equal(e.length, 2);
  assert.deepEqual(embedRange(net, frames, 10, 60), e);
  assert.notDeepEqual(embedRange(net, frames, 50, 100), e);
});

test('a network file whose sizes do not fit is refused', () => {
  const bad = tinyNet();
  bad.layers[1]!.inC = 7;
  assert.throws(() => loadSpeakerNet(bad), /layer 1/);
  const wrongLda = { ...tinyNet(), keep: 3 };
  assert.throws(() => loadSpeakerNet(wrongLda), /embedding or LDA/);
});

test('the network embeds a list of frames run by run: each run of consecutive frames pooled as a range', () => {
  // Local speakers' clean frames reach the embedding as lists (embedInPieces -> embedFrames); a
  // run split into single frames (a gap rule of 1) gave no embedding at all, so every recording
  // read as one speaker with the network.
  const net = loadSpeakerNet(tinyNet());
  const rand = seededRandom(11);
  const cep = Float32Array.from({ length: 100 * 3 }, () => rand());
  const model = new Uint8Array(100).fill(1);
  const emb = rangeEmbedder(net, cep, 3, model)!;
  const run = Array.from({ length: 40 }, (_, i) => 20 + i);
  assert.deepEqual(emb.embedFrames(run), emb.embed(20, 60));
  const twoRuns = [...run, ...Array.from({ length: 30 }, (_, i) => 70 + i)];
  const a = emb.embed(20, 60)!;
  const b = emb.embed(70, 100)!;
  const both = emb.embedFrames(twoRuns)!;
  both.forEach((v, d) => assert.ok(Math.abs(v - (a[d]! + b[d]!) / 2) < 1e-9, `dimension ${d}: the mean of the two runs`));
});
