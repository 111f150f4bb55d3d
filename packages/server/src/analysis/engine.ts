// The server's view of the analysis engine: the few operations jobs need, behind an interface
// so that the worker can run (and fail honestly) when no engine is wired in, and so that tests
// can count calls. `createEngine` in create-engine.ts binds it to @rapport/analysis.
import type { AnalysisStage, MediaAnalysis, MemberInput, Selector, SpeakerCountHint, SpeakerMetrics, Transcript } from '@rapport/analysis';

export type { AnalysisStage, MemberInput };
/** The selector as the engine reads it (the API's selector, on_miss optional). */
export type SelectorInput = Selector;

export interface BuiltDocument {
  document: unknown;
  markdown: string;
  evidence: unknown;
}

export interface AnalysisEngine {
  /** ENGINE_VERSION of @rapport/analysis: recorded with each analysis this engine makes or fails. */
  readonly version: string;
  analyzeMedia(input: {
    path: string;
    transcript: Transcript | null;
    /** The user's speaker-count hints for this media, when any. */
    speakers?: SpeakerCountHint;
    onProgress: (stage: AnalysisStage, fraction: number) => void;
    signal: AbortSignal;
    /** Media that decodes to more than this fails as media_unreadable (MAX_MEDIA_SEC). */
    maxDurationSec: number;
    /** Memory limit of the analysis (ANALYSIS_MEMORY_MB); over it the analysis fails, the service goes on. */
    memoryLimitMb: number;
    /** How much lower than the service's the analysis's scheduling priority is (ANALYSIS_NICE). */
    niceIncrement?: number;
    /** Whether the analysis runs under SCHED_IDLE where Linux has it (ANALYSIS_SCHEDULING=idle, the default) or at its nice value alone. */
    idleScheduling?: boolean;
    /** While the API is busy the analysis is paused but for this share of the time (ANALYSIS_MIN_SHARE_PCT / 100). */
    minShare?: number;
    /** The media's workspace: analyses of one workspace may share a warm analysis process (ANALYSIS_PROCESS_REUSE). */
    workspaceId?: string;
  }): Promise<MediaAnalysis>;
  /** Ends what the engine keeps running between analyses (idle analysis processes). */
  close?(): Promise<void>;
  /** For each new voiceprint, the entity it belongs to, or null for a new person. */
  linkSpeakers(voiceprints: number[][], existing: { entityId: string; voiceprint: number[] }[]): (string | null)[];
  resolveSelector(
    media: MediaAnalysis,
    selector: SelectorInput,
    ctx: { speakerEntityIds: (string | null)[]; entities: Record<string, { label: string | null; tags: string[] }> },
  ): { ok: true; speakerIndex: number; fellBack: boolean } | { ok: false; reason: string };
  aggregateMetrics(items: { metrics: SpeakerMetrics }[]): SpeakerMetrics;
  buildMatching(input: { target: MemberInput; group: MemberInput[]; media: Record<string, MediaAnalysis> }): BuiltDocument;
  buildReport(input: { target: MemberInput; media: Record<string, MediaAnalysis> }): BuiltDocument;
  parseTranscript(text: string): Transcript | null;
}

export interface EngineOptions {
  /**
   * Where analysis processes keep the engine's compiled code (compile-cache.ts); made if missing;
   * where it cannot be, the engine is compiled at every start.
   */
  compileCacheDir?: string;
  /** Analyses of one workspace that one analysis process may run (ANALYSIS_PROCESS_REUSE; default 1: a process each). */
  processReuse?: number;
  /** Idle analysis processes kept warm (WORKER_CONCURRENCY; default 1). */
  idleProcesses?: number;
  /** The deployment's ONNX speaker embedding network (SPEAKER_EMBEDDING_MODEL), already checked (serve.ts). */
  speakerEmbeddingModel?: string;
  /** The deployment's ONNX speaker segmentation network (SEGMENTATION_MODEL), already checked (serve.ts). */
  segmentationModel?: string;
}

export const ENGINE_UNAVAILABLE_MESSAGE = 'The analysis engine is not available in this build, so no result can be produced.';

export type MediaAnalysisMap = Record<string, MediaAnalysis>;
