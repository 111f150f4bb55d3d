// The server's view of the analysis engine: the few operations jobs need, behind an interface
// so that the worker can run (and fail honestly) when no engine is wired in, and so that tests
// can count calls. `createEngine` in engine.adapter.ts binds it to @rapport/analysis.
import type { MediaAnalysis, SpeakerMetrics, Transcript } from '@rapport/analysis';

export type AnalysisStage = 'detecting_speech' | 'identifying_speakers' | 'measuring_behavior';

export interface SelectorInput {
  strategy: 'dominant' | 'timerange' | 'entity_id' | 'magic_hint' | 'speaker_index';
  on_miss?: 'fallback_dominant' | 'error' | undefined;
  entity_id?: string | null | undefined;
  hint?: string | null | undefined;
  speaker_index?: number | null | undefined;
  timerange?: { start_seconds?: number | null | undefined; end_seconds?: number | null | undefined } | null | undefined;
}

export interface MemberInput {
  ref: string;
  name: string;
  entityId: string | null;
  metrics: SpeakerMetrics;
  appearances: { mediaId: string; speakerIndex: number }[];
}

export interface BuiltDocument {
  document: unknown;
  markdown: string;
  evidence: unknown;
}

export interface AnalysisEngine {
  analyzeMedia(input: {
    path: string;
    transcript: Transcript | null;
    onProgress: (stage: AnalysisStage, fraction: number) => void;
    signal: AbortSignal;
  }): Promise<MediaAnalysis>;
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

export const ENGINE_UNAVAILABLE_MESSAGE = 'The analysis engine is not available in this build, so no result can be produced.';

export type MediaAnalysisMap = Record<string, MediaAnalysis>;
