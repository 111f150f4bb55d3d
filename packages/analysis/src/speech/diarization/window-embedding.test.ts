import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddingDistance, pieceEmbeddings, rangeEmbedder, speakerEmbeddings, windowStats, type LdaEmbeddingModel } from './window-embedding.ts';
import { SPEAKER_LDA } from './speaker-lda.model.ts';

test('windowStats: mean and standard deviation over the modelled frames only', () => {
  const dims = 2;
  const cep = Float32Array.from([1, 10, 3, 10, 100, 100, 5, 10]);
  const model = Uint8Array.from([1, 1, 0, 1]);
  assert.equal(windowStats(cep, dims, model, 0, 4), null, 'fewer than 10 frames');
  const long = new Float32Array(20 * dims);
  const mask = new Uint8Array(20).fill(1);
  for (let i = 0; i < 20; i++) long.set([i % 2 ? 1 : 3, 7], i * dims);
  const s = windowStats(long, dims, mask, 0, 20)!;
  assert.deepEqual(Array.from(s, (x) => +x.toFixed(6)), [2, 7, 1, 0.001]);
});

test('the shipped model matches the features it projects (20 standardised dims: 40 stats)', () => {
  assert.equal(SPEAKER_LDA.mean.length, 40);
  assert.ok(SPEAKER_LDA.rows.length >= 8);
  for (const row of SPEAKER_LDA.rows) assert.equal(row.length, 40);
  assert.ok(SPEAKER_LDA.windowFrames >= 100);
});

test('embeddingDistance: zero for one mean, growing with the gap and the evidence; null under two windows', () => {
  const at = (x: number, n: number): { sum: Float64Array; n: number } => ({ sum: Float64Array.from([x * n, 0]), n });
  assert.equal(embeddingDistance(at(1, 10), at(1, 20)), 0);
  assert.equal(embeddingDistance(at(0, 1), at(5, 10)), null);
  const near = embeddingDistance(at(0, 4), at(1, 4))!;
  const far = embeddingDistance(at(0, 4), at(3, 4))!;
  const moreEvidence = embeddingDistance(at(0, 40), at(1, 40))!;
  assert.ok(far > near && moreEvidence > near);
});

test('speakerEmbeddings: a window counts for the speaker who holds 90 % of it, mixed windows for nobody', () => {
  const model: LdaEmbeddingModel = { name: 't', windowFrames: 20, mean: [0, 0], rows: [[1, 0]] };
  const frames = 80;
  const cep = new Float32Array(frames);
  const mask = new Uint8Array(frames).fill(1);
  const who = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    who[i] = i < 40 ? 0 : 1;
    cep[i] = who[i] === 0 ? -1 : 1;
  }
  const e = speakerEmbeddings(rangeEmbedder(model, cep, 1, mask)!, mask, [{ start: 0, end: frames }], who, 2);
  // Windows of 20 frames every 10 (7 of them): 3 in speaker 0, 3 in speaker 1, one across the change.
  assert.equal(e[0]!.n, 3);
  assert.equal(e[1]!.n, 3);
  assert.equal(e[0]!.sum[0], -3);
  assert.equal(e[1]!.sum[0], 3);
});

test('pieceEmbeddings: one embedding per run of frames (a gap starts a new one), runs under 10 frames left out', () => {
  const model: LdaEmbeddingModel = { name: 't', windowFrames: 20, mean: [0, 0], rows: [[1, 0]] };
  const cep = new Float32Array(200);
  const mask = new Uint8Array(200).fill(1);
  for (let i = 0; i < 200; i++) cep[i] = i < 100 ? -2 : 4;
  const run = (a: number, b: number): number[] => Array.from({ length: b - a }, (_, j) => a + j);
  // Two runs of 15 frames 50 frames apart (two pieces) and one of 5 frames (too short).
  const e = pieceEmbeddings(rangeEmbedder(model, cep, 1, mask)!, [...run(10, 25), ...run(150, 165), ...run(190, 195)]);
  assert.equal(e.n, 2);
  assert.equal(e.sum[0], -2 + 4);
  // Frames closer together than the gap are one piece.
  assert.equal(pieceEmbeddings(rangeEmbedder(model, cep, 1, mask)!, [...run(10, 25), ...run(40, 55)]).n, 1);
});
