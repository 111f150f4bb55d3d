// Cross-recording identity, scored as pairwise clustering: every speaker appearance (one per
// file and speaker) gets the entity that linkSpeakers chose; a pair of appearances from different
// files is predicted "same" when they share an entity and is truly "same" when they share a
// reference speaker id.

export interface Appearance {
  file: string;
  entity: string; // predicted
  ref: string; // reference id (unique placeholder for spurious or missed speakers)
}

export function pairwiseIdentity(appearances: Appearance[]): { precision: number | null; recall: number | null; f1: number | null; tp: number; fp: number; fn: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < appearances.length; i++)
    for (let j = i + 1; j < appearances.length; j++) {
      const a = appearances[i]!;
      const b = appearances[j]!;
      if (a.file === b.file) continue;
      const predicted = a.entity === b.entity;
      const truth = a.ref === b.ref;
      if (predicted && truth) tp++;
      else if (predicted) fp++;
      else if (truth) fn++;
    }
  const precision = tp + fp > 0 ? tp / (tp + fp) : null;
  const recall = tp + fn > 0 ? tp / (tp + fn) : null;
  const f1 = precision !== null && recall !== null && precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : null;
  return { precision, recall, f1, tp, fp, fn };
}

/**
 * The threshold to adopt from a sweep (ascending thresholds): the middle of the longest run of
 * thresholds that reach the best F1. The first threshold at the maximum sits on the edge of the
 * plateau, where one more voice tips it; on the dev set's half-splits it was often 0.30, the
 * bottom of the sweep, and linked unrelated voices on the other half.
 */
export function pickThreshold(sweep: { threshold: number; f1: number }[]): { threshold: number; f1: number } {
  const best = Math.max(...sweep.map((s) => s.f1));
  let longest = { from: 0, len: 0 };
  let from = -1;
  sweep.forEach((s, i) => {
    if (s.f1 !== best) from = -1;
    else {
      if (from < 0) from = i;
      if (i - from + 1 > longest.len) longest = { from, len: i - from + 1 };
    }
  });
  return sweep[longest.from + Math.floor((longest.len - 1) / 2)] ?? { threshold: 0.99, f1: 0 };
}

/** Thresholds 0.30, 0.31, ..., 0.99 (integer steps: no drift from adding 0.01 repeatedly). */
export const THRESHOLD_SWEEP: number[] = Array.from({ length: 70 }, (_, i) => (30 + i) / 100);
