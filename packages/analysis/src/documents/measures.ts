// The per-speaker figures, each defined once: its key in SpeakerMetrics, its name, its unit, how
// many decimals a person is shown, and what it means. The CSV (metrics-csv.ts), the CLI's tables
// and the dashboard's speaker tables all read this list, so that a figure has one name and one
// value everywhere (issue 40 item 5: the dashboard once computed its own "mean turn" and "pause
// before a turn" from the diarization, beside the engine's median turn and median gap). The
// values themselves are computed in one place, behavior/speaker-metrics.ts.
import type { SpeakerMetrics } from '../types.ts';

const PITCH_REFERENCE_HZ = 27.5;

export interface Measure {
  /** Stable id (tests, data attributes), the SpeakerMetrics field it reads where there is one. */
  key: string;
  /** What people read, lower case: "median turn". */
  name: string;
  /** Unit as written after the name: "s", "per min of speech", "count". */
  unit: string;
  /** `name (unit)`: the CSV header and the row or column title of every table. */
  header: string;
  /** Decimals in the CSV (a data export keeps more). */
  decimals: number;
  /** Decimals shown to a person: CLI tables and the dashboard. */
  shown: number;
  /** One sentence: how it is measured (docs/analysis.md gives the formulas). */
  definition: string;
  value(m: SpeakerMetrics): number | null;
}

function measure(key: string, name: string, unit: string, decimals: number, shown: number, definition: string, value: (m: SpeakerMetrics) => number | null | undefined): Measure {
  return { key, name, unit, header: `${name} (${unit})`, decimals, shown, definition, value: (m) => value(m) ?? null };
}

/** Hertz of a pitch in semitones above 27.5 Hz (A0), the unit the engine measures pitch in. */
export function semitonesToHz(st: number): number {
  return PITCH_REFERENCE_HZ * 2 ** (st / 12);
}

