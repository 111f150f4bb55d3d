// Does a confidence mean what it says (decisions §20)? On analyses of simulated conversations of
// held-out voices, every pair of speakers the diarization found in a recording is scored with the
// real scoring code (documents/evidence.ts pairEvidence: components with their confidence, held
// to the speaker trust), and each pair figure (a component with a score) is put in a band of its
// confidence. A figure rests on right speakers when each of the two is, by at least
// RIGHT_PURITY of its speech, one reference voice. The criterion: among figures shown at
// confidence >= 80 %, at least 80 % rest on right speakers. SPEAKER_TRUST
// (packages/analysis/src/matching/speaker-trust.ts) is set from this table.
//
//   node eval/confidence-calibration.ts --analyses DIR
//
// DIR: JSON files, each { analysis: MediaAnalysis, speakerPurity: number[] }, speakerPurity[i] the
// share of hypothesis speaker i's speech that is its majority reference voice.
import { parseArgs } from 'node:util';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { aggregateMetrics } from '../packages/analysis/src/behavior/speaker-metrics.ts';
import { pairEvidence } from '../packages/analysis/src/documents/evidence.ts';
import type { MemberInput } from '../packages/analysis/src/documents/types.ts';
import type { MediaAnalysis } from '../packages/analysis/src/types.ts';

export interface CalibrationInput {
  analysis: MediaAnalysis;
  speakerPurity: number[];
}

/** A speaker is right when this share of its speech is one reference voice. */
export const RIGHT_PURITY = 0.9;
/** The bands of the table, [low, high) in 0..1 (the last one includes 1). */
export const BANDS: readonly [number, number][] = [[0, 0.2], [0.2, 0.4], [0.4, 0.6], [0.6, 0.8], [0.8, 0.9], [0.9, 1]];
/** The criterion: among figures at confidence >= shownAt, at least `right` rest on right speakers. */
export const CRITERION = { shownAt: 0.8, right: 0.8 } as const;

export interface PairFigure {
  file: string;
  key: string;
  confidence: number;
  right: boolean;
}

/** Every pair figure of every recording: each component with a score, of each pair of its speakers. */
export function pairFigures(inputs: readonly { name: string; input: CalibrationInput }[]): PairFigure[] {
  const out: PairFigure[] = [];
  for (const { name, input } of inputs) {
    const a = input.analysis;
    const media = { [name]: a };
    const member = (ref: string, i: number): MemberInput => ({
      ref, name: `Speaker ${i + 1}`, entityId: null, metrics: aggregateMetrics([{ metrics: a.speakers[i]!.metrics }]), appearances: [{ mediaId: name, speakerIndex: i }],
    });
    for (let i = 0; i < a.speakers.length; i++) {
      for (let j = i + 1; j < a.speakers.length; j++) {
        const right = (input.speakerPurity[i] ?? 0) >= RIGHT_PURITY && (input.speakerPurity[j] ?? 0) >= RIGHT_PURITY;
        const pair = pairEvidence(member('target', i), member('group[0]', j), media);
        for (const c of pair.components) if (c.score !== null) out.push({ file: name, key: c.key, confidence: c.confidence, right });
      }
    }
  }
  return out;
}

export interface BandRow {
  band: [number, number];
  figures: number;
  right: number;
  /** right / figures; null for an empty band. */
  rightShare: number | null;
}

export function calibrationTable(figures: readonly PairFigure[]): { rows: BandRow[]; shown: { figures: number; rightShare: number | null; met: boolean } } {
  const rows = BANDS.map(([lo, hi], k): BandRow => {
    const last = k === BANDS.length - 1;
    const inBand = figures.filter((f) => f.confidence >= lo && (last ? f.confidence <= hi : f.confidence < hi));
    const right = inBand.filter((f) => f.right).length;
    return { band: [lo, hi], figures: inBand.length, right, rightShare: inBand.length ? right / inBand.length : null };
  });
  const shown = figures.filter((f) => f.confidence >= CRITERION.shownAt);
  const shownRight = shown.filter((f) => f.right).length;
  const rightShare = shown.length ? shownRight / shown.length : null;
  // No figure shown as that sure meets the criterion trivially (and says nothing of the others).
  return { rows, shown: { figures: shown.length, rightShare, met: rightShare === null || rightShare >= CRITERION.right } };
}

export function formatTable(t: ReturnType<typeof calibrationTable>): string {
  const pct = (x: number) => `${Math.round(x * 100)}`;
  const lines = ['| confidence | pair figures | on right speakers |', '|---|---|---|'];
  for (const r of t.rows) lines.push(`| ${pct(r.band[0])}-${pct(r.band[1])} % | ${r.figures} | ${r.rightShare === null ? '-' : `${pct(r.rightShare)} %`} |`);
  lines.push('', `Shown at >= ${pct(CRITERION.shownAt)} %: ${t.shown.figures} figures, ${t.shown.rightShare === null ? '-' : `${pct(t.shown.rightShare)} %`} on right speakers; criterion (>= ${pct(CRITERION.right)} %) ${t.shown.met ? 'met' : 'NOT met'}.`);
  return lines.join('\n');
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { analyses: { type: 'string' } } });
  if (!values.analyses) {
    console.error('usage: node eval/confidence-calibration.ts --analyses DIR');
    process.exit(2);
  }
  const dir = values.analyses;
  const inputs = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => ({ name: f, input: JSON.parse(readFileSync(join(dir, f), 'utf8')) as CalibrationInput }));
  const figures = pairFigures(inputs);
  console.log(`${inputs.length} recordings, ${figures.length} pair figures`);
  console.log(formatTable(calibrationTable(figures)));
}
