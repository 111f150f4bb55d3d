// The diarization as files other tools read (decisions §7): RTTM for diarization scorers, WebVTT
// and SRT for video players and editors. Pure functions of the JSON diarization, plus the
// transcript's words placed on the segments they were spoken in.
import { stripControls } from '../control-chars.ts';
import { IntervalIndex, normaliseSpeakerName, srtSpeakerName, vttVoiceName, type Transcript } from '@rapport/analysis';
import type { Diarization, DiarizationFormat } from './files.schemas.ts';

export const DIARIZATION_CONTENT_TYPES: Record<Exclude<DiarizationFormat, 'json'>, string> = {
  rttm: 'text/plain; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
};

type Segment = Diarization['segments'][number];

/** How a file names speaker `index` (decisions §17): its person's label, else "Speaker N" with N = index + 1. */
export type SpeakerNames = (index: number) => string;
export const NUMBERED: SpeakerNames = (index) => `Speaker ${index + 1}`;

/**
 * The text of each segment: every cue of the transcript goes to the one segment it overlaps most,
 * among the segments of the speaker its name was aligned to when there is one (`labels[i]` is the
 * name of speaker i), else among all. Segments without a cue get null.
 */
export function segmentTexts(segments: readonly Segment[], transcript: Transcript | null, labels: readonly (string | null)[]): (string | null)[] {
  return placeCues(segments, transcript, labels).texts;
}

/**
 * `segmentTexts`, with the number of candidate segments weighed to place the cues: the tests hold
 * that to the overlaps there are, so that a return to cues × segments (issue 41, finding 2: 2.6 s
 * for 20,000 cues on 18,642 segments) fails a test without timing one.
 */
export function placeCues(segments: readonly Segment[], transcript: Transcript | null, labels: readonly (string | null)[]): { texts: (string | null)[]; weighed: number } {
  if (!transcript) return { texts: segments.map(() => null), weighed: 0 };
  const parts: string[][] = segments.map(() => []);
  // The candidates of a cue: the segments of the speakers named as it is, else all of them, each
  // set in an interval tree that finds the segments a span overlaps without a scan. (A search by
  // start with a walk back while the latest end so far reaches the span was quadratic when one
  // segment ran long: every later cue walked back to it.)
  const all = new SegmentIndex(segments, segments.map((_, k) => k));
  const byName = new Map<string | null, SegmentIndex>();
  for (const name of new Set(labels)) {
    byName.set(name, new SegmentIndex(segments, segments.flatMap((s, k) => (labels[s.speaker] === name ? [k] : []))));
  }
  let weighed = 0;
  for (const cue of transcript.cues) {
    const text = cue.text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const index = byName.get(cue.speaker) ?? all;
    const found = index.mostOverlapped(cue.start, cue.end);
    weighed += found.weighed;
    if (found.best >= 0) parts[found.best]?.push(text);
  }
  return { texts: parts.map((p) => (p.length ? p.join(' ') : null)), weighed };
}

/** Some of the segments (by their index in the diarization) in an interval tree. */
class SegmentIndex {
  private readonly segments: readonly Segment[];
  private readonly ids: readonly number[];
  private readonly tree: IntervalIndex;

  constructor(segments: readonly Segment[], ids: readonly number[]) {
    this.segments = segments;
    this.ids = ids;
    this.tree = new IntervalIndex(ids.map((k) => segments[k] as Segment));
  }

  /**
   * The index of the segment overlapping [start, end] the most (the first in diarization order on
   * a tie), or -1; and how many segments were weighed to find it (those the span overlaps).
   */
  mostOverlapped(start: number, end: number): { best: number; weighed: number } {
    const candidates = this.tree.overlapping(start, end);
    let best = -1;
    let bestOverlap = 0;
    for (const position of candidates) {
      const id = this.ids[position] as number;
      const s = this.segments[id] as Segment;
      const overlap = Math.min(s.end, end) - Math.max(s.start, start);
      if (overlap > bestOverlap || (overlap === bestOverlap && overlap > 0 && id < best)) {
        bestOverlap = overlap;
        best = id;
      }
    }
    return { best, weighed: candidates.length };
  }
}

