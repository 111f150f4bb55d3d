// A transcript with timed, named cues says who speaks when, and a person who wrote or checked
// it knows the voices better than any clustering without a trained model can. When such a
// transcript covers most of the detected speech, its cues become the speaker track that
// diarization trains its speaker models on (speech/diarize.ts, `guide`); otherwise the
// transcript only labels the speakers that clustering found (align.ts).
import type { Transcript } from '../types.ts';
import { nameKey } from './align.ts';

/** Share of the detected speech that named cues must cover for the transcript to guide diarization. */
export const GUIDE_MIN_COVERAGE = 0.5;

export interface TranscriptGuide {
  /** Per frame (10 ms): index into `names` of the one named cue covering it, -1 for none or several. */
  track: Int16Array;
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
  const track = new Int16Array(frames).fill(-1);
  const names: string[] = [];
  const index = new Map<string, number>();
  const covered = new Uint8Array(frames);
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
      // Two names over one frame (overlap, or cues that disagree): the frame guides no one.
      track[i] = covered[i] && track[i] !== n ? -2 : n;
      covered[i] = 1;
    }
  }
  if (names.length === 0) return null;
  let speechFrames = 0;
  let coveredSpeech = 0;
  for (let i = 0; i < frames; i++) {
    if (track[i] === -2) track[i] = -1;
    if (!speech[i]) continue;
    speechFrames++;
    coveredSpeech += covered[i]!;
  }
  const coverage = speechFrames > 0 ? coveredSpeech / speechFrames : 0;
  return coverage >= GUIDE_MIN_COVERAGE ? { track, names, coverage } : null;
}
