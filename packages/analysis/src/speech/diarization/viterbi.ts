// Frame-level decoding of who speaks: Viterbi over precomputed per-frame, per-speaker scores,
// with a fixed cost per change of speaker (it stands for the minimum plausible turn length).
import type { FrameRegion } from '../vad.ts';

/**
 * Fills `frameSpeaker` inside each region; `emission` is frame-major with k scores per frame. A
 * change of speaker costs `penalty`, or `pause.penalty` at frames where `pause.frames` is set.
 */
export function viterbiEmissions(emission: Float32Array, k: number, regions: FrameRegion[], penalty: number, frameSpeaker: Int16Array, pause?: { frames: Uint8Array; penalty: number }): void {
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
      const move = score[bestPrev]! - (pause && pause.frames[r.start + t] ? pause.penalty : penalty);
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

/**
 * Z-norm of each speaker's frame scores (in place) by their mean and spread over the frames the
 * current labels give to the other speakers: a model adapted on much speech scores every frame
 * higher than one adapted on little, and this puts the speakers' scores on one scale before the
 * Viterbi compares them (score normalisation as in speaker verification's Z-norm).
 */
export function normaliseByImpostors(emission: Float32Array, k: number, model: Uint8Array, frameSpeaker: Int16Array): void {
  const sum = new Float64Array(k);
  const sumSq = new Float64Array(k);
  const n = new Float64Array(k);
  for (let i = 0; i < model.length; i++) {
    const own = frameSpeaker[i]!;
    if (!model[i] || own < 0) continue;
    for (let s = 0; s < k; s++) {
      if (s === own) continue;
      const v = emission[i * k + s]!;
      sum[s] = sum[s]! + v;
      sumSq[s] = sumSq[s]! + v * v;
      n[s] = n[s]! + 1;
    }
  }
  const mean = Array.from(sum, (v, s) => v / Math.max(1, n[s]!));
  const inv = Array.from(sumSq, (v, s) => 1 / Math.sqrt(Math.max(1e-6, v / Math.max(1, n[s]!) - mean[s]! ** 2)));
  for (let i = 0; i < model.length; i++) {
    if (!model[i]) continue;
    for (let s = 0; s < k; s++) emission[i * k + s] = (emission[i * k + s]! - mean[s]!) * inv[s]!;
  }
}
