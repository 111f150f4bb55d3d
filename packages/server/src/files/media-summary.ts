// What the media resource shows of a media's analysis and transcript (its speakers, whether it
// has a transcript), kept beside the row in `summary_json` (issue 32, finding 1): lists, gets and
// the media event streams read this instead of the transcript and analysis columns, which may
// hold megabytes of JSON (a transcript of 20,000 cues, an hour's segments and voiceprints) that
// every read used to parse on the API's event loop. Written with the row by every store method
// that changes the analysis or the transcript; a row without one (written before, or by a path
// that left it out) gets it computed from its full row the first time it is read, and stored.
import type { MediaAnalysis, Transcript } from '@rapport/analysis';
import type { AnalysisWarning, MediaSpeaker } from './files.schemas.ts';

/** A speaker as stored in the summary: `enough` is derived when the resource is built (speech-sufficiency.ts). */
type SummarySpeaker = Omit<MediaSpeaker, 'enough'>;

export interface MediaSummary {
  /** The speakers as the resource shows them, without their entity links (read from `appearances`). */
  speakers: Omit<SummarySpeaker, 'entityId'>[];
  /** Whether the speakers come from an analysis (and so may be linked to entities). */
  analysed: boolean;
  hasTranscript: boolean;
  /** What the analysis says of itself (hint_not_met, speaker_count_uncertain); absent in summaries without an analysis. */
  warnings?: AnalysisWarning[];
}

export const EMPTY_SUMMARY: MediaSummary = { speakers: [], analysed: false, hasTranscript: false };

/** The summary of a media's analysis, or of its transcript when it is one on its own. */
export function summarize(kind: string, analysis: MediaAnalysis | null, transcript: Transcript | null): MediaSummary {
  if (analysis) {
    return {
      speakers: analysis.speakers.map((s) => ({ index: s.index, speechSec: s.speechSec, firstSpeechSec: s.firstSpeechSec, label: s.label })),
      analysed: true,
      hasTranscript: transcript !== null,
      warnings: analysis.warnings ?? [],
    };
  }
  const speakers = kind === 'transcript' && transcript ? transcriptSpeakers(transcript).map(({ entityId: _e, ...s }) => s) : [];
  return { speakers, analysed: false, hasTranscript: transcript !== null };
}

/** The summary of audio or video whose analysis is owed, as stored. */
export function pendingSummary(hasTranscript: boolean): string {
  return JSON.stringify({ ...EMPTY_SUMMARY, hasTranscript });
}

/** The summary of a completed analysis, as stored. */
export function analysisSummary(analysis: MediaAnalysis, hasTranscript: boolean): string {
  return JSON.stringify({ ...summarize('audio', analysis, null), hasTranscript });
}

/**
 * Speaker index of each cue: speakers numbered by first cue, as the engine numbers voices. One
 * pass (a transcript may name a new speaker in each of its 20,000 cues).
 */
export function cueSpeakers(t: Transcript): { names: (string | null)[]; index: number[] } {
  const names: (string | null)[] = [];
  const seen = new Map<string | null, number>();
  const index = t.cues.map((c) => {
    const at = seen.get(c.speaker);
    if (at !== undefined) return at;
    seen.set(c.speaker, names.length);
    names.push(c.speaker);
    return names.length - 1;
  });
  return { names, index };
}

/** A transcript's speakers: named, linked to no entity, their speech summed over their cues. */
export function transcriptSpeakers(t: Transcript): SummarySpeaker[] {
  const { names, index } = cueSpeakers(t);
  const speakers: SummarySpeaker[] = names.map((label, i) => ({ index: i, entityId: null, speechSec: 0, firstSpeechSec: -1, label }));
  t.cues.forEach((c, k) => {
    const s = speakers[index[k] as number] as SummarySpeaker;
    s.speechSec += c.end - c.start;
    if (s.firstSpeechSec < 0) s.firstSpeechSec = c.start;
  });
  for (const s of speakers) {
    s.speechSec = round3(s.speechSec);
    if (s.firstSpeechSec < 0) s.firstSpeechSec = 0;
  }
  return speakers;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
