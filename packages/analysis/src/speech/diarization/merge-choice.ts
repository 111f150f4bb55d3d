// Which two speaker clusters the count stage (speaker-count.ts) joins next, if any. The
// cross-likelihood ratio (CLR) of their GMM speaker models proposes; two channel-robust views of
// the voice can refuse (a veto), and one of them can also accept a pair the CLR rejects.
import { voiceprintSimilarity } from '../voiceprint.ts';
import { embeddingDistance, type EmbeddingSum } from './window-embedding.ts';

export interface MergeEvidence {
  k: number;
  /** Modelled frames per cluster. */
  counts: Float64Array;
  /** sums[i * k + j]: summed log-likelihood ratio of cluster i's frames under model j. */
  sums: Float64Array;
  /** Clusters with fewer frames are always merged into their best partner. */
  minSpeakerFrames: number;
  /** Voiceprint of a cluster (computed on first use). */
  voiceprint: (c: number) => number[];
  /** Window embeddings of every cluster (computed on first use), or null without a model. */
  embeddings: () => EmbeddingSum[] | null;
}

export interface MergeRules {
  clrThreshold: number;
  clrScaleFrames: number;
  mergeVetoSimilarity: number;
  mergeVetoEmbedding: number;
  mergeVetoMinSec: number;
  sureMergeSimilarity: number;
  sureMergeEmbedding: number;
}

/** How much of two models comes from their own data (mean MAP adaptation weight of n_a and n_b frames); 1 when scaleFrames is 0. */
export function clrSizeWeight(na: number, nb: number, scaleFrames: number): number {
  return scaleFrames > 0 ? (na / (na + scaleFrames) + nb / (nb + scaleFrames)) / 2 : 1;
}

/** The CLR of a pair, weighted by how much of each model comes from its own data. */
export function pairClr(e: MergeEvidence, i: number, j: number, scaleFrames: number): number {
  const { k, sums, counts } = e;
  const clr = sums[i * k + j]! / Math.max(1, counts[i]!) + sums[j * k + i]! / Math.max(1, counts[j]!);
  return clr * clrSizeWeight(counts[i]!, counts[j]!, scaleFrames);
}

/** The views of the voice that can refuse a merge: sizes, voiceprints and window embeddings. */
export type VetoEvidence = Pick<MergeEvidence, 'counts' | 'voiceprint' | 'embeddings'>;

/** Both clusters have enough voiced speech for their voiceprints and embeddings to be trusted. */
function sizeable(counts: ArrayLike<number>, r: MergeRules, i: number, j: number): boolean {
  return Math.min(counts[i]!, counts[j]!) >= r.mergeVetoMinSec * 100;
}

/**
 * Whether two clusters are kept apart whatever their likelihood ratio says: both sizeable, and
 * their voiceprints point apart or their window embeddings lie far apart.
 */
export function mergeVetoed(e: VetoEvidence, r: MergeRules, i: number, j: number): boolean {
  if (!sizeable(e.counts, r, i, j)) return false;
  if (r.mergeVetoSimilarity > -1 && voiceprintSimilarity(e.voiceprint(i), e.voiceprint(j)) < r.mergeVetoSimilarity) return true;
  if (!Number.isFinite(r.mergeVetoEmbedding)) return false;
  const emb = e.embeddings();
  const distance = emb ? embeddingDistance(emb[i]!, emb[j]!) : null;
  return distance !== null && distance > r.mergeVetoEmbedding;
}

/** The pair i < j with the highest score (pairs scored null are skipped), and that score. */
function bestPair(k: number, score: (i: number, j: number) => number | null): { pick: { i: number; j: number } | null; best: number } {
  let best = -Infinity;
  let pick: { i: number; j: number } | null = null;
  for (let i = 0; i < k; i++)
    for (let j = i + 1; j < k; j++) {
      const s = score(i, j);
      if (s !== null && s > best) {
        best = s;
        pick = { i, j };
      }
    }
  return { pick, best };
}

/**
 * The pair to merge when the speaker count must come down whatever the evidence says (more
 * clusters than the count decided, or than the user's hint allows): the best likelihood ratio,
 * with no veto and no threshold.
 */
export function forcedMerge(e: MergeEvidence, r: MergeRules): { i: number; j: number } | null {
  return bestPair(e.k, (i, j) => pairClr(e, i, j, r.clrScaleFrames)).pick;
}

export function pickMerge(e: MergeEvidence, r: MergeRules): { i: number; j: number } | null {
  const { counts } = e;
  const byClr = bestPair(e.k, (i, j) => {
    if (mergeVetoed(e, r, i, j)) return null;
    const small = Math.min(counts[i]!, counts[j]!) < e.minSpeakerFrames;
    return pairClr(e, i, j, r.clrScaleFrames) + (small ? 1e6 : 0);
  });
  if (byClr.best >= r.clrThreshold) return byClr.pick;
  // No pair passes the likelihood test. Two sizeable clusters with closely matching voiceprints
  // are still one voice, heard through two channels: the GMM models see the channel, the
  // voiceprint is built not to.
  const byPrint = bestPair(e.k, (i, j) => {
    if (!sizeable(counts, r, i, j)) return null;
    const similarity = voiceprintSimilarity(e.voiceprint(i), e.voiceprint(j));
    return similarity >= r.sureMergeSimilarity ? similarity : null;
  }).pick;
  if (byPrint || !(r.sureMergeEmbedding > 0)) return byPrint;
  // The window embedding, trained on many real voices to ignore words and channel, says the
  // same voice: the nearest such pair.
  const emb = e.embeddings();
  if (!emb) return null;
  return bestPair(e.k, (i, j) => {
    if (!sizeable(counts, r, i, j)) return null;
    const d = embeddingDistance(emb[i]!, emb[j]!);
    return d !== null && d < r.sureMergeEmbedding ? -d : null;
  }).pick;
}
