// The dashboard's view of the per-speaker figures: names, units, decimals and definitions come
// from the engine's one list (@rapport/analysis/render, measures.ts), the values from the API's
// measurements, so that a figure here reads exactly as in the CLI, the CSV and the result
// (issue 40 item 5). Nothing is recomputed from the diarization.
import type { JSX } from 'preact';
import { measureOf, shownFigure, type Measure } from '@rapport/analysis/render';
import type { SpeakerMeasures } from '@rapport/client';

/** "Median turn (s)": the measure's header, capitalised for a table. */
export function measureTitle(m: Measure): string {
  return m.header.charAt(0).toUpperCase() + m.header.slice(1);
}

/** A column header with the measure's definition as its tooltip. */
export function MeasureHeader({ m }: { m: Measure }): JSX.Element {
  return <th scope="col" title={m.definition} data-measure={m.key}>{measureTitle(m)}</th>;
}

/** The figure as every table shows it, or "not measured". */
export function measureText(m: Measure, metrics: SpeakerMeasures | null | undefined): string {
  return shownFigure(m, metrics ?? null) ?? 'not measured';
}

/** A table cell for one figure. */
export function MeasureCell({ m, metrics }: { m: Measure; metrics: SpeakerMeasures | null | undefined }): JSX.Element {
  return <td data-measure={m.key}>{measureText(m, metrics)}</td>;
}

/** The figures of a recording's speakers table, in order. */
export const SPEAKER_TABLE: readonly Measure[] = ['speechSec', 'talkShare', 'turns', 'medianTurnSec', 'longestTurnSec', 'medianGapBeforeTurnSec', 'interruptionsMade'].map(measureOf);
/** The voice and pace table's figures. */
export const VOICE_TABLE: readonly Measure[] = ['speakingRateSylPerSec', 'articulationRateSylPerSec', 'wordsPerMinute', 'pitchMedianHz', 'pitchRangeSt', 'pausesPerMin', 'medianPauseSec', 'loudnessMeanDb'].map(measureOf);
/** A person's appearances table. */
export const APPEARANCE_TABLE: readonly Measure[] = ['speechSec', 'talkShare', 'turns', 'medianTurnSec'].map(measureOf);
