// The result document of the interface spec ("Result document") and the evidence behind it
// (decisions §6: every figure quoted in a document is found in its evidence).
import type { SpeakerMetrics } from '../types.ts';
import type { ComponentScore } from '../matching/scoring.ts';

export interface CardBlock {
  type: 'card';
  title: string;
  content: string;
  icon: string;
}
export interface TextBlock {
  type: 'text';
  content: string;
  title?: string;
}
export interface GridBlock {
  type: 'grid';
  columns: 2 | 3 | 4;
  items: CardBlock[];
}
export type IllustrationVariant = 'conversation' | 'growth' | 'connection' | 'analysis';
export interface IllustrationBlock {
  type: 'illustration';
  variant: IllustrationVariant;
}
export type Block = CardBlock | TextBlock | GridBlock | IllustrationBlock;

export interface Section {
  section_title: string;
  section_content: Block | Block[] | Record<string, never>;
}

export interface ResultDocument {
  schemaVersion: 1;
  title: string;
  summary: string;
  sections: Section[];
}

/** A resolved member as the server hands it to the document builders. */
export interface MemberInput {
  /** "target" or "group[2]". */
  ref: string;
  /** The entity's label, else the long form "Speaker 2 in interview.wav". */
  name: string;
  /** What to call the member after the first mention ("Speaker 2"); the name when absent. */
  shortName?: string;
  entityId: string | null;
  metrics: SpeakerMetrics;
  appearances: { mediaId: string; speakerIndex: number }[];
}

export interface MemberEvidence {
  ref: string;
  name: string;
  /** The name documents use after the first mention (the full name when a short one is ambiguous). */
  shortName: string;
  entityId: string | null;
  metrics: SpeakerMetrics;
  /**
   * countUncertain: the recording's number of speakers came from the voices alone (its
   * speaker_count_uncertain warning); separation: the speaker's (SpeakerAnalysis.separation, null
   * when not recorded); trust: how sure the analysis is of the speaker (speakerTrust, 0–1).
   * noAudio: a transcript on its own (decisions §19), measured from its cues, without a voice.
   */
  appearances: { mediaId: string; speakerIndex: number; speechSec: number | null; transcribed: boolean; countUncertain: boolean; separation: number | null; trust: number; noAudio: boolean }[];
  mediaCount: number;
  transcribedMediaCount: number;
  speechMin: number;
  /** Interruptions made per minute of own speech (derived from metrics, quoted by documents). */
  interruptionsPerMin: number | null;
  /** The median pitch in hertz (metrics.pitchMedianSt is in semitones above method.pitchReferenceHz). */
  pitchMedianHz: number | null;
  /** How much the profile rests on: speech seconds over the full-confidence amount, capped at 1, times profileTrust. */
  profileConfidence: number;
  /** How sure the analysis is of the speakers the profile is gathered from: their trusts weighted by speech (profileTrust). */
  profileTrust: number;
}

export interface PairEvidence {
  member: string;
  name: string;
  met: boolean;
  sharedMediaIds: string[];
  sharedMediaCount: number;
  overall: { score: number | null; confidence: number };
  /** The speaker trust every component's confidence was multiplied by (pairTrust, or the lower profile trust when they never met). */
  trust: number;
  components: ComponentScore[];
}

export interface DimensionEvidence {
  key: string;
  name: string;
  /** Mean score of this component over the pairs where it was measured. */
  score: number;
  pairs: number;
  /** It combines several figures but rests on one measured figure in every pair: never headlined as strongest or weakest. */
  singleFigure: boolean;
}

export interface MatchingEvidence {
  kind: 'matching' | 'report';
  /** Every score is on this scale. */
  scale: { min: number; max: number };
  /** Constants the documents quote (reference values, thresholds). */
  method: Record<string, number>;
  target: MemberEvidence;
  group: MemberEvidence[];
  groupSize: number;
  pairs: PairEvidence[];
  /** Confidence-weighted mean of the pairs' overall scores; null for reports or when none has one. */
  groupOverall: number | null;
  dimensions: DimensionEvidence[];
}
