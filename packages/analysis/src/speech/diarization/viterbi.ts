// Frame-level decoding of who speaks: Viterbi over precomputed per-frame, per-speaker scores,
// with a fixed cost per change of speaker (it stands for the minimum plausible turn length).
import type { FrameRegion } from '../vad.ts';

/** Fills `frameSpeaker` inside each region; `emission` is frame-major with k scores per frame. A change of speaker costs `penalty`. */
export function viterbiEmissions(emission: Float32Array, k: number, regions: FrameRegion[], penalty: number, frameSpeaker: Int16Array): void {
  // One back-pointer buffer for all regions (sized by the longest), not one per region: an hour
  // holds thousands of regions, and each pass over them allocated megabytes.
  let longest = 0;
  for (const r of regions) longest = Math.max(longest, r.end - r.start);
  const back = new Int16Array(longest * k);
  let score = new Float64Array(k);
  let next = new Float64Array(k);
  for (const r of regions) {
    const len = r.end - r.start;
    for (let s = 0; s < k; s++) score[s] = emission[r.start * k + s]!;
    for (let t = 1; t < len; t++) {
      let bestPrev = 0;
      for (let s = 1; s < k; s++) if (score[s]! > score[bestPrev]!) bestPrev = s;
      const move = score[bestPrev]! - penalty;
      for (let s = 0; s < k; s++) {
        const stay = score[s]!;
        back[t * k + s] = stay >= move ? s : bestPrev;
        next[s] = Math.max(stay, move) + emission[(r.start + t) * k + s]!;
      }
      const swap = score;
      score = next;
      next = swap;
    }
    let s = 0;
    for (let x = 1; x < k; x++) if (score[x]! > score[s]!) s = x;
    for (let t = len - 1; t >= 0; t--) {
      frameSpeaker[r.start + t] = s;
      s = back[t * k + s]!;
    }
  }
}

/**
 * Keeps and reorders, in place, the emission columns of the speakers that survived a
 * renumbering: frame-major rows of stride k become rows of stride order.size. Each row is read
 * into a scratch row first; rows only move towards the start, so no unread row is overwritten.
 */
export function compactColumns(emission: Float32Array, frames: number, k: number, order: Map<number, number>): void {
  const after = order.size;
  const row = new Float32Array(k);
  const pairs = [...order];
  for (let i = 0; i < frames; i++) {
    for (let s = 0; s < k; s++) row[s] = emission[i * k + s]!;
    for (const [old, now] of pairs) emission[i * after + now] = row[old]!;
  }
}
