// A media row of the embedded store and the record the services read (decisions §7's media,
// its cached analysis and the bookkeeping of analyses), with the rules every writer shares.
import { upgradeCachedAnalysis, type MediaAnalysis, type Transcript } from '@rapport/analysis';
import type { SpeakerHints } from './files.schemas.ts';
import type { PreviousSpeaker } from './speaker-links.ts';

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
    analysis: withAnalysis && r.analysis_json ? upgradeCachedAnalysis(JSON.parse(r.analysis_json) as MediaAnalysis) : null,
    speakerHints: r.speaker_hints_json ? (JSON.parse(r.speaker_hints_json) as SpeakerHints) : null,
    engineVersion: r.engine_version,
    previousSpeakers: r.previous_speakers_json ? (JSON.parse(r.previous_speakers_json) as PreviousSpeaker[]) : null,
    analysisStage: r.analysis_stage,
    analysisProgress: r.analysis_progress,
    changedSeq: r.changed_seq,
    createdAt: r.created_at,
  };
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
