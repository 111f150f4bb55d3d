// A media row of the embedded store and the record the services read (decisions §7's media,
// its cached analysis and the bookkeeping of analyses), with the rules every writer shares.
import { upgradeCachedAnalysis, type MediaAnalysis, type Transcript } from '@rapport/analysis';
import type { SpeakerHints } from './files.schemas.ts';
import type { PreviousSpeaker } from './speaker-links.ts';
import { EMPTY_SUMMARY, summarize, type MediaSummary } from './media-summary.ts';

export type MediaKind = 'audio' | 'video' | 'transcript';
export type AnalysisStatus = 'pending' | 'running' | 'ready' | 'failed';

export interface MediaRecord {
  id: string;
  workspaceId: string;
  kind: MediaKind;
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  durationSec: number | null;
  label: string | null;
  storagePath: string;
  transcript: Transcript | null;
  analysisStatus: AnalysisStatus;
  analysisError: { code: string; message: string } | null;
  analysis: MediaAnalysis | null;
  /** The user's speaker-count hints, used by every analysis of this media. */
  speakerHints: SpeakerHints | null;
  /** The engine that made (or failed) the current analysis; null while one is owed. */
  engineVersion: string | null;
  /** While a re-analysis is owed: the speakers of the analysis it replaces. */
  previousSpeakers: PreviousSpeaker[] | null;
  /** The running analysis's stage and the fraction of that stage done (advisory). */
  analysisStage: string | null;
  analysisProgress: number;
  /** The number of the row's latest change (media-changes.ts): the id of its latest event. */
  changedSeq: number;
  createdAt: string;
  /**
   * Set on a record read without its transcript and analysis (`transcript` and `analysis` are
   * then null): what the resource shows of them (media-summary.ts).
   */
  summary: MediaSummary | null;
}

export interface MediaRow {
  id: string;
  workspace_id: string;
  kind: MediaKind;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  duration_sec: number | null;
  label: string | null;
  storage_path: string;
  transcript_json: string | null;
  analysis_status: AnalysisStatus;
  analysis_error: string | null;
  analysis_json: string | null;
  speaker_hints_json: string | null;
  engine_version: string | null;
  previous_speakers_json: string | null;
  analysis_stage: string | null;
  analysis_progress: number;
  changed_seq: number;
  created_at: string;
  seq: number;
  summary_json: string | null;
}

/** A row read without its transcript and analysis (LIGHT_COLUMNS). */
export type LightMediaRow = Omit<MediaRow, 'transcript_json' | 'analysis_json'> & {
  /** 1 (or true) when the row has no summary yet (made from its whole row when read). */
  needs_summary: number | boolean;
};

/**
 * The columns of a media read for its resource: never the transcript's or the analysis's JSON
 * (the previous speakers, a voiceprint and segment times per linked speaker, are kept).
 */
export const LIGHT_COLUMNS = `id, workspace_id, kind, filename, content_type, size_bytes, sha256, duration_sec, label, storage_path,
  analysis_status, analysis_error, speaker_hints_json, engine_version, previous_speakers_json, analysis_stage, analysis_progress, changed_seq, created_at, seq,
  summary_json, (summary_json IS NULL) AS needs_summary`;

/** The summary a full row shows, as stored in `summary_json`. */
export function summaryJson(r: MediaRow): string {
  return JSON.stringify(summarize(r.kind, r.analysis_json ? (JSON.parse(r.analysis_json) as MediaAnalysis) : null, r.transcript_json ? (JSON.parse(r.transcript_json) as Transcript) : null));
}

/** A light row as a record; `summary` is its stored summary (made by `fill` when it has none yet). */
export function toLightMedia(r: LightMediaRow, summary: MediaSummary | null): MediaRecord {
  return {
    ...toMedia({ ...r, transcript_json: null, analysis_json: null }),
    summary: summary ?? (r.summary_json ? (JSON.parse(r.summary_json) as MediaSummary) : EMPTY_SUMMARY),
  };
}

export function toMedia(r: MediaRow, withAnalysis = true): MediaRecord {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    kind: r.kind,
    filename: r.filename,
    contentType: r.content_type,
    sizeBytes: r.size_bytes,
    sha256: r.sha256,
    durationSec: r.duration_sec,
    label: r.label,
    storagePath: r.storage_path,
    transcript: r.transcript_json ? (JSON.parse(r.transcript_json) as Transcript) : null,
    analysisStatus: r.analysis_status,
    analysisError: r.analysis_error ? (JSON.parse(r.analysis_error) as { code: string; message: string }) : null,
    // Read through the engine's upgrade, so that an analysis cached by an earlier engine
    // version never reports what the current one knows it did not measure.
    analysis: withAnalysis ? analysisOf(r) : null,
    speakerHints: r.speaker_hints_json ? (JSON.parse(r.speaker_hints_json) as SpeakerHints) : null,
    engineVersion: r.engine_version,
    previousSpeakers: r.previous_speakers_json ? (JSON.parse(r.previous_speakers_json) as PreviousSpeaker[]) : null,
    analysisStage: r.analysis_stage,
    analysisProgress: r.analysis_progress,
    changedSeq: r.changed_seq,
    createdAt: r.created_at,
    summary: null,
  };
}

/**
 * Whether the row is a transcript stored on its own before it was analysed from its cues
 * (decisions §19): ready, yet without an analysis. The store makes that analysis once, off the
 * event loop, and keeps it in the row (OwedTextAnalyses, transcript-analysis.ts) before any full
 * record is made of it; its speakers have no entities, which only its upload creates.
 */
export function owesTextAnalysis(r: Pick<MediaRow, 'analysis_json' | 'kind' | 'analysis_status' | 'transcript_json'>): boolean {
  return !r.analysis_json && r.kind === 'transcript' && r.analysis_status === 'ready' && !!r.transcript_json;
}

/** The row's analysis (none for a row that owesTextAnalysis and has not been through the store's read). */
function analysisOf(r: MediaRow): MediaAnalysis | null {
  return r.analysis_json ? upgradeCachedAnalysis(JSON.parse(r.analysis_json) as MediaAnalysis) : null;
}

/** Entity labels are 1 to 64 code points (the API's bound); a transcript's speaker name may be longer. */
export function entityLabel(name: string | null): string | null {
  if (name === null) return null;
  const trimmed = name.trim();
  return trimmed === '' ? null : [...trimmed].slice(0, 64).join('');
}

/** Media analysis costs 1 credit per started minute of audio (decisions §10). */
export function analysisCost(durationSec: number | null): number {
  return durationSec === null ? 1 : Math.max(1, Math.ceil(durationSec / 60));
}

/** The linked speakers of a stored analysis, with their voiceprints and speech, as JSON. */
export function previousSpeakersJson(analysisJson: string, links: { speaker_index: number; entity_id: string }[]): string | null {
  const analysis = JSON.parse(analysisJson) as MediaAnalysis;
  const previous: PreviousSpeaker[] = links.map((l) => ({
    entityId: l.entity_id,
    voiceprint: analysis.speakers.find((s) => s.index === l.speaker_index)?.voiceprint ?? [],
    segments: analysis.segments.filter((g) => g.speaker === l.speaker_index).map((g) => [g.start, g.end] as [number, number]),
  }));
  return previous.length > 0 ? JSON.stringify(previous) : null;
}
