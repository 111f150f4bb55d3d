// Per-speaker measurements as CSV (one row per speaker, units in the header) and as a table for
// the terminal (one row per measure). Pitch is given in Hz beside the engine's semitones. One
// renderer for the API's `?format=csv`, the CLI's `--csv` and tables, and the dashboard's download.
// Speakers are named as decisions §17 says: the person's label, else "Speaker N" from 1.
import type { SpeakerMetrics } from '../types.ts';

type SpeakerMeasures = SpeakerMetrics;

/** A media's measurements as the API answers them (GET /v1/files/:id/metrics). */
export interface MediaMeasures {
  mediaId: string;
  speakers: { index: number; entityId: string | null; label: string | null; metrics: SpeakerMeasures }[];
}

/** An entity's measurements as the API answers them (GET /v1/entities/:id/metrics). */
export interface EntityMeasures {
  entityId: string;
  label: string | null;
  metrics: SpeakerMeasures | null;
  appearances: { mediaId: string; speakerIndex: number; metrics: SpeakerMeasures }[];
}

const PITCH_REFERENCE_HZ = 27.5;

interface Column {
  header: string;
  value(m: SpeakerMeasures): number | null;
  decimals: number;
}

const col = (header: string, decimals: number, value: (m: SpeakerMeasures) => number | null | undefined): Column => ({ header, decimals, value: (m) => value(m) ?? null });

/** Every measure, with its unit in the header. */
export const MEASURE_COLUMNS: readonly Column[] = [
  col('speech (s)', 3, (m) => m.speechSec),
  col('talk share (%)', 1, (m) => m.talkShare * 100),
  col('turns (count)', 0, (m) => m.turns),
  col('median turn (s)', 3, (m) => m.medianTurnSec),
  col('longest turn (s)', 3, (m) => m.longestTurnSec),
  col('pauses (per min of speech)', 2, (m) => m.pausesPerMin),
  col('median pause (s)', 3, (m) => m.medianPauseSec),
  col('speaking rate (syllables/s)', 2, (m) => m.speakingRateSylPerSec),
  col('articulation rate (syllables/s)', 2, (m) => m.articulationRateSylPerSec),
  col('pitch median (Hz)', 1, (m) => (m.pitchMedianSt === null ? null : PITCH_REFERENCE_HZ * 2 ** (m.pitchMedianSt / 12))),
  col('pitch median (semitones re 27.5 Hz)', 2, (m) => m.pitchMedianSt),
  col('pitch range (semitones)', 2, (m) => m.pitchRangeSt),
  col('pitch variability (semitones)', 2, (m) => m.pitchVariabilitySt),
  col('loudness mean (dBFS)', 1, (m) => m.loudnessMeanDb),
  col('loudness variability (dB)', 1, (m) => m.loudnessVariabilityDb),
  col('median gap before turn (s)', 3, (m) => m.medianGapBeforeTurnSec),
  col('interruptions made (count)', 0, (m) => m.interruptionsMade),
  col('interruptions received (count)', 0, (m) => m.interruptionsReceived),
  col('backchannels (count)', 0, (m) => m.backchannels),
  col('overlapped speech (s)', 3, (m) => m.overlapSec),
  col('words (count)', 0, (m) => m.language?.words),
  col('words per minute (per min)', 1, (m) => m.language?.wordsPerMinute),
  col('questions (per 100 words)', 2, (m) => m.language?.questionRate),
  col('hedges (per 100 words)', 2, (m) => m.language?.hedgeRate),
  col('first person singular (per 100 words)', 2, (m) => m.language?.firstPersonSingularRate),
  col('first person plural (per 100 words)', 2, (m) => m.language?.firstPersonPluralRate),
  col('sentiment (VADER compound, -1 to 1)', 3, (m) => m.language?.sentiment),
];

/**
 * One CSV cell. A text that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be
 * read as a formula by a spreadsheet (a label `=HYPERLINK(...)`): it gets a leading `'`, which
 * spreadsheets show as text (OWASP's CSV injection advice; issue 32, finding 8). Numbers stay
 * numbers, negative ones included.
 */
function cell(v: string | number | null): string {
  if (v === null) return '';
  const s = typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function figure(c: Column, m: SpeakerMeasures | null): number | null {
  const v = m ? c.value(m) : null;
  return v === null || !Number.isFinite(v) ? null : Number(v.toFixed(c.decimals));
}

function csv(idHeaders: string[], rows: { ids: (string | number | null)[]; metrics: SpeakerMeasures | null }[]): string {
  const lines = [[...idHeaders, ...MEASURE_COLUMNS.map((c) => c.header)].map(cell).join(',')];
  for (const r of rows) lines.push([...r.ids, ...MEASURE_COLUMNS.map((c) => figure(c, r.metrics))].map(cell).join(','));
  return `${lines.join('\n')}\n`;
}

/** One row per speaker: media, speaker (its name, else "Speaker N"), its 0-based index as the API's, entity, then every measure. */
export function mediaMetricsCsv(m: MediaMeasures): string {
  return csv(['media', 'speaker', 'speaker index (from 0)', 'entity'], m.speakers.map((s) => ({ ids: [m.mediaId, s.label ?? `Speaker ${s.index + 1}`, s.index, s.entityId], metrics: s.metrics })));
}

/** The profile (media `all`) and then one row per appearance. */
export function entityMetricsCsv(e: EntityMeasures): string {
  return csv(['entity', 'label', 'media', 'speaker index (from 0)'], [
    { ids: [e.entityId, e.label, 'all', null], metrics: e.metrics },
    ...e.appearances.map((a) => ({ ids: [e.entityId, e.label, a.mediaId, a.speakerIndex], metrics: a.metrics })),
  ]);
}

/** For the terminal: one row per measure, one column per speaker (empty cells say "-"). */
export function measuresTable(heads: string[], columns: (SpeakerMeasures | null)[]): string[][] {
  return [['', ...heads], ...MEASURE_COLUMNS.map((c) => [c.header, ...columns.map((m) => String(figure(c, m) ?? '-'))])];
}
