// File-by-file comparison of two evaluations of the same files: how many files a change helps and
// hurts (DER moved by more than `margin` points), and how the exact counts and the mean of the
// files' DER move. Means over a few dozen files move by a point or two on noise alone
// (docs/speech-validation.md, "Speaker-disjoint folds").

/** The per-file figures `eval/run.ts --json` writes. */
export interface FileFigures {
  name: string;
  der25: number;
  ref: number;
  hyp: number;
}

export interface Paired {
  files: number;
  better: number;
  worse: number;
  exactBefore: number;
  exactAfter: number;
  meanDerBefore: number;
  meanDerAfter: number;
}

export function pairFiles(before: FileFigures[], after: FileFigures[], margin = 0.005): Paired {
  const old = new Map(before.map((f) => [f.name, f]));
  const out: Paired = { files: 0, better: 0, worse: 0, exactBefore: 0, exactAfter: 0, meanDerBefore: 0, meanDerAfter: 0 };
  for (const a of after) {
    const b = old.get(a.name);
    if (!b) continue;
    out.files++;
    if (a.der25 < b.der25 - margin) out.better++;
    else if (a.der25 > b.der25 + margin) out.worse++;
    if (b.ref === b.hyp) out.exactBefore++;
    if (a.ref === a.hyp) out.exactAfter++;
    out.meanDerBefore += b.der25;
    out.meanDerAfter += a.der25;
  }
  if (out.files > 0) {
    out.meanDerBefore /= out.files;
    out.meanDerAfter /= out.files;
  }
  return out;
}

export function pairedComparison(before: FileFigures[], after: FileFigures[]): string {
  const p = pairFiles(before, after);
  if (p.files === 0) return 'baseline: no file in common';
  const pct = (x: number): string => (100 * x).toFixed(1);
  return `against the baseline, file by file (${p.files} files): DER better on ${p.better}, worse on ${p.worse} (by more than 0.5 points); exact count ${p.exactBefore} -> ${p.exactAfter}; mean file DER ${pct(p.meanDerBefore)} -> ${pct(p.meanDerAfter)} %`;
}
