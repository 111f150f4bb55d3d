// A transcript with timed, named cues says who speaks when, and a person who wrote or checked
// it knows the voices better than any clustering without a trained model can. When such a
// transcript covers most of the detected speech, its cues become the speaker track that
// diarization trains its speaker models on (speech/diarize.ts, `guide`); otherwise the
// transcript only labels the speakers that clustering found (align.ts).
import type { SpeechSegment, Transcript } from '../types.ts';
import { nameKey } from './align.ts';
import { TOUCH_SEC } from '../speech/turns.ts';

/** Share of the detected speech that named cues must cover for the transcript to guide diarization. */
export const GUIDE_MIN_COVERAGE = 0.5;

/** A stretch of speech where the cues of two names overlap: both are talking. */
export interface GuideOverlap {
  start: number; // first frame
  end: number; // one past the last frame
  names: [number, number];
}

/** Overlapping cues shorter than this say more about loose cue times than about overlapped speech. */
export const MIN_OVERLAP_SEC = 0.3;

export interface TranscriptGuide {
  /** Per frame (10 ms): index into `names` of the one named cue covering it, -1 for none or several. */
  track: Int16Array;
  /** Speech covered by the cues of exactly two names for at least MIN_OVERLAP_SEC. */
  overlaps: GuideOverlap[];
  /** Display names, first spelling seen, in order of first cue. */
  names: string[];
  /** Share of the speech frames covered by some named cue. */
  coverage: number;
}

/**
 * The guide for a recording, or null when the transcript has no named timed cues or covers less
 * than GUIDE_MIN_COVERAGE of the speech (a partial or misaligned transcript must not decide who
 * speaks).
 */
export function transcriptGuide(transcript: Transcript, speech: Uint8Array): TranscriptGuide | null {
  const frames = speech.length;
  // The first and second name covering each frame (-1: none; second -2: three or more names).
  const first = new Int16Array(frames).fill(-1);
  const second = new Int16Array(frames).fill(-1);
  const names: string[] = [];
  const index = new Map<string, number>();
  for (const cue of transcript.cues) {
    if (cue.speaker === null || !(cue.end > cue.start)) continue;
    const key = nameKey(cue.speaker);
    if (key === '') continue;
    let n = index.get(key);
    if (n === undefined) {
      n = names.length;
      index.set(key, n);
      names.push(cue.speaker);
    }
    const a = Math.max(0, Math.round(cue.start * 100));
    const b = Math.min(frames, Math.round(cue.end * 100));
    for (let i = a; i < b; i++) {
      if (first[i] === -1 || first[i] === n) first[i] = n;
      else if (second[i] === -1 || second[i] === n) second[i] = n;
      else second[i] = -2;
    }
  }
  if (names.length === 0) return null;
  // Two names over one frame (overlap, or cues that disagree): the frame guides no one.
  const track = new Int16Array(frames);
  const overlaps: GuideOverlap[] = [];
  const minOverlap = Math.round(MIN_OVERLAP_SEC * 100);
  let speechFrames = 0;
  let coveredSpeech = 0;
  let runStart = -1;
  const closeRun = (end: number): void => {
    if (runStart >= 0 && end - runStart >= minOverlap) overlaps.push({ start: runStart, end, names: [first[runStart]!, second[runStart]!] });
    runStart = -1;
  };
  for (let i = 0; i < frames; i++) {
    track[i] = second[i] === -1 ? first[i]! : -1;
    const two = speech[i] === 1 && first[i]! >= 0 && second[i]! >= 0;
    if (runStart >= 0 && (!two || first[i] !== first[runStart] || second[i] !== second[runStart])) closeRun(i);
    if (two && runStart < 0) runStart = i;
    if (!speech[i]) continue;
    speechFrames++;
    if (first[i]! >= 0) coveredSpeech++;
  }
  closeRun(frames);
  const coverage = speechFrames > 0 ? coveredSpeech / speechFrames : 0;
  return coverage >= GUIDE_MIN_COVERAGE ? { track, overlaps, names, coverage } : null;
}

/**
 * The diarized segments plus, where the transcript shows two named speakers talking at once over
 * speech, a segment for the one the single-speaker track left out (`labels[s]` = the transcript
 * name of speaker s). Sorted by start.
 */
export function withGuideOverlaps(segments: SpeechSegment[], guide: TranscriptGuide, labels: (string | null)[], frameSpeaker: Int16Array): SpeechSegment[] {
  const speakerOf = new Map<string, number>();
  labels.forEach((label, s) => {
    if (label !== null) speakerOf.set(nameKey(label), s);
  });
  const extra: SpeechSegment[] = [];
  for (const o of guide.overlaps) {
    const a = speakerOf.get(nameKey(guide.names[o.names[0]]!));
    const b = speakerOf.get(nameKey(guide.names[o.names[1]]!));
    if (a === undefined || b === undefined) continue;
    let runStart = -1;
    let runSpeaker = -1;
    for (let i = o.start; i <= o.end; i++) {
      const on = i < o.end ? frameSpeaker[i] : -1;
      const missing = on === a ? b : on === b ? a : -1;
      if (runStart >= 0 && missing !== runSpeaker) {
        extra.push({ speaker: runSpeaker, start: round3(runStart / 100), end: round3(i / 100) });
        runStart = -1;
      }
      if (missing >= 0 && runStart < 0) {
        runStart = i;
        runSpeaker = missing;
      }
    }
  }
  return extra.length === 0 ? segments : unionPerSpeaker([...segments, ...extra]);
}

/**
 * One segment per stretch of a speaker's speech: an overlap piece joins the speaker's own segment
 * that it touches, so that an interruption starts where the interrupter's voice starts and is not
 * taken for a short utterance inside the other's speech.
 */
function unionPerSpeaker(segments: SpeechSegment[]): SpeechSegment[] {
  const sorted = [...segments].sort((x, y) => x.speaker - y.speaker || x.start - y.start);
  const out: SpeechSegment[] = [];
  for (const seg of sorted) {
    const last = out[out.length - 1];
    if (last && last.speaker === seg.speaker && seg.start <= last.end + TOUCH_SEC) last.end = Math.max(last.end, seg.end);
    else out.push({ ...seg });
  }
  return out.sort((x, y) => x.start - y.start || x.speaker - y.speaker);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
