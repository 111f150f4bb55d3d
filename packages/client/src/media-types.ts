// Media (decisions.md §7): the resource and its analysis, the speaker-count hints (§15), upload
// and list parameters, the analysis event stream, content links and the diarization.
import type { Id, ListParams, Timestamp } from './common-types.ts';
import type { JobError } from './job-types.ts';

export interface Speaker {
  index: number;
  entityId: Id | null;
  speechSec: number;
  firstSpeechSec: number;
  label: string | null;
  /** Enough speech to judge the voice (decisions §16); false: no person of its own, not matchable. */
  enough: boolean;
}

/**
 * What you know of how many people speak: `numSpeakers` exactly, or a range with `minSpeakers`
 * and/or `maxSpeakers` (whole numbers 1 to 20, min <= max, never numSpeakers with a range).
 */
export interface SpeakerHints {
  numSpeakers?: number;
  minSpeakers?: number;
  maxSpeakers?: number;
}

/**
 * Hints for a re-analysis. Naming any field replaces every stored hint with the ones given
 * (null: not set; `{ numSpeakers: null }` clears them); no hints keeps the stored ones.
 */
export interface ReanalyzeParams {
  numSpeakers?: number | null;
  minSpeakers?: number | null;
  maxSpeakers?: number | null;
}

export interface FileListParams extends ListParams {
  /** Only audio and video analysed (or failed) by an engine version other than the service's. */
  outdated?: boolean;
}

/**
 * What an analysis says of itself: a speaker-count hint it could not meet (what was asked, how
 * many were found, and why), or a count found without a hint that it is unsure of.
 */
export type AnalysisWarning = HintNotMetWarning | SpeakerCountUncertainWarning;

/** The speaker-count hint could not be met (decisions §15). */
export interface HintNotMetWarning {
  code: 'hint_not_met';
  asked: SpeakerHints;
  found: number;
  reason: string;
}

/** A count found without a hint that the analysis is unsure of: maybe fewer, more, or either. */
export interface SpeakerCountUncertainWarning {
  code: 'speaker_count_uncertain';
  found: number;
  maybe: 'fewer' | 'more' | 'either';
  reason: string;
}

export interface Media {
  id: Id;
  kind: 'audio' | 'video' | 'transcript';
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  durationSec: number | null;
  label?: string;
  hasTranscript: boolean;
  analysis: MediaAnalysis;
  createdAt: Timestamp;
}

/** Where the analysis of a media stands, and what it found. */
export interface MediaAnalysis {
  status: 'pending' | 'running' | 'ready' | 'failed';
  error?: JobError;
  speakers: Speaker[];
  /** What the analysis says of itself: `hint_not_met` when the speaker-count hint could not be met (decisions §15), `speaker_count_uncertain` when a count found without a hint is unsure. */
  warnings: AnalysisWarning[];
  /** The engine version that made (or failed) the current analysis; null while one is owed. */
  engineVersion: string | null;
  /** The speaker-count hints every analysis of this media uses. */
  speakerHints: SpeakerHints | null;
  /** The step a running analysis is in; null unless `status` is `running`. */
  stage: MediaAnalysisStage | null;
  /** Share of the analysis done, 0 to 1 (each stage a third); 1 when ready. */
  progress: number;
}

export type MediaAnalysisStage = 'detecting_speech' | 'identifying_speakers' | 'measuring_behavior';

/**
 * The answer to `files.upload`: the media, and `duplicate: true` (HTTP 200) when the workspace
 * already had media with these bytes (same SHA-256): then it is that media, nothing was stored,
 * analysed or charged, and the label and hints sent were not applied (decisions §18).
 */
export interface UploadedMedia extends Media {
  duplicate: boolean;
}

/** One event of a media analysis stream (`files.events`, `files.stream`): the media's state. */
export interface MediaEvent {
  /** The event id: send it back as `lastEventId` to resume after it. */
  id: string | null;
  event: 'media.updated' | 'media.ready' | 'media.failed';
  media: Media;
}

/** `POST /v1/files/:id/content-links`. */
export interface ContentLinkParams {
  /** How long the link works, 60 to 3600 seconds; default 900. */
  expiresInSec?: number;
}

/** A short-lived link that streams one media's bytes without the API key (for `<audio src>`). */
export interface ContentLink {
  /** The content route with the link's token; the SDK answers it absolute (on its base URL). */
  url: string;
  expiresAt: Timestamp;
}

/** `files.content`: a byte range of the file (`end` inclusive; left out: to the end). */
export interface ContentParams {
  range?: { start: number; end?: number };
}

export interface Diarization {
  mediaId: Id;
  durationSec: number | null;
  segments: DiarizationSegment[];
}

/** Who speaks when: `speaker` is the 0-based index, `start` and `end` are seconds. */
export interface DiarizationSegment {
  speaker: number;
  start: number;
  end: number;
}

/** `GET /v1/files/:id/diarization?format=`: json (default), rttm, vtt or srt. */
export interface DiarizationParams {
  format?: 'json' | 'rttm' | 'vtt' | 'srt';
}
