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
