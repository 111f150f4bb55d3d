// The diarization's settings, grouped by the stage that reads them (diarize.ts lists the stages).
// Each is defined here once, with what it means and how it was chosen. They were calibrated on
// the dev set and judged on the speaker-disjoint folds (docs/analysis-speech.md); the service
// never changes them. Evaluation (eval/) overrides them through `DiarizationOverrides`.
import type { WindowEmbeddingModel } from './window-embedding.ts';

export interface DiarizationSettings {
  /** Speaker models: a universal background model (UBM) fitted to the recording's voiced frames. */
  models: {
    ubmComponents: number;
    /** Where the UBM's EM seeds are taken in the frame list (0..1); varied only to measure how much the results depend on it. */
    ubmSeedPhase: number;
    /**
     * A recording diarized in one stage is diarized from this many UBM seedings, ubmSeedPhase +
     * m / seedCandidates, and the run whose speakers the window embedding fits best is kept
     * (partition-fit.ts); 1: one run.
     */
    seedCandidates: number;
  };
  /** Initial segments: bottom-up clustering of speech windows (initial-segments.ts). */
  initialSegments: {
    windowSec: number;
    hopSec: number;
    /** Window clustering stops at this distance (once at most maxInitialClusters remain). */
    clusterThreshold: number;
    /** Upper bound on the clusters handed to the count stage (and on the clusters the chunks of a long recording link into while the evidence says stop). */
    maxInitialClusters: number;
    /** Weight of the pitch distance (per 6 semitones) in window clustering. */
    clusterPitchWeight: number;
  };
  /** Resegmentation: Viterbi passes over GMM-UBM speaker models and F0 (resegmentation.ts). */
  resegmentation: {
    /** Log-likelihood cost of a speaker change between two frames. */
    switchPenalty: number;
    /** Weight of the per-speaker F0 likelihood in the frame scores. */
    pitchStreamWeight: number;
    /**
     * Once the count is settled, last passes in which a change of speaker costs this much inside
     * a pause of at least pauseMinSec within a speech region (fast exchanges that the speech
     * detector bridged into one region), with Z-normed scores. On the dev set any cost from 5 to
     * 10 and pause from 0.15 to 0.2 s gives about the same.
     */
    pauseSwitchPenalty: number;
    pauseMinSec: number;
    /** How many such last passes (each re-estimates the models from the previous one's labels). */
    lastPasses: number;
  };
  /** The speaker count: where merging stops, within the user's bounds (speaker-count.ts). */
  count: {
    /** Cross-likelihood ratio (CLR) above which two clusters are merged as one speaker. */
    clrThreshold: number;
    /**
     * The CLR is weighted by the mean adaptation weight n / (n + clrScaleFrames) of the two
     * clusters (n = modelled frames), so that the ratio of small clusters, which is noisy and
     * mostly prior, counts for less (= the MAP relevance 64 times the 24 UBM components).
     */
    clrScaleFrames: number;
    /** Clusters with less speech than this (seconds) are merged into their nearest neighbour... */
    minSpeakerSec: number;
    /** ...or less than this share of the recording's voiced speech, whichever is smaller. */
    minSpeakerShare: number;
    /** Merges of two clusters of at least mergeVetoMinSec voiced seconds whose voiceprints have a cosine below this are refused. */
    mergeVetoSimilarity: number;
    /** ...and so are merges of two such clusters whose window embeddings lie further apart than this (on the dev set the same from 5 to 9). */
    mergeVetoEmbedding: number;
    mergeVetoMinSec: number;
    /**
     * When no pair passes the likelihood test, two clusters of mergeVetoMinSec or more whose
     * voiceprints have at least this cosine are still merged, as one voice heard through two
     * channels (on the dev set anything from 0.7 to 0.9 gives the same).
     */
    sureMergeSimilarity: number;
    /**
     * ...and so are two such clusters whose window embeddings lie closer than this
     * (embeddingDistance; 0: never). Measured on the real-voice folds (docs/analysis-speech.md).
     */
    sureMergeEmbedding: number;
  };
  /** Reassignment of pieces between the settled speakers (reassign.ts). */
  reassignment: {
    /** Rounds at most: one before the last passes and one after each set of them, until no piece moves. */
    reassignRounds: number;
    /** Summed log-likelihood by which another speaker must beat a piece's own left-out model. */
    reassignMargin: number;
    /** How much nearer (window-embedding distance) a moving group must be to its new speaker. */
    reassignEmbeddingMargin: number;
    /** A group of pieces moving between two speakers needs this much voiced speech (seconds)... */
    reassignMinSec: number;
    /** ...and may take at most this share of its speaker (whether a speaker exists is the count's decision). */
    reassignMaxShare: number;
  };
  /** Last refinement: pieces move to the nearest speaker in the window embedding (embedding-refine.ts). */
  refinement: {
    /** Rounds at most (on the dev set it settles within 4). */
    embeddingRefineRounds: number;
    /** How much nearer (squared distance per dimension) a piece must be to another speaker's mean; 0.2 or less lets pieces move on their own noise. */
    embeddingRefineMargin: number;
    /** Pieces with less voiced speech than this (seconds) stay where they are. */
    embeddingRefineMinSec: number;
  };
  /** Long recordings: diarized in chunks whose speakers are linked (long-recordings.ts). */
  longRecordings: {
    /** Recordings longer than this (seconds) are cut into chunks of about chunkSec... */
    longRecordingSec: number;
    /** ...up to this long (two hours); beyond it the single-stage path is used (memory: docs/analysis-speech.md). */
    longRecordingMaxSec: number;
    chunkSec: number;
  };
  /** Numbering (numbering.ts): speakers are numbered by their first run of at least this long. */
  numbering: { firstSpeechMinSec: number };
}