function fixed3(sec: number): string {
  return (Math.round(sec * 1000) / 1000).toFixed(3);
}

/** An RTTM speaker name is one field: the display name with each run of white space as `_`. */
export function rttmName(name: string): string {
  return stripControls(name.replace(/\s+/g, ' ')).trim().replace(/ +/g, '_') || '_';
}

/** RTTM (NIST): one SPEAKER line per segment; file id the media id, speaker its display name (`Speaker_1`). */
export function toRttm(d: Diarization, names: SpeakerNames = NUMBERED): string {
  return d.segments
    .map((s) => `SPEAKER ${d.mediaId} 1 ${fixed3(s.start)} ${fixed3(Math.max(0, s.end - s.start))} <NA> <NA> ${rttmName(names(s.speaker))} <NA> <NA>\n`)
    .join('');
}

/** Cue times in whole milliseconds; a segment shorter than 1 ms keeps 1 ms (cues must end after they start). */
function cueTimes(s: Segment, separator: '.' | ','): string {
  const start = Math.max(0, Math.round(s.start * 1000));
  const end = Math.max(start + 1, Math.round(s.end * 1000));
  return `${clock(start, separator)} --> ${clock(end, separator)}`;
}

function clock(ms: number, separator: '.' | ','): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/**
 * Text on one line: white space collapsed (a blank line would end the cue), control characters
 * gone (labels stored before they were refused, printed by a terminal, would be obeyed: issue 41,
 * finding 9).
 */
function oneLine(text: string): string {
  return stripControls(text.replace(/\s+/g, ' '));
}

/** A cue's text may not hold a blank line (it would end the cue) nor "-->" (it would start one). */
function cueSafe(text: string): string {
  return oneLine(text).replace(/-->/g, '->').trim();
}

function vttEscape(text: string): string {
  // Escaped before anything else, so that "-->" is written "--&gt;" and read back as it was.
  return oneLine(text).trim().replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The name a file writes for speaker `index`: the display name as a stored name is (white space
 * collapsed, no control characters), or "Speaker N" where that leaves nothing (a label of spaces).
 * The transcript parser reads each back as this very name (speaker-labels.ts in the analysis).
 */
function fileName(names: SpeakerNames, index: number): string {
  return normaliseSpeakerName(oneLine(names(index))) || NUMBERED(index);
}

/**
 * Where no transcript's words fall on a segment, its cue says who speaks as a caption's sound
 * description in square brackets, not as words: a player shows who is speaking, and the file
 * uploaded again as a transcript reads the speaker's turn with no words (transcripts.ts drops
 * bracketed descriptions), instead of a speaker saying their own name.
 */
function speakingCue(name: string): string {
  return `[${name.replace(/[[\]]/g, '')} speaking]`;
}

/** WebVTT: cues numbered from 1, `<v Name>` (the display name) and the transcript's text, else `[Name speaking]`. */
export function toWebVtt(d: Diarization, texts: readonly (string | null)[], names: SpeakerNames = NUMBERED): string {
  const cues = d.segments.map((s, k) => {
    const name = fileName(names, s.speaker);
    const text = texts[k];
    return `${k + 1}\n${cueTimes(s, '.')}\n<v ${vttVoiceName(name)}>${(text && vttEscape(text)) || vttEscape(speakingCue(name))}\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}

/**
 * SRT: entries numbered from 1, `Name: ` before the transcript's text, else `Name: [speaking]` (a
 * description, as in WebVTT). Every entry is labelled, which tells the parser the file names its
 * speakers so; the name is written as `srtSpeakerName` says, so that it reads back whole.
 */
export function toSrt(d: Diarization, texts: readonly (string | null)[], names: SpeakerNames = NUMBERED): string {
  return d.segments
    .map((s, k) => {
      const text = texts[k];
      return `${k + 1}\n${cueTimes(s, ',')}\n${srtSpeakerName(fileName(names, s.speaker))}: ${(text && cueSafe(text)) || '[speaking]'}\n`;
    })
    .join('\n');
}
