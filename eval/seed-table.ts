// The summary of an evaluation run at several UBM seed phases (eval/run.ts --seeds N): one row
// per seed, then the mean and the range of each figure, because a single seed's figures are one
// draw of a result that depends on it (docs/speech-validation.md, "Dev set (smoke test)").
/** The figures of one evaluation run over a set (eval/run.ts); fractions, except where named. */
export interface SetSummary {
  files: number;
  der_collar_025: number;
  missed_025: number;
  false_alarm_025: number;
  confusion_025: number;
  der_collar_0: number;
  missed_0: number;
  false_alarm_0: number;
  confusion_0: number;
  speaker_count_exact: number;
  talk_share_error_pp: number;
  identity_threshold: number;
  identity_precision: number | null;
  identity_recall: number | null;
  identity_f1: number | null;
  /** Identity at thresholds 0.30-0.94 (eval/run.ts), for calibrating the shipped one. */
  identity_sweep?: { threshold: number; precision: number | null; recall: number | null; f1: number | null }[];
  selector_accuracy: number | null;
  real_time_factor: number;
  speed_x_real_time: number;
}

/**
 * N seed phases spread over (0, 1 / candidates): with `candidates` seedings per run (diarize.ts
 * seedCandidates) a phase p stands for p, p + 1/candidates, …, so only that span holds distinct
 * draws. With one candidate and an odd N they include the default 0.5.
 */
export function seedPhases(n: number, candidates: number): number[] {
  return Array.from({ length: n }, (_, s) => Number(((s + 1) / (n + 1) / Math.max(1, candidates)).toFixed(4)));
}

const HEADER = ['seed phase', 'DER 0.25 %', 'DER 0 %', 'exact count %', 'talk share pp', 'identity F1', 'selectors %', 'x real time'];

const fmt = (x: number | null, digits = 1, scale = 100): string => (x === null ? '-' : (x * scale).toFixed(digits));

/** The figures of one seed's summary, formatted as the table's columns after the first. */
export function seedRow(s: SetSummary): string[] {
  return [fmt(s.der_collar_025), fmt(s.der_collar_0), fmt(s.speaker_count_exact, 0), s.talk_share_error_pp.toFixed(2), fmt(s.identity_f1, 3, 1), fmt(s.selector_accuracy), s.speed_x_real_time.toFixed(0)];
}

type Numeric = { [K in keyof SetSummary]-?: SetSummary[K] extends number | null ? K : never }[keyof SetSummary];

/** Field-wise mean (a figure that is null in any run is null in the mean). */
export function meanSummary(runs: SetSummary[]): SetSummary {
  const out = { ...runs[0]! };
  for (const key of Object.keys(out) as Numeric[]) {
    if (out[key] !== null && typeof out[key] !== 'number') continue;
    const values = runs.map((r) => r[key]);
    (out as Record<Numeric, number | null>)[key] = values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a + v!, 0) / values.length;
  }
  return out;
}

/** Lowest and highest of a figure over the runs (null when any is null). */
function range(runs: SetSummary[], key: Numeric): [number, number] | null {
  const values = runs.map((r) => r[key]);
  if (values.some((v) => v === null)) return null;
  return [Math.min(...(values as number[])), Math.max(...(values as number[]))];
}

export function seedTable(runs: { phase: number; summary: SetSummary }[]): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const r of runs) lines.push(`| ${r.phase} | ${seedRow(r.summary).join(' | ')} |`);
  const summaries = runs.map((r) => r.summary);
  lines.push(`| **mean** | ${seedRow(meanSummary(summaries)).map((c) => `**${c}**`).join(' | ')} |`);
  const low = { ...summaries[0]! };
  const high = { ...summaries[0]! };
  for (const key of Object.keys(low) as Numeric[]) {
    const r = range(summaries, key);
    (low as Record<Numeric, number | null>)[key] = r ? r[0] : null;
    (high as Record<Numeric, number | null>)[key] = r ? r[1] : null;
  }
  const lowRow = seedRow(low);
  const highRow = seedRow(high);
  lines.push(`| range | ${lowRow.map((c, i) => `${c}–${highRow[i]}`).join(' | ')} |`);
  return lines.join('\n');
}