/** Every per-speaker figure, in the order the CSV and the CLI list them. */
export const MEASURES: readonly Measure[] = [
  measure('speechSec', 'speech', 's', 3, 1, 'seconds of the speaker\'s own speech (overlapped speech counted once per speaker)', (m) => m.speechSec),
  measure('talkShare', 'talk share', '%', 1, 0, 'the speaker\'s speech over the sum of every speaker\'s speech', (m) => m.talkShare * 100),
  measure('turns', 'turns', 'count', 0, 0, 'runs of the speaker\'s speech until another speaker takes the floor or a pause longer than 3 s; backchannels are not turns', (m) => m.turns),
  measure('medianTurnSec', 'median turn', 's', 3, 2, 'median length of the speaker\'s turns, from the start of the first word to the end of the last, pauses inside included', (m) => m.medianTurnSec),
  measure('longestTurnSec', 'longest turn', 's', 3, 2, 'length of the speaker\'s longest turn', (m) => m.longestTurnSec),
  measure('pausesPerMin', 'pauses', 'per min of speech', 2, 1, 'silences inside the speaker\'s own turns, per minute of their speech', (m) => m.pausesPerMin),
  measure('medianPauseSec', 'median pause', 's', 3, 2, 'median length of those silences', (m) => m.medianPauseSec),
  measure('speakingRateSylPerSec', 'speaking rate', 'syllables/s', 2, 1, 'syllables over the speaker\'s turn time, pauses included', (m) => m.speakingRateSylPerSec),
  measure('articulationRateSylPerSec', 'articulation rate', 'syllables/s', 2, 1, 'syllables over the time the speaker is phonating, pauses left out', (m) => m.articulationRateSylPerSec),
  measure('pitchMedianHz', 'pitch median', 'Hz', 1, 0, 'median pitch of the voiced frames', (m) => (m.pitchMedianSt === null ? null : semitonesToHz(m.pitchMedianSt))),
  measure('pitchMedianSt', 'pitch median', 'semitones re 27.5 Hz', 2, 1, 'the same median, in semitones above 27.5 Hz', (m) => m.pitchMedianSt),
  measure('pitchRangeSt', 'pitch range', 'semitones', 2, 1, 'between the 5th and 95th percentile of the voiced frames\' pitch', (m) => m.pitchRangeSt),
  measure('pitchVariabilitySt', 'pitch variability', 'semitones', 2, 1, 'standard deviation of the voiced frames\' pitch', (m) => m.pitchVariabilitySt),
  measure('loudnessMeanDb', 'loudness mean', 'dBFS', 1, 1, 'mean level of the speaker\'s frames below full scale', (m) => m.loudnessMeanDb),
  measure('loudnessVariabilityDb', 'loudness variability', 'dB', 1, 1, 'standard deviation of that level', (m) => m.loudnessVariabilityDb),
  measure('medianGapBeforeTurnSec', 'median gap before turn', 's', 3, 2, 'median silence between the end of another speaker\'s turn and the start of this speaker\'s, negative when the turns overlap', (m) => m.medianGapBeforeTurnSec),
  measure('interruptionsMade', 'interruptions made', 'count', 0, 0, 'turns the speaker started while another speaker\'s turn was running', (m) => m.interruptionsMade),
  measure('interruptionsReceived', 'interruptions received', 'count', 0, 0, 'turns of others started inside this speaker\'s turn', (m) => m.interruptionsReceived),
  measure('backchannels', 'backchannels', 'count', 0, 0, 'short utterances (up to 1 s) inside another speaker\'s speech, which are not turns', (m) => m.backchannels),
  measure('overlapSec', 'overlapped speech', 's', 3, 1, 'seconds of the speaker\'s speech during which another speaker also speaks', (m) => m.overlapSec),
  measure('words', 'words', 'count', 0, 0, 'words of the transcript cues given to the speaker', (m) => m.language?.words),
  measure('wordsPerMinute', 'words per minute', 'per min', 1, 0, 'words over the speaker\'s cue time', (m) => m.language?.wordsPerMinute),
  measure('questionRate', 'questions', 'per 100 words', 2, 1, 'questions per 100 words', (m) => m.language?.questionRate),
  measure('hedgeRate', 'hedges', 'per 100 words', 2, 1, 'hedging words per 100 words (English lexicon)', (m) => m.language?.hedgeRate),
  measure('firstPersonSingularRate', 'first person singular', 'per 100 words', 2, 1, '"I", "me", "my" … per 100 words', (m) => m.language?.firstPersonSingularRate),
  measure('firstPersonPluralRate', 'first person plural', 'per 100 words', 2, 1, '"we", "us", "our" … per 100 words', (m) => m.language?.firstPersonPluralRate),
  measure('sentiment', 'sentiment', 'VADER compound, -1 to 1', 3, 2, 'VADER compound score of the speaker\'s cues, weighted by their words (English lexicon)', (m) => m.language?.sentiment),
];

const BY_KEY = new Map(MEASURES.map((m) => [m.key, m]));

/** The measure with this key; a key not in the list is a programming error. */
export function measureOf(key: string): Measure {
  const m = BY_KEY.get(key);
  if (!m) throw new Error(`no measure ${key}`);
  return m;
}

/** The figure rounded as the CSV writes it; null when not measured. */
export function csvFigure(m: Measure, metrics: SpeakerMetrics | null): number | null {
  const v = metrics ? m.value(metrics) : null;
  return v === null || !Number.isFinite(v) ? null : Number(v.toFixed(m.decimals));
}

/** The figure as every table shows it to a person ("0.68"); null when not measured. */
export function shownFigure(m: Measure, metrics: SpeakerMetrics | null): string | null {
  const v = metrics ? m.value(metrics) : null;
  // Rounded with the CSV's decimals first, so that a person's table never disagrees with the CSV's rounding of the same value.
  return v === null || !Number.isFinite(v) ? null : Number(v.toFixed(m.decimals)).toFixed(m.shown);
}
