// What the render worker makes (render.worker.ts): the diarization files and the HTML report of
// a result, from the stored JSON as text. Parsing an hour's analysis and a 20,000-cue transcript
// and building a megabyte of text took the event loop 100 to 300 ms per request even once the
// algorithms were linear (issue 41, finding 2), so none of it runs on the API's thread.
import { renderHtml } from '@rapport/analysis';
import type { MatchingEvidence, MediaAnalysis, ResultDocument } from '@rapport/analysis';
import type { SharedDiarization } from '@rapport/analysis/render';
import { ApiError } from '../errors.ts';
import { toMedia, type MediaRow } from '../files/media-rows.ts';
import { toDiarization, toMediaResource } from '../files/media-resource.ts';
import { NUMBERED, segmentTexts, toRttm, toSrt, toWebVtt } from '../files/diarization-export.ts';
import type { Diarization } from '../files/files.schemas.ts';
import type { MediaRecord } from '../files/media-rows.ts';

export type RenderTask =
  | {
    kind: 'diarization';
    row: MediaRow;
    format: 'rttm' | 'vtt' | 'srt';
    /** Each speaker's entity (speaker index, entity id), and the labels of those entities. */
    links: [number, string][];
    people: Record<string, string | null>;
  }
  | {
    kind: 'html';
    doc: ResultDocument;
    evidence: MatchingEvidence | null;
    footer: string;
    /** The recordings pairs share: their duration and analysis as stored. */
    shared: Record<string, { durationSec: number | null; analysisJson: string }>;
  };

/** What a render answers: the text, or the error to answer the request with. */
export type RenderAnswer = { body: Uint8Array } | { error: { code: 'CONFLICT' | 'INTERNAL'; message: string } };

export function render(task: RenderTask): string {
  return task.kind === 'diarization' ? diarizationFile(task) : htmlReport(task);
}

/** The diarization of media whose analysis is ready (409 otherwise). */
export function readyDiarization(m: MediaRecord): Diarization {
  if (m.analysisStatus === 'failed') {
    throw new ApiError('CONFLICT', `Media ${m.id} could not be analysed (${m.analysisError?.code ?? 'internal_error'}: ${m.analysisError?.message ?? 'unknown error'}); it has no diarization.`);
  }
  if (m.analysisStatus !== 'ready') {
    throw new ApiError('CONFLICT', `The analysis of media ${m.id} is ${m.analysisStatus}; the diarization exists once analysis.status is ready.`);
  }
  return toDiarization(m);
}

function diarizationFile(task: Extract<RenderTask, { kind: 'diarization' }>): string {
  const m = toMedia(task.row);
  const d = readyDiarization(m);
  const links = new Map(task.links);
  // Decisions §17: the person's label, else the transcript's name, else "Speaker N".
  const own = m.analysis ? m.analysis.speakers.map((s) => s.label) : toMediaResource(m, links).analysis.speakers.map((s) => s.label);
  const names = (index: number): string => task.people[links.get(index) ?? ''] ?? own[index] ?? NUMBERED(index);
  if (task.format === 'rttm') return toRttm(d, names); // no text in RTTM
  // Transcript media: one segment per cue, in cue order. Audio and video: the attached
  // transcript's cues placed on the segments of the speakers their names were aligned to.
  const texts = !m.analysis && m.transcript
    ? m.transcript.cues.map((c) => c.text)
    : segmentTexts(d.segments, m.transcript ?? m.analysis?.transcript ?? null, m.analysis?.speakers.map((s) => s.label) ?? []);
  return task.format === 'vtt' ? toWebVtt(d, texts, names) : toSrt(d, texts, names);
}

function htmlReport(task: Extract<RenderTask, { kind: 'html' }>): string {
  const shared: Record<string, SharedDiarization> = {};
  for (const [mediaId, s] of Object.entries(task.shared)) {
    const analysis = JSON.parse(s.analysisJson) as MediaAnalysis;
    shared[mediaId] = { durationSec: s.durationSec ?? analysis.durationSec, segments: analysis.segments };
  }
  return renderHtml(task.doc, task.evidence, { footer: task.footer, shared });
}