export const DIARIZATION_SETTINGS: DiarizationSettings = {
  models: { ubmComponents: 24, ubmSeedPhase: 0.5, seedCandidates: 2 },
  initialSegments: { windowSec: 1.5, hopSec: 0.75, clusterThreshold: 0.5, maxInitialClusters: 10, clusterPitchWeight: 1 },
  resegmentation: { switchPenalty: 60, pitchStreamWeight: 1, pauseSwitchPenalty: 10, pauseMinSec: 0.15, lastPasses: 2 },
  count: {
    clrThreshold: -0.6,
    clrScaleFrames: 1536,
    minSpeakerSec: 8,
    minSpeakerShare: 0.2,
    mergeVetoSimilarity: 0.15,
    mergeVetoEmbedding: 6,
    mergeVetoMinSec: 2,
    sureMergeSimilarity: 0.8,
    sureMergeEmbedding: 0,
  },
  reassignment: { reassignRounds: 10, reassignMargin: 5, reassignEmbeddingMargin: 0.3, reassignMinSec: 0.3, reassignMaxShare: 0.5 },
  refinement: { embeddingRefineRounds: 10, embeddingRefineMargin: 0.3, embeddingRefineMinSec: 0.2 },
  longRecordings: { longRecordingSec: 300, longRecordingMaxSec: 7200, chunkSec: 180 },
  numbering: { firstSpeechMinSec: 0.5 },
};

/** Evaluation's view: any setting of any stage, a fold's embedding model, and a merge trace. */
export interface DiarizationOverrides {
  settings?: { [G in keyof DiarizationSettings]?: Partial<DiarizationSettings[G]> };
  /** The window speaker embedding (default: the committed model); evaluation passes a fold's model. */
  embeddingModel?: WindowEmbeddingModel;
  /** Called before each merge decision with the current clusters. */
  trace?: (e: MergeTrace) => void;
}

/** The settings with `overrides` applied, group by group. */
export function resolveSettings(overrides?: DiarizationOverrides['settings']): DiarizationSettings {
  const s = DIARIZATION_SETTINGS;
  if (!overrides) return s;
  return {
    models: { ...s.models, ...overrides.models },
    initialSegments: { ...s.initialSegments, ...overrides.initialSegments },
    resegmentation: { ...s.resegmentation, ...overrides.resegmentation },
    count: { ...s.count, ...overrides.count },
    reassignment: { ...s.reassignment, ...overrides.reassignment },
    refinement: { ...s.refinement, ...overrides.refinement },
    longRecordings: { ...s.longRecordings, ...overrides.longRecordings },
    numbering: { ...s.numbering, ...overrides.numbering },
  };
}

export interface MergeTrace {
  round: number;
  frameSpeaker: Int16Array;
  /** Modelled frames per cluster. */
  counts: number[];
  /** clr[i][j] = CLR of the pair (symmetric). */
  clr: number[][];
  /** Mean score of each cluster's frames under its own model. */
  self: number[];
}
