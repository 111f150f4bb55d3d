// How well a transcript's cue times fit the speech that voice activity found. A subtitle file can
// be offset from its media as a whole (cut from a longer recording, a player's delay), and cues
// written by hand are loose at their edges. The offset is estimated and removed before the cues
// guide anything; the agreement that remains decides whether cue boundaries can be taken as the
// boundaries of speech (transcript-guide.ts, cueLedTrack) or only as hints for the audio models,
// and the distance of the cue edges from where speech starts and stops decides whether the cues
// can time overlapped speech (interruptions, backchannels, overlap) at all.
import type { Transcript } from '../types.ts';

/**
 * Above this edge error (seconds, `cueEdgeError`) a transcript's overlapping cues are not taken
 * as overlapped speech. On the dev set, with every cue edge moved by a random amount up to ±J,
 * the edge error is 0.01-0.03 s for exact cues, 0.11-0.13 s at J = 0.15 s, 0.14-0.17 s at 0.2 s,
 * 0.21-0.25 s at 0.3 s and 0.33-0.43 s at 0.6 s; of the interruptions the cues then give, 38 of
 * 39 are true at 0.15 s, 36 of 42 at 0.2 s, 24 of 38 at 0.3 s and 13 of 54 at 0.6 s.
 */
export const CUE_EDGE_MAX_SEC = 0.19;

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

/** Frames where speech starts after a silence and where a silence starts, each in increasing order. */
export interface SpeechEdges {
  onsets: readonly number[];
  offsets: readonly number[];
}

/** Distance (frames) from `frame` to the nearest of the sorted `edges`; Infinity when there are none. */
function nearestEdge(edges: readonly number[], frame: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edges[mid]! < frame) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo < edges.length ? edges[lo]! - frame : Infinity, lo > 0 ? frame - edges[lo - 1]! : Infinity);
}

/**
 * How loose the cue edges are: the 75th percentile, over every cue start and end, of the distance
 * (seconds) to the nearest place where speech starts (for a start) or stops (for an end). Null
 * without cues, or when over a quarter of the edges have no such place to measure against. Exact
 * cues sit on those places (about 0.02 s); edges moved by up to ±0.3 s lie about 0.2 s off.
 */
export function cueEdgeError(transcript: Transcript, edges: SpeechEdges): number | null {
  const distances: number[] = [];
  for (const cue of transcript.cues) {
    if (!(cue.end > cue.start)) continue;
    distances.push(nearestEdge(edges.onsets, cue.start * 100), nearestEdge(edges.offsets, cue.end * 100));
  }
  // An edge with nothing to measure against counts as far off.
  const sorted = distances.sort((a, b) => a - b);
  const p75 = sorted[Math.floor(0.75 * (sorted.length - 1))];
  return p75 === undefined || !Number.isFinite(p75) ? null : Math.round(p75) / 100;
}

/** Whether a guiding transcript's overlapping cues can be counted as overlapped speech, and why. */
export interface OverlapCounting {
  counted: boolean;
  /** For the method statement: what was checked and what it found. */
  statement: string;
}

/**
 * Overlapping cues are counted (interruptions, backchannels, overlapped time) only when the
 * transcript shows two names speaking at once somewhere (`overlaps`: such stretches of at least
 * MIN_OVERLAP_SEC; captions and most speaker-labelled transcripts never overlap their cues, and
 * their zero would be a claim about the format, not the conversation), and when its cue edges
 * sit on the speech (`edgeErrorSec` at most CUE_EDGE_MAX_SEC).
 */
export function overlapCounting(overlaps: number, edgeErrorSec: number | null): OverlapCounting {
  if (overlaps === 0)
    return { counted: false, statement: 'no two cues overlap, so the transcript cannot show overlapped speech: interruptions, backchannels and overlapped time are not measured' };
  const edges = edgeErrorSec === null ? 'could not be checked against the pauses' : `lie ${edgeErrorSec.toFixed(2)} s from where speech starts and stops (75th percentile)`;
  if (edgeErrorSec === null || edgeErrorSec > CUE_EDGE_MAX_SEC)
    return { counted: false, statement: `overlapping cues give both speakers their speech, but the cue edges ${edges}, too loose (over ${CUE_EDGE_MAX_SEC} s) to count interruptions, backchannels and overlapped time` };
  return { counted: true, statement: `overlapping cues are overlapped speech (cue edges ${edges})` };
}
