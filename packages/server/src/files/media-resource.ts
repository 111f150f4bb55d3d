// A stored media row as the API shows it (decisions §7). Speakers come from the cached analysis
// and their entity links; a transcript on its own has no audio analysis, so its speakers and
// segments are read from its cues (named, linked to no entity).
import { enoughSpeech } from '@rapport/analysis';
import type { MediaRecord } from './media.store.ts';
import { cueSpeakers, summarize } from './media-summary.ts';
import { ANALYSIS_STAGES, type AnalysisStageName, type Diarization, type Media, type MediaSpeaker } from './files.schemas.ts';

/**
 * The resource of a record: from its summary when it was read without its transcript and
 * analysis (lists, gets, streams: media-summary.ts), else from them.
 */
export function toMediaResource(m: MediaRecord, links: Map<number, string>): Media {
  const summary = m.summary ?? summarize(m.kind, m.analysis, m.transcript);
  const speakers: MediaSpeaker[] = summary.speakers.map((s) => ({
    index: s.index,
    entityId: summary.analysed ? (links.get(s.index) ?? null) : null,
    speechSec: s.speechSec,
    firstSpeechSec: s.firstSpeechSec,
    label: s.label,
    enough: enoughSpeech(s.speechSec),
  }));
  return {
    id: m.id,
    kind: m.kind,
    filename: m.filename,
    contentType: m.contentType,
    sizeBytes: m.sizeBytes,
    sha256: m.sha256,
    durationSec: m.durationSec,
    ...(m.label !== null ? { label: m.label } : {}),
    hasTranscript: summary.hasTranscript,
    analysis: {
      status: m.analysisStatus,
      ...(m.analysisError ? { error: { code: m.analysisError.code, message: m.analysisError.message } } : {}),
      speakers,
      warnings: summary.warnings ?? m.analysis?.warnings ?? [],
      engineVersion: m.engineVersion,
      speakerHints: m.speakerHints,
      ...analysisProgress(m),
    },
    createdAt: m.createdAt,
  };
}

/**
 * Where the analysis is: the stage of a running one (the first until the engine reports) and the
 * share done, each stage counting for a third; ready is 1, pending and failed 0.
 */
function analysisProgress(m: MediaRecord): { stage: AnalysisStageName | null; progress: number } {
  if (m.analysisStatus === 'ready') return { stage: null, progress: 1 };
  if (m.analysisStatus !== 'running') return { stage: null, progress: 0 };
  const at = Math.max(0, ANALYSIS_STAGES.indexOf(m.analysisStage as AnalysisStageName));
  const fraction = Math.min(1, Math.max(0, m.analysisProgress));
  return { stage: ANALYSIS_STAGES[at] ?? 'detecting_speech', progress: Math.round(((at + fraction) / ANALYSIS_STAGES.length) * 1000) / 1000 };
}

export function toDiarization(m: MediaRecord): Diarization {
  if (m.analysis) {
    return {
      mediaId: m.id,
      durationSec: m.durationSec ?? m.analysis.durationSec,
      segments: m.analysis.segments.map((s) => ({ speaker: s.speaker, start: s.start, end: s.end })),
    };
  }
  const t = m.transcript;
  if (!t) return { mediaId: m.id, durationSec: m.durationSec, segments: [] };
  const { index } = cueSpeakers(t);
  return {
    mediaId: m.id,
    durationSec: m.durationSec,
    segments: t.cues.map((c, k) => ({ speaker: index[k] ?? 0, start: c.start, end: c.end })),
  };
}
