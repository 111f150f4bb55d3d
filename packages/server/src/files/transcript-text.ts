// An uploaded transcript as the parse worker answers it (transcript-parse.ts; issue 32, finding 1):
// the JSON text the store keeps and the summary the media resource shows, both made in the
// worker, so that storing an upload never walks, clones or serialises its cues (up to 20,000, 4 MiB)
// on the API's event loop. The stores take either this or a parsed Transcript (re-analyses, tests).
import { analyzeTranscript, type Transcript } from '@rapport/analysis';
import { summarize, type MediaSummary } from './media-summary.ts';

/** A speaker of a transcript's own analysis, as its entity is made from it (its name, no voice). */
export interface TextSpeaker {
  index: number;
  speechSec: number;
  label: string | null;
}

/**
 * A transcript on its own, analysed from its cues (decisions §19, analyzeTranscript): the stored
 * analysis JSON, its summary and its speakers, for the row and the entities written with it.
 */
export interface TextAnalysis {
  json: string;
  summary: MediaSummary;
  speakers: TextSpeaker[];
}

/** The analysis of a transcript without audio, ready to store. */
export function textAnalysisOf(transcript: Transcript): TextAnalysis {
  const analysis = analyzeTranscript(transcript);
  return {
    json: JSON.stringify(analysis),
    summary: summarize('transcript', analysis, transcript),
    speakers: analysis.speakers.map((s) => ({ index: s.index, speechSec: s.speechSec, label: s.label })),
  };
}

export class TranscriptText {
  readonly format: Transcript['format'];
  /** `JSON.stringify` of the parsed transcript: what the store writes in `transcript_json`. */
  readonly json: string;
  /** `summarize('transcript', null, transcript)`: the summary of transcript media on its own. */
  readonly summary: MediaSummary;
  /** The end of its last cue, in seconds (rounded to the millisecond). */
  readonly durationSec: number;
  /** Its analysis as a transcript on its own (stored when it is uploaded without audio). */
  readonly analysis: TextAnalysis;
  constructor(t: { format: Transcript['format']; json: string; summary: MediaSummary; durationSec: number; analysis: TextAnalysis }) {
    this.format = t.format;
    this.json = t.json;
    this.summary = t.summary;
    this.durationSec = t.durationSec;
    this.analysis = t.analysis;
  }

  /** Made from a parsed transcript (what the worker does, off the event loop). */
  static of(transcript: Transcript): TranscriptText {
    const end = transcript.cues.reduce((m, c) => Math.max(m, c.end), 0);
    return new TranscriptText({
      format: transcript.format, json: JSON.stringify(transcript), summary: summarize('transcript', null, transcript), durationSec: Math.round(end * 1000) / 1000, analysis: textAnalysisOf(transcript),
    });
  }
}

/** A transcript to store: its text made off the event loop, or a parsed one. */
export type StoredTranscript = Transcript | TranscriptText;

/** The JSON a store keeps of a transcript. */
export function transcriptJsonOf(t: StoredTranscript): string {
  return t instanceof TranscriptText ? t.json : JSON.stringify(t);
}

/** The text-only analysis of a transcript to store: made in the parse worker, or here for a parsed one (tests). */
export function textAnalysisOfStored(t: StoredTranscript): TextAnalysis {
  return t instanceof TranscriptText ? t.analysis : textAnalysisOf(t);
}

/** The summary of new media of this kind stored with this transcript (and no analysis yet). */
export function newMediaSummary(kind: string, t: StoredTranscript | null): MediaSummary {
  if (!(t instanceof TranscriptText)) return summarize(kind, null, t);
  return kind === 'transcript' ? t.summary : summarize(kind, null, { format: t.format, cues: [] });
}
