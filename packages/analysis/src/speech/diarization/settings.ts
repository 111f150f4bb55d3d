// The diarization's settings, grouped by the stage that reads them (diarize.ts lists the stages).
// Each is defined here once, with what it means and how it was chosen: on the speaker-disjoint
// folds of real voices (docs/analysis-speech.md, "Diarization"), never on the AMI excerpts they
// are reported on. The service never changes them; evaluation (eval/) overrides them through
// `DiarizationOverrides`.
import type { WindowEmbeddingModel } from './window-embedding.ts';
import type { ClusterSettings } from './clustering.ts';
import type { OverlapRule } from './reconstruct.ts';

/** The transcript-guided path (guided.ts): one GMM-UBM model per transcript name and a Viterbi pass. */
export interface GuidedSettings {
  ubmComponents: number;
  /** Where the UBM's EM seeds are taken in the frame list (0..1). */
  ubmSeedPhase: number;
  /** Log-likelihood cost of a speaker change between two frames. */
  switchPenalty: number;
  /** Weight of the per-speaker F0 likelihood in the frame scores. */
  pitchStreamWeight: number;
}

export interface DiarizationSettings {
  /** The segmentation network slid over the recording (segmentation/local-segmentation.ts). */
  segmentation: {
    /** Seconds between window starts (8 s windows: each frame is heard in four). */
    hopSec: number;
  };
  /** Local speakers (local-speakers.ts). */
  localSpeakers: {
    /** A local speaker with less clean speech (seconds) is not clustered, but assigned (assign.ts). */
    minCleanSec: number;
    /**
     * At most this many local speakers are clustered (the clustering holds a distance matrix of
     * n² floats and its time grows faster still); past it, an even spread over the recording is,
     * and the others are assigned like the short ones.
     */
    maxClustered: number;
  };
  /** The clustering, where the count is decided (clustering.ts). */
  cluster: ClusterSettings;
  /** Reconstruction: when a frame has two speakers (reconstruct.ts). */
  overlap: OverlapRule;
  guided: GuidedSettings;
  /** Boundary resegmentation (boundary-resegmentation.ts; its voice models are the guided path's, `guided`). */
  boundaries: {
    /** Frames this near (seconds) a change of the first track may move to another speaker; 0: none. */
    reachSec: number;
  };
  /** Numbering (numbering.ts): speakers are numbered by their first run of at least this long. */
  numbering: { firstSpeechMinSec: number };
}

export const DIARIZATION_SETTINGS: DiarizationSettings = {
  // Hop 1 s (pyannote's 10 %) was no better on the folds and costs twice the network time.
  segmentation: { hopSec: 2 },
  // 2 s against 1 s: fold DER 18.3 against 22.2 % (folds 0 and 1; 3 and 4 s worse again).
  localSpeakers: {
    minCleanSec: 2,
    // 3,000: a 1-hour meeting's local speakers at hop 2 s all fit (about 2,500 with enough clean
    // speech); the matrix is then 36 MB. A 4-hour recording (the service's default limit) is
    // clustered on an even 3,000 of its about 10,000.
    maxClustered: 3000,
  },
  cluster: {
    // The best of 0.6-1.0 on the folds: lower splits voices, higher merges them.
    threshold: 0.8,
    // Under 2 s of clean speech a cluster is not a speaker of its own.
    minSpeakerSec: 2,
    // VBx after the linkage (vbx.ts), started from its partition. On the folds (diarization
    // alone, fold LDAs) Fa 1 / 3 / 10 x Fb 0.3 / 1 / 3 all read 14.4-15.3 % against 15.9 %
    // without; Fa 3, Fb 1 the lowest (docs/speech-validation.md, fifth session).
    vbxFa: 3,
    vbxFb: 1,
  },
  overlap: {
    // The segmentation's classes hold at most two speakers at once.
    maxPerFrame: 2,
    // Two speak where the windows expect 1.8 speakers on average (reconstruct.ts: the sum of the
    // local speakers' probabilities). On the folds (diarization alone, fold LDAs) 1.6 / 1.7 / 1.75
    // / 1.8 / 1.9 read DER 16.6 / 16.2 / 16.0 / 15.9 / 15.9 % at overlap precision 0.44 / 0.58 /
    // 0.65 / 0.75 / 0.95 (recall 0.47 / 0.38 / 0.32 / 0.26 / 0.11): 1.8 is the lowest DER and the
    // first that reaches precision 0.7 (docs/speech-validation.md, fourth session). Counting the
    // windows' most likely classes instead (the rule until 2026-12-03) read 16.3 % at precision 0.49.
    minHeard: 1.8,
  },
  guided: { ubmComponents: 24, ubmSeedPhase: 0.5, switchPenalty: 60, pitchStreamWeight: 1 },
  // The best of 0.3, 0.6 and 1 s on the folds (fold DER 16.8 -> 16.3 %, diarization alone; 0.6:
  // 16.6, 1 s: 16.8); every frame (no limit) was worse there (17.2 %), moving whole turns.
  boundaries: { reachSec: 0.3 },
  numbering: { firstSpeechMinSec: 0.5 },
};

/** Evaluation's view: any setting of any stage, and a fold's embedding model. */
export interface DiarizationOverrides {
  settings?: { [G in keyof DiarizationSettings]?: Partial<DiarizationSettings[G]> };
  /** The window speaker embedding (default: the committed model); evaluation passes a fold's model. */
  embeddingModel?: WindowEmbeddingModel;
}

/** The settings with `overrides` applied, group by group. */
export function resolveSettings(overrides?: DiarizationOverrides['settings']): DiarizationSettings {
  const s = DIARIZATION_SETTINGS;
  if (!overrides) return s;
  return {
    segmentation: { ...s.segmentation, ...overrides.segmentation },
    localSpeakers: { ...s.localSpeakers, ...overrides.localSpeakers },
    cluster: { ...s.cluster, ...overrides.cluster },
    overlap: { ...s.overlap, ...overrides.overlap },
    guided: { ...s.guided, ...overrides.guided },
    boundaries: { ...s.boundaries, ...overrides.boundaries },
    numbering: { ...s.numbering, ...overrides.numbering },
  };
}
