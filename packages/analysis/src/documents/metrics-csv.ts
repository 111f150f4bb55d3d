// Per-speaker measurements as CSV (one row per speaker, units in the header) and as a table for
// the terminal (one row per measure). Pitch is given in Hz beside the engine's semitones. One
// renderer for the API's `?format=csv`, the CLI's `--csv` and tables, and the dashboard's download.
// Speakers are named as decisions §17 says: the person's label, else "Speaker N" from 1.
import type { SpeakerMetrics } from '../types.ts';
import { MEASURES, csvFigure, shownFigure, type Measure } from './measures.ts';

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

/** Every measure, with its unit in the header: the one list of measures.ts. */
export const MEASURE_COLUMNS: readonly Measure[] = MEASURES;

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

function csv(idHeaders: string[], rows: { ids: (string | number | null)[]; metrics: SpeakerMeasures | null }[]): string {
  const lines = [[...idHeaders, ...MEASURE_COLUMNS.map((c) => c.header)].map(cell).join(',')];
  for (const r of rows) lines.push([...r.ids, ...MEASURE_COLUMNS.map((c) => csvFigure(c, r.metrics))].map(cell).join(','));
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

/** For the terminal: one row per measure, one column per speaker, with the decimals every table shows (empty cells say "-"). */
export function measuresTable(heads: string[], columns: (SpeakerMeasures | null)[]): string[][] {
  return [['', ...heads], ...MEASURE_COLUMNS.map((c) => [c.header, ...columns.map((m) => shownFigure(c, m) ?? '-')])];
}
