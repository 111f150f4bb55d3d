// The diarization's settings (diarize.ts): defaults calibrated on the dev set, what each one
// means, and the eval-only merge trace. Kept apart from the pipeline so that each stays short.
import type { WindowEmbeddingModel } from './window-embedding.ts';

/** Calibrated on the dev set (docs/analysis-speech.md); every field can be overridden. */
export const DIARIZE_DEFAULTS = {
  clusterThreshold: 0.5,
  maxInitialClusters: 10,
  windowSec: 1.5,
  hopSec: 0.75,
  switchPenalty: 60,
  minSpeakerSec: 8,
  minSpeakerShare: 0.2,
  ubmComponents: 24,
  ubmSeedPhase: 0.5,
  seedCandidates: 2,
  clusterPitchWeight: 1,
  pitchStreamWeight: 1,
  clrThreshold: -0.6,
  // = the MAP relevance (64) times the UBM components (24): a cluster's mean adaptation weight.
  clrScaleFrames: 1536,
  firstSpeechMinSec: 0.5,
  voicedOnly: true,
  mergeVetoSimilarity: 0.15,
  mergeVetoEmbedding: 6,
  mergeVetoMinSec: 2,
  sureMergeSimilarity: 0.8,
  pauseSwitchPenalty: 10,
  pauseMinSec: 0.15,
  lastPasses: 2,
  lastPassZnorm: true,
  reassignRounds: 10,
  reassignMargin: 5,
  reassignEmbeddingMargin: 0.3,
  reassignMinSec: 0.3,
  reassignMaxShare: 0.5,
  longRecordingSec: 300,
  longRecordingMaxSec: 7200,
  chunkSec: 180,
  embeddingRefineRounds: 10,
  embeddingRefineMargin: 0.3,
  embeddingRefineMinSec: 0.2,
  countRule: 'merging' as 'merging' | 'spectral',
};

