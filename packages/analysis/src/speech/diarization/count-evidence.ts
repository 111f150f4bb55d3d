// How sure the speaker count is, from the window embedding (which owes nothing to the models the
// count stage merged with): the two nearest speakers, and the speaker whose runs fall furthest
// apart into two groups, both as embeddingDistance (units of the spread expected for one voice).
// A near pair says the count may be one too high; a wide split says it may be one too low. The
// analysis turns them into a margin and a warning (analyze.ts), with thresholds measured on the
// speaker-disjoint folds (docs/analysis-speech.md, "Say when unsure").
import type { FrameRegion } from '../vad.ts';
import { embeddingDistance, speakerEmbeddings, type EmbeddingSum, type RangeEmbedder } from './window-embedding.ts';
import { speakerRuns, splitRuns } from './hint-split.ts';
import type { CountEvidence } from '../../types.ts';

function sumOf(es: Float64Array[], dims: number): EmbeddingSum {
  const sum = new Float64Array(dims);
  for (const e of es) for (let d = 0; d < dims; d++) sum[d] = sum[d]! + e[d]!;
  return { sum, n: es.length };
}

export function countEvidence(emb: RangeEmbedder, model: Uint8Array, regions: FrameRegion[], frameSpeaker: Int16Array, k: number): CountEvidence {
  let nearestPair: number | null = null;
  const windows = speakerEmbeddings(emb, model, regions, frameSpeaker, k);
  for (let i = 0; i < k; i++)
    for (let j = i + 1; j < k; j++) {
      const d = embeddingDistance(windows[i]!, windows[j]!);
      if (d !== null && (nearestPair === null || d < nearestPair)) nearestPair = d;
    }
  let widestSplit: number | null = null;
  for (let s = 0; s < k; s++) {
    // Runs of half a window or more: shorter ones are too noisy to split a voice by.
    const parts = splitRuns(speakerRuns(frameSpeaker, s, emb, emb.windowFrames >> 1), emb.dims);
    if (!parts) continue;
    const d = embeddingDistance(sumOf(parts[0].map((r) => r.e), emb.dims), sumOf(parts[1].map((r) => r.e), emb.dims));
    if (d !== null && (widestSplit === null || d > widestSplit)) widestSplit = d;
  }
  return { nearestPair, widestSplit };
}
