// From the windows' local speakers, once each is a speaker of the recording, back to one track of
// the whole recording (pyannote's reconstruction): in every 10 ms frame, each speaker's score is
// the mean over the windows that cover the frame of its local speaker's activity there, and how
// many speak is read off the mean over those windows of how many local speakers the network
// expects (the sum of their probabilities, not the count of its most likely class: a window
// unsure whether a second voice speaks counts as unsure). That many speakers, the best scored,
// speak in the frame (at most two: the network's classes hold no more). So a frame where the
// segmentation hears two voices gives both.
//
// Only the speech detector's frames are speech; a speech frame where the windows hear nobody is
// given the best scored speaker if there is one, else the nearest speaker of its region.
import type { LocalSegmentation } from '../segmentation/local-segmentation.ts';
import type { WindowFrames } from './local-speakers.ts';
import type { FrameRegion } from '../vad.ts';

export interface FrameTracks {
  /** The best scored speaker of every frame, -1 for none. */
  first: Int16Array;
  /** A second speaker where two speak at once, -1 elsewhere. */
  second: Int16Array;
}

/** Share of the windows' activity a speaker needs to be given a speech frame where nobody was heard. */
const MIN_FILL_ACTIVITY = 0.05;

/**
 * `speakerOf[w * seg.speakers + local]`: the recording's speaker of each window's local speaker
 * (-1: none).
 */
export interface OverlapRule {
  /** At most this many speakers in one frame (2: overlap given to both; 1: one speaker per frame). */
  maxPerFrame: number;
  /** Two speak where the windows expect at least this many speakers on average (the sum of the local speakers' probabilities; pyannote rounds the count of its most likely class: 1.5). */
  minHeard: number;
}

export function reconstruct(seg: LocalSegmentation, windows: WindowFrames[], speakerOf: Int16Array, k: number, frames: number, regions: FrameRegion[], speech: Uint8Array, rule: OverlapRule): FrameTracks {
  const score = new Float32Array(frames * k);
  const heard = new Float32Array(frames);
  const cover = new Uint16Array(frames);
  const L = seg.speakers;
  windows.forEach((wf, w) => {
    const activity = seg.activity[w]!;
    for (let i = wf.start; i < wf.end; i++) {
      const t = wf.outputFrame[i - wf.start]!;
      cover[i] = cover[i]! + 1;
      for (let s = 0; s < L; s++) {
        const p = activity[t * L + s]!;
        heard[i] = heard[i]! + p;
        const c = speakerOf[w * L + s]!;
        if (c >= 0) score[i * k + c] = score[i * k + c]! + p;
      }
    }
  });
  const first = new Int16Array(frames).fill(-1);
  const second = new Int16Array(frames).fill(-1);
  for (let i = 0; i < frames; i++) {
    if (!speech[i] || cover[i] === 0) continue;
    const mean = heard[i]! / cover[i]!;
    const count = mean >= rule.minHeard && rule.maxPerFrame >= 2 ? 2 : Math.min(1, Math.round(mean));
    let b1 = -1;
    let b2 = -1;
    for (let c = 0; c < k; c++) {
      const v = score[i * k + c]!;
      if (v <= 0) continue;
      if (b1 < 0 || v > score[i * k + b1]!) {
        b2 = b1;
        b1 = c;
      } else if (b2 < 0 || v > score[i * k + b2]!) b2 = c;
    }
    if (b1 < 0) continue;
    if (count >= 1 || score[i * k + b1]! >= MIN_FILL_ACTIVITY * cover[i]!) first[i] = b1;
    if (count >= 2 && b2 >= 0) second[i] = b2;
  }
  fillFromNeighbours(first, regions);
  return { first, second };
}

/** Speech frames left without a speaker take the nearest labelled frame's speaker in their region. */
function fillFromNeighbours(track: Int16Array, regions: FrameRegion[]): void {
  for (const r of regions) {
    let last = -1;
    let gapStart = -1;
    for (let i = r.start; i < r.end; i++) {
      if (track[i]! < 0) {
        if (gapStart < 0) gapStart = i;
        continue;
      }
      if (gapStart >= 0) {
        // A gap between two speakers is split at its middle; one at the region's start takes the next.
        const mid = last < 0 ? i : (gapStart + i) >> 1;
        for (let j = gapStart; j < i; j++) track[j] = j < mid ? last : track[i]!;
        gapStart = -1;
      }
      last = track[i]!;
    }
    if (gapStart >= 0 && last >= 0) track.fill(last, gapStart, r.end);
  }
}
