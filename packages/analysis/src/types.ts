// The engine's data model: plain, JSON-serialisable data that flows from audio to documents.
// The server stores `MediaAnalysis` as JSON and hands it back to the engine for matching, so
// everything here must survive JSON.stringify/parse (no typed arrays, no Maps, no Dates).
// Units are in the names or the comments: seconds unless said otherwise.

/** One stretch of speech by one speaker. Speakers are numbered 0, 1, 2… by first speech. */
export interface SpeechSegment {
  speaker: number;
  start: number;
  end: number;
}

/** A transcript cue: who said what, when. `speaker` is the name as written in the transcript. */
export interface TranscriptCue {
  speaker: string | null;
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  format: 'webvtt' | 'srt' | 'json';
  cues: TranscriptCue[];
}

/**
 * A turn: a maximal run of one speaker's speech (pauses below the turn-merge gap bridged) with
 * the prosodic summary that entrainment and responsiveness are computed from.
 */
export interface Turn {
  speaker: number;
  start: number;
  end: number;
  /** Median F0 of the turn in semitones re 27.5 Hz; null when the turn has too few voiced frames. */
  pitchSt: number | null;
  /** Mean loudness of the turn's speech frames, dBFS; null without audio (a transcript on its own). */
  loudnessDb: number | null;
  /** Syllable nuclei per second of speech time in the turn; null when too short to measure. */
  rateSylPerSec: number | null;
  /** Median F0 (semitones) of the first and last second of the turn, for synchrony. */
  initialPitchSt: number | null;
  finalPitchSt: number | null;
  initialLoudnessDb: number | null;
  finalLoudnessDb: number | null;
  /** True when the turn started while another speaker was still talking. */
  interrupts: boolean;
  /** True for a short (<= 1 s) utterance inside another speaker's turn, not counted as a turn. */
  backchannel: boolean;
}

/**
 * Acoustic statistics of one speaker over its speech frames, produced by the speech stage
 * (which owns the frame-level pitch and loudness) and consumed by the behavior stage.
 */
export interface AcousticStats {
  speaker: number;
  /** Median, 5th–95th percentile range and standard deviation of F0, semitones re 27.5 Hz. */
  pitchMedianSt: number | null;
  pitchRangeSt: number | null;
  pitchVariabilitySt: number | null;
  /** Mean and standard deviation of frame loudness over speech frames, dBFS. */
  loudnessMeanDb: number | null;
  loudnessVariabilityDb: number | null;
  /** Syllable nuclei counted in this speaker's speech (de Jong & Wempe 2009). */
  syllables: number;
  /** Speech time with pauses inside turns removed (phonation time), for articulation rate. */
  phonationSec: number;
  voicedSec: number;
}

/** A value with its unit, so that documents and evidence can quote it honestly. */
export interface Measure {
  value: number | null;
  unit: string;
}

/** Per-speaker behavioral measurements (one media, or aggregated over an entity's media). */
export interface SpeakerMetrics {
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
  /**
   * Turn-taking that only overlapped speech shows: null when the media's speaker track cannot
   * carry overlap (audio without a guiding transcript has one speaker per frame), not zero.
   */
  interruptionsMade: number | null;
  interruptionsReceived: number | null;
  backchannels: number | null;
  overlapSec: number | null;
  /** Present only when a transcript is attached; otherwise null and documents say so. */
  language: LanguageMetrics | null;
}

export interface LanguageMetrics {
  words: number;
  wordsPerMinute: number | null;
  questionRate: number;
  /**
   * The language the word lists (hedges, pronouns, sentiment, function words) were applied in:
   * 'en'; null when the transcript is in another language, and then those measures are null
   * ("not measured (English only)"). Absent in analyses cached before: English was assumed.
   */
  lexicon?: 'en' | null;
  hedgeRate: number | null;
  firstPersonSingularRate: number | null;
  firstPersonPluralRate: number | null;
  /** Mean sentiment in [-1, 1]. */
  sentiment: number | null;
  /** Share of words in each of the 9 LSM function-word categories. */
  functionWords: Record<string, number> | null;
}

