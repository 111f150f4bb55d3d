// Equal error rate of a score threshold: the error at which wrongly rejecting a same-speaker
// pair is as likely as wrongly accepting a different-speaker pair (the usual single figure for
// a speaker verifier; NIST SRE reports it beside the detection cost).

/** The smallest max(false-reject rate, false-accept rate) over all thresholds "same when score >= t". */
export function equalErrorRate(same: readonly number[], different: readonly number[]): number {
  if (same.length === 0 || different.length === 0) return NaN;
  const all = [...same.map((s) => [s, 1] as const), ...different.map((s) => [s, 0] as const)].sort((a, b) => b[0] - a[0]);
  // Walk the threshold down through every score: false rejects fall, false accepts rise. Tied
  // scores are passed together, since no threshold separates them.
  let accepted = 0;
  let falseAccepts = 0;
  let best = 1;
  for (let i = 0; i < all.length; i++) {
    if (all[i]![1] === 1) accepted++;
    else falseAccepts++;
    if (i + 1 < all.length && all[i + 1]![0] === all[i]![0]) continue;
    best = Math.min(best, Math.max(1 - accepted / same.length, falseAccepts / different.length));
  }
  return best;
}
