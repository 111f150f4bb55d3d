// The measurements of a speaker (GET /v1/files/:id/metrics, /v1/entities/:id/metrics;
// docs/analysis.md), which the evidence of a result quotes too (evidence-types.ts).
import type { Id } from './common-types.ts';

export interface LanguageMeasures {
  words: number;
  /** Words per minute of speech. */
  wordsPerMinute: number | null;
  /** Per 100 words. */
  questionRate: number;
  /** 'en': the word lists were applied; null: the transcript is not in English, the lexical measures below are null (not measured, English only). */
  lexicon?: 'en' | null;
  hedgeRate: number | null;
  firstPersonSingularRate: number | null;
  firstPersonPluralRate: number | null;
  /** VADER compound, -1 to 1. */
  sentiment: number | null;
  /** Percent of words in each function-word category. */
  functionWords: Record<string, number> | null;
}

/** Seconds, shares 0–1, pitch in semitones above 27.5 Hz, loudness in dBFS; null when not measured. */
export interface SpeakerMeasures {
  speechSec: number;
  talkShare: number;
  turns: number;
  medianTurnSec: number | null;
  longestTurnSec: number | null;
  pausesPerMin: number | null;
  medianPauseSec: number | null;
  speakingRateSylPerSec: number | null;
  articulationRateSylPerSec: number | null;
  pitchMedianSt: number | null;
  pitchRangeSt: number | null;
  pitchVariabilitySt: number | null;
  loudnessMeanDb: number | null;
  loudnessVariabilityDb: number | null;
  medianGapBeforeTurnSec: number | null;
  interruptionsMade: number | null;
  interruptionsReceived: number | null;
  backchannels: number | null;
  overlapSec: number | null;
  language: LanguageMeasures | null;
}

export interface MediaMetrics {
  mediaId: Id;
  speakers: SpeakerMetrics[];
  /** Measures this media could not make, and why: "no audio" for a transcript on its own (decisions §19). Absent when every measure was attempted. */
  notMeasured?: NotMeasured;
}

/** One speaker of a media and its measures. */
export interface SpeakerMetrics {
  index: number;
  entityId: Id | null;
  label: string | null;
  metrics: SpeakerMeasures;
}

export interface NotMeasured {
  measures: string[];
  reason: string;
}

export interface EntityMetrics {
  entityId: Id;
  label: string | null;
  /** The profile over the appearances in analysed media; null when they hold no speech. */
  metrics: SpeakerMeasures | null;
  appearances: MeasuredAppearance[];
}

/** The entity's measures in one media it speaks in. */
export interface MeasuredAppearance {
  mediaId: Id;
  speakerIndex: number;
  metrics: SpeakerMeasures;
}

/** `GET /v1/files/:id/metrics?format=`, `/v1/entities/:id/metrics?format=`: json (default) or csv (the CSV file's text, units in its header). */
export interface MetricsParams {
  format?: 'json' | 'csv';
}