export interface SpeakerAnalysis {
  index: number;
  speechSec: number;
  firstSpeechSec: number;
  /** Name from an attached transcript, else null. */
  label: string | null;
  /** Fixed-length voice descriptor; compared with cosine similarity (see speech/voiceprint). */
  voiceprint: number[];
  metrics: SpeakerMetrics;
  /** How cleanly this speaker's speech separates from the other speakers' (0-1): the share of its embedded windows that lie nearer its own speaker's centroid than any other's; 1 with one speaker; absent for a transcript's speakers and in analyses made before it was recorded. */
  separation?: number;
}

/**
 * The speaker-analysis engine's version: a new value whenever the speakers it finds in the same
 * media can change (diarization, speaker model, voiceprints). The server records it with each
 * analysis, so that media analysed by an older engine can be found and re-analysed.
 */
export const ENGINE_VERSION = '2026.12.03-5';

/**
 * What the user knows of the number of speakers (optional form fields of an upload and of a
 * re-analysis). `exact` wins over `min` / `max`; every value is 1..20 and min <= max.
 */
export interface SpeakerCountHint {
  exact?: number;
  min?: number;
  max?: number;
}

/** What the user asked, in the API's words (numSpeakers, or minSpeakers and/or maxSpeakers). */
export interface AskedSpeakers {
  numSpeakers?: number;
  minSpeakers?: number;
  maxSpeakers?: number;
}

/**
 * A statement the analysis makes about itself: a speaker-count hint it could not meet (decisions
 * §15), or a count it is unsure of (issue 31: give a hint).
 */
export type AnalysisWarning =
  | {
      code: 'hint_not_met';
      asked: AskedSpeakers;
      /** Speakers the analysis found. */
      found: number;
      /** Why, in words a person reads. */
      reason: string;
    }
  | {
      code: 'speaker_count_uncertain';
      found: number;
      /** Whether the count may be too high ('fewer'), too low ('more'), or either. */
      maybe: 'fewer' | 'more' | 'either';
      reason: string;
    };

/** How sure a speaker count is (speech/diarization/count-evidence.ts): window-embedding distances. */
export interface CountEvidence {
  /** The clustering's next merge not made, its distance over the threshold (above 1; near 1: maybe one speaker too many); null when none was possible. */
  nearestPair: number | null;
  /** The last merge made, its distance over the threshold (at most 1; near 1: maybe one speaker too few); null when none was made. */
  widestSplit: number | null;
}

/** Everything the engine learns from one media file; cached by the server per media. */
export interface MediaAnalysis {
  /** What the analysis says of itself (decisions §15: a speaker-count hint it could not meet); absent when none, and in analyses cached before. */
  warnings?: AnalysisWarning[];
  version: 1;
  /** ENGINE_VERSION of the engine that made it; absent in analyses cached before it was recorded. */
  engineVersion?: string;
  durationSec: number;
  segments: SpeechSegment[];
  speakers: SpeakerAnalysis[];
  turns: Turn[];
  transcript: Transcript | null;
  /** Engine settings and timings that explain the result (for the method section). */
  method: {
    vad: string;
    diarization: string;
    voiceprint: string;
    realTimeFactor: number | null;
    /**
     * Whether the track's overlapped speech is counted: from the audio, always (the speaker
     * segmentation hears two voices at once); with a guiding transcript, its overlapping cues,
     * when it has some and its cue edges sit on the speech (overlapCounting, language/cue-timing.ts).
     * Absent in analyses cached before it was recorded: those are judged by the diarization
     * method (overlapMeasured).
     */
    overlapMeasured?: boolean;
    /**
     * How near the speaker count was to another, from the clustering (diarization/clustering.ts):
     * the next merge not made and the last one made, each over the threshold. Absent for a
     * transcript's speakers and in analyses cached before it was recorded.
     */
    countEvidence?: CountEvidence;
    /**
     * Measures this analysis could not make, and why: a transcript on its own (decisions §19)
     * has no audio, so its pitch, loudness and syllable rates are null for the reason "no audio".
     * Absent when every measure was attempted.
     */
    notMeasured?: { measures: (keyof SpeakerMetrics)[]; reason: string };
  };
}

/** Job-level failures the engine can report; the server maps them to job error codes. */
export type EngineErrorCode = 'media_unreadable' | 'no_speech_detected' | 'target_not_found';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  constructor(code: EngineErrorCode, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}
