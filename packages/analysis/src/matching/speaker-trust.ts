// How sure the analysis is of a speaker it found (decisions §20). Every figure about a speaker
// rests on the diarization having given that speaker one voice, and one voice only: a count the
// analysis is unsure of, or a speaker whose speech lies as near another speaker's as its own,
// may stand for two people mixed, and then a figure like "pitch proximity 100" between a woman
// and a man is the same voice compared with itself. The trust below (0-1) multiplies the
// confidence of every figure resting on the speaker, so that such a figure cannot be shown as
// certain. docs/analysis.md ("Speaker trust") states the formula.
import type { MediaAnalysis } from '../types.ts';
import { clamp } from '../behavior/stats.ts';
import { speakersAreTranscriptNames } from '../method-names.ts';

/**
 * The constants of speakerTrust. Values are set from the calibration on the simulated
 * conversations of held-out voices (eval/confidence-calibration.ts): among pair figures shown at
 * confidence >= 80 %, at least 80 % must rest on speakers the diarization got right. Any values
 * with 0 <= separationNone < separationFull <= 1 and factors in 0..1 keep the function monotone.
 */
export const SPEAKER_TRUST = {
  /**
   * Factor for a count found from the voices alone (the speaker_count_uncertain warning): such a
   * count is exact for about a third of recordings of unheard voices (COUNT_EXACT_SHARE_UNHEARD),
   * so no figure resting on it is certain. The clustering's margin (method.countEvidence) is not
   * used: on held-out folds it flagged wrong counts barely better than right ones.
   */
  uncertainCount: 0.7,
  /** Factor when a speaker-count hint could not be met (hint_not_met): the user says the recording holds another number of voices than the speakers found, so some speaker stands for more or fewer. */
  hintNotMet: 0.5,
  /** Separation at or below which a speaker is not trusted at all: its windows lie as often nearer another speaker as its own (0.5 is what two mixed voices give). */
  separationNone: 0.5,
  /** Separation from which a speaker is trusted fully (as far as separation goes). */
  separationFull: 0.95,
  /**
   * Factor for a speaker found from the voices (not a transcript's name). Calibrated on the 42
   * simulated conversations of held-out voices (docs/analysis.md, "Speaker trust"): with the count
   * given as an exact hint and no such factor, 115 pair figures reached 80 % or more and only 45 %
   * of them rested on two speakers each >= 90 % one voice; the separation tells right speakers
   * from mixed ones only weakly (71 % pure at >= 0.99, 49 % below). So a figure resting on
   * speakers from the voices alone is never shown at 80 % or more: 0.75 keeps every such
   * confidence below it. With a guiding transcript (cue edges within 0.2 s), 95 % of the 59
   * figures at >= 80 % rest on right speakers.
   */
  fromVoices: 0.75,
  /** The separation factor of a speaker whose separation was not recorded (an analysis made before it was): unknown, so the middle of 0..1. */
  unknownSeparation: 0.5,
} as const;

/** What a speaker's trust was made of, for documents that say why a confidence is low. */
export interface SpeakerTrustParts {
  /** 0..1, the product of the factors below. */
  trust: number;
  /** The count came from the voices alone (speaker_count_uncertain). */
  countUncertain: boolean;
  /** A speaker-count hint was not met (hint_not_met). */
  hintNotMet: boolean;
  /** The speaker's separation as recorded; null when absent. */
  separation: number | null;
  /** The speakers are a transcript's names (transcript-guided diarization). */
  transcriptGuided: boolean;
}

/** The separation factor: 0 at or below separationNone, 1 from separationFull, linear between. */
export function separationFactor(separation: number): number {
  const { separationNone: lo, separationFull: hi } = SPEAKER_TRUST;
  return hi > lo ? clamp((separation - lo) / (hi - lo), 0, 1) : separation >= hi ? 1 : 0;
}

export function speakerTrustParts(analysis: MediaAnalysis, speakerIndex: number): SpeakerTrustParts {
  const speaker = analysis.speakers[speakerIndex];
  const warnings = analysis.warnings ?? [];
  const countUncertain = warnings.some((w) => w.code === 'speaker_count_uncertain');
  const hintNotMet = warnings.some((w) => w.code === 'hint_not_met');
  // A transcript's names are the speakers: guiding the audio's diarization, or alone (decisions §19).
  const transcriptGuided = speakersAreTranscriptNames(analysis.method);
  const separation = speaker?.separation ?? null;
  if (!speaker) return { trust: 0, countUncertain, hintNotMet, separation, transcriptGuided };
  // A transcript's speaker is its name's cues: trusted as far as separation goes. A speaker from
  // the voices with no recorded separation is of an older analysis: unknown, the middle value.
  const sep = separation !== null ? separationFactor(separation) : transcriptGuided ? 1 : SPEAKER_TRUST.unknownSeparation;
  const count = (countUncertain ? SPEAKER_TRUST.uncertainCount : 1) * (hintNotMet ? SPEAKER_TRUST.hintNotMet : 1) * (transcriptGuided ? 1 : SPEAKER_TRUST.fromVoices);
  return { trust: clamp(count * sep, 0, 1), countUncertain, hintNotMet, separation, transcriptGuided };
}

/**
 * How sure the analysis is of this speaker (0..1): the count's certainty times how cleanly the
 * speaker's speech separates from the others'. Non-decreasing in the separation, and never
 * higher with a warning than without; 0 for a speaker the analysis does not have.
 */
export function speakerTrust(analysis: MediaAnalysis, speakerIndex: number): number {
  return speakerTrustParts(analysis, speakerIndex).trust;
}

/** Speech-weighted mean (weights <= 0 ignored); `empty` when no weight is positive. */
function weightedMean(items: readonly { value: number; weight: number }[], empty: number): number {
  let num = 0;
  let den = 0;
  for (const x of items) {
    if (!(x.weight > 0)) continue;
    num += x.value * x.weight;
    den += x.weight;
  }
  return den > 0 ? num / den : empty;
}

/**
 * The trust of a profile gathered over several recordings: each appearance's trust weighted by
 * the speech it adds, as the profile's figures are. 1 when there is no speech (the profile then
 * has no confidence to lower).
 */
export function profileTrust(appearances: readonly { analysis: MediaAnalysis; speakerIndex: number }[]): number {
  return weightedMean(appearances.map((a) => ({ value: speakerTrust(a.analysis, a.speakerIndex), weight: a.analysis.speakers[a.speakerIndex]?.speechSec ?? 0 })), 1);
}

/**
 * The trust of a pair's figures over the conversations they share: in each, the lower of the two
 * speakers' trusts (a figure between them is right only when both are, and the count's doubt is
 * one doubt for both, so it is not multiplied twice), weighted by the two speakers' speech there
 * (the material the pair's figures are drawn from). 1 when they share no speech.
 */
export function pairTrust(conversations: readonly { analysis: MediaAnalysis; a: number; b: number }[]): number {
  return weightedMean(conversations.map((c) => ({
    value: Math.min(speakerTrust(c.analysis, c.a), speakerTrust(c.analysis, c.b)),
    weight: (c.analysis.speakers[c.a]?.speechSec ?? 0) + (c.analysis.speakers[c.b]?.speechSec ?? 0),
  })), 1);
}
