import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelledPieces, refineByEmbedding, type EmbeddingRefineContext, type EmbeddingRefineRules } from './embedding-refine.ts';
import { rangeEmbedder, type LdaEmbeddingModel } from './window-embedding.ts';

// A one-feature "voice": the embedding is the piece's mean feature value (the projection keeps
// the mean, drops the standard deviation), so voice A sits near +1 and voice B near -1.
const EMBEDDING: LdaEmbeddingModel = { name: 'test', windowFrames: 50, mean: [0, 0], rows: [[1, 0]] };
const RULES: EmbeddingRefineRules = { embeddingRefineRounds: 10, embeddingRefineMargin: 0.5, embeddingRefineMinSec: 0.2, reassignMaxShare: 0.5 };
const PIECE = 40;
const GAP = 20;

/** One speech region per piece; `values[p]` is the voice of piece p, `labels[p]` its label. */
function fixture(values: number[], labels: number[], pieceFrames = values.map(() => PIECE)): { c: EmbeddingRefineContext; frameSpeaker: Int16Array; starts: number[] } {
  const frames = pieceFrames.reduce((a, n) => a + n + GAP, GAP);
  const cep = new Float32Array(frames);
  const model = new Uint8Array(frames);
  const frameSpeaker = new Int16Array(frames).fill(-1);
  const regions: { start: number; end: number }[] = [];
  const starts: number[] = [];
  let at = GAP;
  values.forEach((v, p) => {
    const n = pieceFrames[p]!;
    for (let i = at; i < at + n; i++) {
      cep[i] = v + 0.1 * Math.sin(i); // what is said: a little scatter around the voice
      model[i] = 1;
      frameSpeaker[i] = labels[p]!;
    }
    regions.push({ start: at, end: at + n });
    starts.push(at);
    at += n + GAP;
  });
  const c: EmbeddingRefineContext = { regions, model, cep, dims: 1, pauses: new Uint8Array(frames), embedding: rangeEmbedder(EMBEDDING, cep, 1, model)! };
  return { c, frameSpeaker, starts };
}

const A = 1;
const B = -1;

test('a piece of one voice labelled as the other moves to its voice, and nothing else does', () => {
  const values = [A, A, A, A, A, B, B, B, B, B];
  const labels = [0, 0, 0, 0, 0, 1, 1, 0, 1, 1];
  const { c, frameSpeaker, starts } = fixture(values, labels);
  assert.equal(refineByEmbedding(c, frameSpeaker, 2, RULES), 1);
  assert.deepEqual(
    starts.map((s) => frameSpeaker[s]),
    [0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
  );
  assert.equal(frameSpeaker[0], -1, 'unlabelled frames stay unlabelled');
});

test('a piece about as near both voices stays where it is (the margin)', () => {
  const values = [A, A, A, A, 0.1, B, B, B, B];
  const labels = [0, 0, 0, 0, 1, 1, 1, 1, 1];
  const { c, frameSpeaker, starts } = fixture(values, labels);
  assert.equal(refineByEmbedding(c, frameSpeaker, 2, RULES), 0);
  assert.equal(frameSpeaker[starts[4]!], 1);
  assert.equal(refineByEmbedding(c, frameSpeaker, 2, { ...RULES, embeddingRefineMargin: 0.1 }), 1, 'with a smaller margin it moves');
  assert.equal(frameSpeaker[starts[4]!], 0);
});

test('pieces under the shortest length are not moved', () => {
  const values = [A, A, A, A, B, B, B, B];
  const labels = [0, 0, 0, 0, 1, 1, 0, 1];
  const short = values.map((_, p) => (p === 6 ? 15 : PIECE));
  const { c, frameSpeaker, starts } = fixture(values, labels, short);
  assert.equal(labelledPieces(c, frameSpeaker, 20).length, 7);
  assert.equal(refineByEmbedding(c, frameSpeaker, 2, RULES), 0);
  assert.equal(frameSpeaker[starts[6]!], 0);
});

test('a speaker that would lose most of its speech in one round keeps it (the count is not this step\'s)', () => {
  // Speaker 2 holds two pieces of voice A and one of voice B: both A pieces would leave.
  const values = [A, A, A, A, B, B, B, B, A, A, B];
  const labels = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2];
  const { c, frameSpeaker, starts } = fixture(values, labels);
  assert.equal(refineByEmbedding(c, frameSpeaker, 3, RULES), 0);
  assert.deepEqual(
    [8, 9, 10].map((p) => frameSpeaker[starts[p]!]),
    [2, 2, 2],
  );
});

test('a speaker whose mean rests on one piece is not judged: its piece stays', () => {
  const values = [A, A, A, A, B];
  const labels = [0, 0, 0, 0, 1];
  const { c, frameSpeaker, starts } = fixture(values, labels);
  assert.equal(refineByEmbedding(c, frameSpeaker, 2, RULES), 0);
  assert.equal(frameSpeaker[starts[4]!], 1);
});

test('a long piece counts as several windows; a pause ends a piece', () => {
  const { c, frameSpeaker, starts } = fixture([A, B], [0, 0], [160, 40]);
  const pieces = labelledPieces(c, frameSpeaker, 20);
  assert.deepEqual(
    pieces.map((p) => p.parts),
    [3, 1],
  );
  c.pauses.fill(1, starts[0]! + 70, starts[0]! + 90);
  assert.equal(labelledPieces(c, frameSpeaker, 20).length, 3);
});
