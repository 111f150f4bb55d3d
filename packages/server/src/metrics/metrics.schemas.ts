// Per-speaker measurements of a media and of an entity (extension of decisions §7: what the
// documents are written from, for spreadsheets and research). Defined once for validation of the
// responses in tests, the types and the OpenAPI document. Units: seconds, shares 0–1, pitch in
// semitones above 27.5 Hz, loudness in dBFS / dB, rates per second or per minute.
import { Type, type Static } from 'typebox';
import { Nullable, OneOf, Strict } from '../http/schema-helpers.ts';

const num = (description: string) => Nullable(Type.Number({ description }));

export const LanguageMeasures = Strict({
  words: Type.Integer({ minimum: 0 }),
  wordsPerMinute: num('words per minute of speech'),
  questionRate: Type.Number({ description: 'questions per 100 words' }),
  lexicon: Type.Optional(Nullable(Type.Literal('en', { description: 'the language the word lists were applied in; null: the transcript is not in English and the lexical measures (hedges, pronouns, sentiment, function words) are null, not measured (English only)' }))),
  hedgeRate: num('hedges per 100 words; null: not measured (English only)'),
  firstPersonSingularRate: num('"I" words per 100 words; null: not measured (English only)'),
  firstPersonPluralRate: num('"we" words per 100 words; null: not measured (English only)'),
  sentiment: Nullable(Type.Number({ minimum: -1, maximum: 1, description: 'VADER compound, mean over lines; null: not measured (English only)' })),
  functionWords: Nullable(Type.Record(Type.String(), Type.Number(), { description: 'percent of words in each function-word category; null: not measured (English only)' })),
});

export const SpeakerMeasures = Strict({
  speechSec: Type.Number({ minimum: 0, description: 'seconds' }),
  talkShare: Type.Number({ minimum: 0, maximum: 1, description: 'share of the recording\'s speech' }),
  turns: Type.Integer({ minimum: 0 }),
  medianTurnSec: num('seconds'),
  longestTurnSec: num('seconds'),
  pausesPerMin: num('per minute of speech'),
  medianPauseSec: num('seconds'),
  speakingRateSylPerSec: num('syllables per second'),
  articulationRateSylPerSec: num('syllables per second of phonation'),
  pitchMedianSt: num('semitones above 27.5 Hz'),
  pitchRangeSt: num('semitones, 5th to 95th percentile'),
  pitchVariabilitySt: num('semitones, standard deviation'),
  loudnessMeanDb: num('dBFS'),
  loudnessVariabilityDb: num('dB'),
  medianGapBeforeTurnSec: num('seconds'),
  interruptionsMade: num('count; null when not measured'),
  interruptionsReceived: num('count; null when not measured'),
  backchannels: num('count; null when not measured'),
  overlapSec: num('seconds; null when not measured'),
  language: Nullable(LanguageMeasures),
});
export type SpeakerMeasures = Static<typeof SpeakerMeasures>;

export const MediaMetrics = Strict({
  mediaId: Type.String(),
  speakers: Type.Array(Strict({
    index: Type.Integer({ minimum: 0 }),
    entityId: Nullable(Type.String()),
    label: Nullable(Type.String()),
    metrics: SpeakerMeasures,
  })),
  notMeasured: Type.Optional(Strict({
    measures: Type.Array(Type.String(), { description: 'the names of the measures above that are null for this reason' }),
    reason: Type.String({ description: '"no audio": a transcript on its own, analysed from its cues (its pitch, loudness and syllable rates need a voice)' }),
  }, { description: 'measures this media could not make, and why; absent when every measure was attempted' })),
});
export type MediaMetrics = Static<typeof MediaMetrics>;

export const EntityMetrics = Strict({
  entityId: Type.String(),
  label: Nullable(Type.String()),
  metrics: Nullable(SpeakerMeasures),
  appearances: Type.Array(Strict({
    mediaId: Type.String(),
    speakerIndex: Type.Integer({ minimum: 0 }),
    metrics: SpeakerMeasures,
  })),
});
export type EntityMetrics = Static<typeof EntityMetrics>;

export const METRICS_FORMATS = ['json', 'csv'] as const;
export const MetricsQuery = Strict({
  format: Type.Optional(OneOf(METRICS_FORMATS, { default: 'json', description: 'json (default) or csv (text/csv: one row per speaker, units in the header, empty where not measured)' })),
});
export type MetricsQuery = Static<typeof MetricsQuery>;
