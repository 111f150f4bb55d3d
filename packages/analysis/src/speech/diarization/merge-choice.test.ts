import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickMerge, type MergeEvidence, type MergeRules } from './merge-choice.ts';
import type { EmbeddingSum } from './window-embedding.ts';

const RULES: MergeRules = { clrThreshold: -0.6, clrScaleFrames: 0, mergeVetoSimilarity: 0.15, mergeVetoEmbedding: 6, mergeVetoMinSec: 2, sureMergeSimilarity: 0.8, sureMergeEmbedding: 0 };

/** Three clusters of 10 s; clr[i][j] is the pair's cross-likelihood ratio (split evenly over both directions). */
function evidence(clr: number[][], prints: number[][], embeddings: EmbeddingSum[] | null = null, counts = [1000, 1000, 1000]): MergeEvidence {
  const k = counts.length;
  const sums = new Float64Array(k * k);
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) if (i !== j) sums[i * k + j] = (clr[Math.min(i, j)]![Math.max(i, j)]! / 2) * counts[i]!;
  return { k, counts: Float64Array.from(counts), sums, minSpeakerFrames: 300, voiceprint: (c) => prints[c]!, embeddings: () => embeddings };
}
const CLR = [
  [0, -0.2, -1],
  [0, 0, -1],
];
// Clusters 0 and 1 sound alike (cosine 0.6: no veto, not sure enough to force a merge); 2 does not.
const ALIKE = [
  [1, 0, 0],
  [0.6, 0.8, 0],
  [0, 0, 1],
];
const SAME = [
  [1, 0, 0],
  [1, 0, 0],
  [0, 0, 1],
];

test('the pair with the best likelihood ratio above the threshold is merged', () => {
  assert.deepEqual(pickMerge(evidence(CLR, ALIKE), RULES), { i: 0, j: 1 });
  assert.equal(pickMerge(evidence(CLR, ALIKE), { ...RULES, clrThreshold: 0 }), null);
});

test('voiceprints pointing apart veto a merge of two sizeable clusters', () => {
  const apart = [
    [1, 0, 0],
    [-0.2, 1, 0],
    [0, 0, 1],
  ];
  assert.equal(pickMerge(evidence(CLR, apart), RULES), null);
  // A cluster under mergeVetoMinSec cannot veto.
  assert.deepEqual(pickMerge(evidence(CLR, apart, null, [1000, 150, 1000]), RULES), { i: 0, j: 1 });
});

test('window embeddings far apart veto a merge; close ones or too few windows do not', () => {
  const emb = (x: number, n = 20): EmbeddingSum => ({ sum: Float64Array.from([x * n]), n });
  assert.equal(pickMerge(evidence(CLR, ALIKE, [emb(0), emb(2), emb(9)]), RULES), null);
  assert.deepEqual(pickMerge(evidence(CLR, ALIKE, [emb(0), emb(0.3), emb(9)]), RULES), { i: 0, j: 1 });
  assert.deepEqual(pickMerge(evidence(CLR, ALIKE, [emb(0), emb(2, 1), emb(9)]), RULES), { i: 0, j: 1 });
  assert.deepEqual(pickMerge(evidence(CLR, ALIKE, [emb(0), emb(2), emb(9)]), { ...RULES, mergeVetoEmbedding: Infinity }), { i: 0, j: 1 });
});

test('with no pair above the threshold, two clusters with matching voiceprints are merged anyway', () => {
  const none = [
    [0, -2, -1],
    [0, 0, -1],
  ];
  assert.deepEqual(pickMerge(evidence(none, SAME), RULES), { i: 0, j: 1 });
  assert.equal(pickMerge(evidence(none, SAME), { ...RULES, sureMergeSimilarity: 2 }), null);
  assert.equal(pickMerge(evidence(none, ALIKE), RULES), null, 'cosine 0.6 is not sure');
  // Not for a cluster under mergeVetoMinSec either: its voiceprint rests on too little speech.
  assert.equal(pickMerge({ ...evidence(none, SAME, null, [1000, 150, 1000]), minSpeakerFrames: 100 }, RULES), null);
  // (Under minSpeakerFrames it is merged into its best partner whatever the evidence.)
  assert.deepEqual(pickMerge(evidence(none, SAME, null, [1000, 150, 1000]), RULES), { i: 1, j: 2 });
});
