// What `matching.evidence(id)` and `reports.evidence(id)` answer (GET /v1/matching/:id/evidence,
// /v1/reports/:id/evidence): the measurements a result was built from, stored as they were then.
// Field for field the server's documented schema (ResultEvidence in its OpenAPI document); the
// drift test (test/openapi.test.ts) compares these, through fields.ts, with the document served,
// nested shapes and enumerations included. Scores are on `scale` (0 to 100); shares and
// confidences 0 to 1.
import type { Id } from './common-types.ts';
import type { SpeakerMeasures } from './measure-types.ts';

export type EntrainmentFeature = 'pitch' | 'loudness' | 'rate';
export type EntrainmentMeasure = 'proximity' | 'convergence' | 'synchrony';

/** One recording a member speaks in, as the result saw it. */
export interface EvidenceAppearance {
  mediaId: Id;
  speakerIndex: number;
  /** Seconds; null when the media is no longer there. */
  speechSec: number | null;
  /** The media has a transcript. */
  transcribed: boolean;
  /** The recording's number of speakers came from the voices alone (its `speaker_count_uncertain` warning). */
  countUncertain: boolean;
  /** How far the speaker's voice is from the others' (null when not recorded). */
  separation: number | null;
  /** How sure the analysis is of this speaker, 0 to 1. */
  trust: number;
  /** A transcript on its own, measured from its cues, without a voice (decisions §19). */
  noAudio: boolean;
}

/** The target or one group member: its profile and where it comes from. */
export interface EvidenceMember {
  /** `"target"` or `"group[i]"`. */
  ref: string;
  name: string;
  /** The name used after the first mention. */
  shortName: string;
  entityId: Id | null;
  metrics: SpeakerMeasures;
  appearances: EvidenceAppearance[];
  mediaCount: number;
  transcribedMediaCount: number;
  /** Minutes of speech. */
  speechMin: number;
  /** Interruptions made per minute of own speech. */
  interruptionsPerMin: number | null;
  pitchMedianHz: number | null;
  /** Speech over the full-confidence amount, capped at 1, times `profileTrust`. */
  profileConfidence: number;
  /** How sure the analysis is of the speakers the profile is gathered from, 0 to 1. */
  profileTrust: number;
}

/** One feature × measure cell of the entrainment component. */
export interface EntrainmentCell {
  feature: EntrainmentFeature;
  measure: EntrainmentMeasure;
  /** Proximity: mean absolute difference (feature unit); convergence and synchrony: Pearson r. */
  observed: number | null;
  /** The same statistic, mean over the shuffles. */
  baseline: number | null;
  /** Share of shuffles beaten, 0 to 100; null with too few exchanges. */
  score: number | null;
  exchanges: number;
}

/** How many of the figures a score combines were measured. */
export interface EvidenceFigures {
  measured: number;
  possible: number;
}

/** One dimension's score for a pair, with what it was computed from. */
export interface EvidenceComponent {
  /** The dimension (responsiveness, interruptions, floorBalance, …). */
  key: string;
  name: string;
  /** Null when the data does not allow it (then `confidence` is 0). */
  score: number | null;
  confidence: number;
  weight: number;
  /** The figures the score is computed from. */
  inputs: Record<string, number | null>;
  /** Entrainment only: the feature × measure cells. */
  cells?: EntrainmentCell[];
  figures: EvidenceFigures;
}

export interface EvidenceOverall {
  score: number | null;
  confidence: number;
}

/** The target and one group member. */
export interface EvidencePair {
  /** The group member's ref, `"group[i]"`. */
  member: string;
  name: string;
  /** Target and member speak in a recording together. */
  met: boolean;
  sharedMediaIds: Id[];
  sharedMediaCount: number;
  overall: EvidenceOverall;
  /** The speaker trust every component's confidence was multiplied by. */
  trust: number;
  components: EvidenceComponent[];
}

/** One dimension over the whole group. */
export interface EvidenceDimension {
  key: string;
  name: string;
  /** Mean over the pairs where it was measured. */
  score: number;
  pairs: number;
  /** Combines several figures but rests on one measured figure in every pair. */
  singleFigure: boolean;
}

export interface EvidenceScale {
  min: number;
  max: number;
}

/** The measurements behind a matching or a report (a report's `group` and `pairs` are empty). */
export interface Evidence {
  kind: 'matching' | 'report';
  /** Every score is on this scale. */
  scale: EvidenceScale;
  /** The constants the documents quote (reference values, thresholds). */
  method: Record<string, number>;
  target: EvidenceMember;
  group: EvidenceMember[];
  groupSize: number;
  /** One per group member, in order. */
  pairs: EvidencePair[];
  /** Confidence-weighted mean of the pairs' overall scores; null for a report or when none has one. */
  groupOverall: number | null;
  dimensions: EvidenceDimension[];
}