export interface DiarizeOptions {
  /** The window speaker embedding (default: the committed model); evaluation passes a fold's model. */
  embeddingModel?: WindowEmbeddingModel;
  /** Window clustering stops at this distance (once at most maxInitialClusters remain). */
  clusterThreshold?: number;
  windowSec?: number;
  hopSec?: number;
  /** Log-likelihood cost of a speaker change between two frames in the Viterbi pass. */
  switchPenalty?: number;
  /** Clusters with less speech than this (seconds) are merged into their nearest neighbour. */
  minSpeakerSec?: number;
  /** ...or less than this share of the recording's voiced speech, whichever is smaller. */
  minSpeakerShare?: number;
  /** Upper bound on the clusters handed from window clustering to the merging stage. */
  maxInitialClusters?: number;
  ubmComponents?: number;
  /** Where the UBM's EM seeds are taken in the frame list (0..1, default 0.5): varied only to measure how much the results depend on it. */
  ubmSeedPhase?: number;
  /**
   * The single-stage diarization (a short recording, or one chunk of a long one) is run from this
   * many UBM seedings, ubmSeedPhase + m / seedCandidates, and the run whose speakers best fit the
   * window embedding is kept (partition-fit.ts); 1: one run.
   */
  seedCandidates?: number;
  /** Weight of the pitch distance (per 6 semitones) in window clustering. */
  clusterPitchWeight?: number;
  /** Weight of the per-speaker F0 likelihood in the resegmentation emissions. */
  pitchStreamWeight?: number;
  /** Cross-likelihood ratio above which two clusters are merged as one speaker. */
  clrThreshold?: number;
  /**
   * When > 0, the CLR is weighted by the mean adaptation weight n / (n + clrScaleFrames) of the
   * two clusters (n = modelled frames), so that the ratio of small clusters, which is noisy and
   * mostly prior, counts for less than that of well-estimated ones.
   */
  clrScaleFrames?: number;
  /** Speakers are numbered by their first run of at least this long (a stray frame is not a start). */
  firstSpeechMinSec?: number;
  /**
   * Model voiced frames only (the default), or every speech frame within 30 dB of the loud ones.
   * Unvoiced frames carry the channel's upper band (fricatives), which separates an 8 kHz voice
   * from a full-band one, but also the noise floor: on the dev set they help three files and
   * hurt three others (docs/analysis-speech.md), so they stay out by default.
   */
  voicedOnly?: boolean;
  /** Merges of two clusters of at least mergeVetoMinSec voiced seconds whose voiceprints have a cosine below this are refused (-2: off). */
  mergeVetoSimilarity?: number;
  /**
   * ...and so are merges of two such clusters whose window embeddings (window-embedding.ts) lie
   * further apart than this (embeddingDistance; Infinity: off). On the dev set the outcome is
   * the same anywhere from 5 to 9; at 4 a voice split by what it says is kept split.
   */
  mergeVetoEmbedding?: number;
  mergeVetoMinSec?: number;
  /**
   * When no pair passes the likelihood test, two clusters of mergeVetoMinSec or more whose
   * voiceprints have at least this cosine are still merged, as one voice heard through two
   * channels (the likelihood models see the channel; the voiceprint is built not to). On the dev
   * set no two voices left at that point reach 0.63, and one voice split by its radio channel
   * has 0.94; anything from 0.7 to 0.9 gives the same result (2: off).
   */
  sureMergeSimilarity?: number;
  /**
   * Once the speaker count is settled, last resegmentation passes in which a change of speaker
   * costs this much instead of switchPenalty inside a pause of at least pauseMinSec within a
   * speech region (fast exchanges that the VAD bridged into one region). On the dev set any
   * cost from 5 to 10 and pause from 0.15 to 0.2 s gives about the same (docs/analysis-speech.md).
   * Set pauseSwitchPenalty to switchPenalty or more for no such passes.
   */
  pauseSwitchPenalty?: number;
  pauseMinSec?: number;
  /** How many such last passes (each re-estimates the models from the previous one's labels). */
  lastPasses?: number;
  /**
   * Z-norm each speaker's scores in the last passes by their mean and spread over the other
   * speakers' frames (viterbi.ts normaliseByImpostors): a model adapted on much speech otherwise
   * outscores one adapted on little on every frame.
   */
  lastPassZnorm?: boolean;
  /**
   * Rounds of piece reassignment (reassign.ts): one before the last passes and one after each set
   * of them, until no piece moves; this is a cap (on the dev set it settles within 3-4). 0: off.
   */
  reassignRounds?: number;
  /** Summed log-likelihood by which another speaker must beat a piece's own left-out model. */
  reassignMargin?: number;
  /** How much nearer (window-embedding distance) a moving group must be to its new speaker. */
  reassignEmbeddingMargin?: number;
  /** A group of pieces moving between two speakers needs this much voiced speech (seconds). */
  reassignMinSec?: number;
  /** ...and may take at most this share of its speaker (the count is the merging stage's). */
  reassignMaxShare?: number;
  /**
   * Recordings longer than this (seconds) are cut into chunks of about chunkSec, each diarized on
   * its own, and the chunk speakers linked across chunks (diarize-long.ts).
   */
  longRecordingSec?: number;
  /**
   * ...and up to this long (two hours): beyond it the single-stage path is used. The chunked path
   * peaks at 231-254 MB on an hour (the engine's goal is 300 MB) now that its per-frame lists
   * are typed arrays allocated at their final size (as number[] it peaked at 290-315 MB).
   */
  longRecordingMaxSec?: number;
  chunkSec?: number;
  /**
   * Rounds of the last step, pieces moved to the nearest speaker in the window embedding
   * (embedding-refine.ts); a cap (on the dev set it settles within 4). 0: off.
   */
  embeddingRefineRounds?: number;
  /**
   * How much nearer (squared distance per embedding dimension) a piece must be to another
   * speaker's mean than to its own. On the dev set 0.25-1 all help, 0.25-0.35 most (flat on ten
   * seed phases never tuned on), and 0.2 or less lets pieces move on their own noise
   * (docs/analysis-speech.md).
   */
  embeddingRefineMargin?: number;
  /** Pieces with less voiced speech than this (seconds) are not moved by that step. */
  embeddingRefineMinSec?: number;
  /** Diagnostics (eval only): called before each merge decision with the current clusters. */
  trace?: (e: MergeTrace) => void;
  /** The user's bounds on the speaker count (from SpeakerCountHint): merging keeps within them. */
  speakers?: { min: number; max: number };
  /**
   * How the count is decided within the user's bounds: 'merging' (the default) where the
   * likelihood-ratio merging with its vetoes stops; 'spectral' reads it off the window embeddings
   * (speaker-count.ts) and merging stops there. On the speaker-disjoint folds the spectral count
   * with the neural embedding read DER 39.7 % against 42.3 % but talk share 20.5 pp against
   * 12.8 pp (it under-counts), and 12.5 % against 2.3 % on the dev set: not the default
   * (docs/analysis-speech.md, "Speaker-disjoint validation").
   */
  countRule?: 'merging' | 'spectral';
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
