// An uploaded transcript as the parse worker answers it (transcript-parse.ts; issue 32, finding 1):
// the JSON text the store keeps and the summary the media resource shows, both made in the
// worker, so that storing an upload never walks, clones or serialises its cues (up to 20,000, 4 MiB)
// on the API's event loop. The stores take either this or a parsed Transcript (re-analyses, tests).
import type { Transcript } from '@rapport/analysis';
import { summarize, type MediaSummary } from './media-summary.ts';

export class TranscriptText {
  readonly format: Transcript['format'];
  /** `JSON.stringify` of the parsed transcript: what the store writes in `transcript_json`. */
  readonly json: string;
  /** `summarize('transcript', null, transcript)`: the summary of transcript media on its own. */
  readonly summary: MediaSummary;
  /** The end of its last cue, in seconds (rounded to the millisecond). */
  readonly durationSec: number;
  constructor(t: { format: Transcript['format']; json: string; summary: MediaSummary; durationSec: number }) {
    this.format = t.format;
    this.json = t.json;
    this.summary = t.summary;
    this.durationSec = t.durationSec;
  }

  /** Made from a parsed transcript (what the worker does, off the event loop). */
  static of(transcript: Transcript): TranscriptText {
    const end = transcript.cues.reduce((m, c) => Math.max(m, c.end), 0);
    return new TranscriptText({ format: transcript.format, json: JSON.stringify(transcript), summary: summarize('transcript', null, transcript), durationSec: Math.round(end * 1000) / 1000 });
  }
}

/** A transcript to store: its text made off the event loop, or a parsed one. */
export type StoredTranscript = Transcript | TranscriptText;

/** The JSON a store keeps of a transcript. */
export function transcriptJsonOf(t: StoredTranscript): string {
  return t instanceof TranscriptText ? t.json : JSON.stringify(t);
}

/** The summary of new media of this kind stored with this transcript (and no analysis yet). */
export function newMediaSummary(kind: string, t: StoredTranscript | null): MediaSummary {
  if (!(t instanceof TranscriptText)) return summarize(kind, null, t);
  return kind === 'transcript' ? t.summary : summarize(kind, null, { format: t.format, cues: [] });
}
