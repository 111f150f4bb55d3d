// How well a transcript's cue times fit the speech that voice activity found. A subtitle file can
// be offset from its media as a whole (cut from a longer recording, a player's delay), and cues
// written by hand are loose at their edges. The offset is estimated and removed before the cues
// guide anything; the agreement that remains decides whether cue boundaries can be taken as the
// boundaries of speech (transcript-guide.ts, cueLedTrack) or only as hints for the audio models.
import type { Transcript } from '../types.ts';

/** The largest whole-transcript offset looked for (seconds, either way). */
export const MAX_OFFSET_SEC = 3;
/** An offset is applied only when it improves the agreement by at least this (Jaccard). */
const MIN_OFFSET_GAIN = 0.02;

export interface CueTiming {
  /** Seconds to add to every cue time so that the cues fit the speech (0 when none is needed). */
  offsetSec: number;
  /**
   * Jaccard index, after the offset, of the frames some cue covers and the speech frames:
   * 1 when cues and speech coincide. On the dev set, exact cues give 0.89-0.99, cue edges moved
   * by up to ±0.3 s 0.75-0.96, and cues 0.5 s late 0.50-0.86 before the offset is removed.
   */
  agreement: number;
}

/**
 * Frames (10 ms) that some cue covers, from `pad` frames before the recording to `pad` after it
 * (index i + pad is frame i): a cue moved past either end still counts as cue time with no
 * speech, so moving long cues out of the recording never looks like a better fit.
 */
function coverage(transcript: Transcript, frames: number, pad: number): { covered: Uint8Array; total: number } {
  const covered = new Uint8Array(frames + 2 * pad);
  for (const cue of transcript.cues) {
    if (!(cue.end > cue.start)) continue;
    covered.fill(1, Math.max(0, Math.round(cue.start * 100) + pad), Math.min(covered.length, Math.round(cue.end * 100) + pad));
  }
  let total = 0;
  for (let i = 0; i < covered.length; i++) total += covered[i]!;
  return { covered, total };
}

/** Jaccard index of the cue frames moved by `lag` frames (|lag| <= pad) and the speech frames. */
function jaccard(cues: { covered: Uint8Array; total: number }, speech: Uint8Array, speechFrames: number, pad: number, lag: number): number {
  let both = 0;
  for (let i = 0; i < speech.length; i++) both += speech[i]! & cues.covered[i - lag + pad]!;
  const either = cues.total + speechFrames - both;
  return either > 0 ? both / either : 0;
}

/**
 * The whole-transcript offset that best fits the cues to the speech (searched every 0.1 s, then
 * every 10 ms around the best), and the agreement at it. Linear in the frames for each lag tried:
 * about 80 passes over a byte per frame.
 */
export function cueTiming(transcript: Transcript, speech: Uint8Array): CueTiming {
  const max = Math.round(MAX_OFFSET_SEC * 100);
  const pad = max + 10;
  const cues = coverage(transcript, speech.length, pad);
  let speechFrames = 0;
  for (let i = 0; i < speech.length; i++) speechFrames += speech[i]!;
  const fit = (lag: number): number => jaccard(cues, speech, speechFrames, pad, lag);
  const atZero = fit(0);
  let bestLag = 0;
  let best = atZero;
  for (let lag = -max; lag <= max; lag += 10) {
    const j = fit(lag);
    if (j > best) [best, bestLag] = [j, lag];
  }
  for (let lag = Math.max(-max, bestLag - 9); lag <= Math.min(max, bestLag + 9); lag++) {
    const j = fit(lag);
    if (j > best) [best, bestLag] = [j, lag];
  }
  if (best - atZero < MIN_OFFSET_GAIN) return { offsetSec: 0, agreement: atZero };
  return { offsetSec: bestLag / 100, agreement: best };
}

/** The transcript with every cue moved by `offsetSec` (cues moved before 0 start at 0). */
export function shiftTranscript(transcript: Transcript, offsetSec: number): Transcript {
  if (offsetSec === 0) return transcript;
  const at = (t: number): number => Math.max(0, Math.round((t + offsetSec) * 1000) / 1000);
  return { ...transcript, cues: transcript.cues.map((c) => ({ ...c, start: at(c.start), end: at(c.end) })) };
}
