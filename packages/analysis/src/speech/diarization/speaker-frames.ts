// The per-frame speaker features diarization models: which speech frames carry the voice, and
// their cepstra (and log F0) standardised over the recording.
import { NUM_CEPS, type FrameFeatures } from '../features.ts';
import { quantilesInPlace } from '../stats.ts';
import type { FrameRegion } from '../vad.ts';

const CEP_DIMS = NUM_CEPS - 1;

/** Speech frames that are voiced and within 30 dB of the recording's loud frames. */
export function modellingMask(f: FrameFeatures, speech: Uint8Array): Uint8Array {
  // A typed array sorted in place: for an hour, a number[] of every speech frame's level (and
  // the copy quantile() sorts) was megabytes of short-lived heap.
  let n = 0;
  for (let i = 0; i < f.frames; i++) if (speech[i]) n++;
  const levels = new Float64Array(n);
  for (let i = 0, j = 0; i < f.frames; i++) if (speech[i]) levels[j++] = f.bandDb[i]!;
  const floor = (n ? quantilesInPlace(levels, [0.95])[0]! : 0) - 30;
  const out = new Uint8Array(f.frames);
  for (let i = 0; i < f.frames; i++) if (speech[i] && f.bandDb[i]! > floor && f.pitchHz[i]! > 0) out[i] = 1;
  return out;
}

/**
 * Per-frame speaker features, standardised over the modelling frames of the recording:
 * c1..c19 (c0 is level, which says more about the microphone than the voice) and log F0.
 */
export function standardisedCepstra(f: FrameFeatures, mask: Uint8Array): Float32Array {
  const DIMS = CEP_DIMS + 1;
  const out = new Float32Array(f.frames * DIMS);
  const raw = new Float64Array(DIMS);
  const m = new Float64Array(DIMS);
  const s = new Float64Array(DIMS);
  let count = 0;
  const read = (i: number): void => {
    for (let d = 0; d < CEP_DIMS; d++) raw[d] = f.mfcc[i * NUM_CEPS + d + 1]!;
    raw[CEP_DIMS] = f.pitchHz[i]! > 0 ? Math.log2(f.pitchHz[i]!) : 0;
  };
  for (let i = 0; i < f.frames; i++) {
    if (!mask[i]) continue;
    count++;
    read(i);
    for (let d = 0; d < DIMS; d++) {
      m[d] = m[d]! + raw[d]!;
      s[d] = s[d]! + raw[d]! * raw[d]!;
    }
  }
  for (let d = 0; d < DIMS; d++) {
    m[d] = count ? m[d]! / count : 0;
    s[d] = count ? Math.sqrt(Math.max(1e-6, s[d]! / count - m[d]! ** 2)) : 1;
  }
  for (let i = 0; i < f.frames; i++) {
    if (!mask[i]) continue;
    read(i);
    for (let d = 0; d < DIMS; d++) out[i * DIMS + d] = (raw[d]! - m[d]!) / s[d]!;
  }
  return out;
}

/**
 * The modelled frames (ascending) of each group 0..k-1, where frame i belongs to group
 * `map ? map[label[i]] : label[i]` (label -1: none). Counted first so that each list is one
 * typed array of its final size: growing number[] lists of every frame of an hour, at each
 * resegmentation pass, was a large share of the young-generation churn.
 */
export function framesByLabel(label: Int16Array | Int32Array, k: number, model: Uint8Array, map?: Int32Array): Int32Array[] {
  const counts = new Int32Array(k);
  for (let i = 0; i < label.length; i++) {
    const l = label[i]!;
    if (l < 0 || !model[i]) continue;
    const g = map ? map[l]! : l;
    counts[g] = counts[g]! + 1;
  }
  const out = Array.from(counts, (c) => new Int32Array(c));
  counts.fill(0);
  for (let i = 0; i < label.length; i++) {
    const l = label[i]!;
    if (l < 0 || !model[i]) continue;
    const g = map ? map[l]! : l;
    out[g]![counts[g]!] = i;
    counts[g] = counts[g]! + 1;
  }
  return out;
}

/** Window spans over the speech regions: regions up to 1.5 windows long are one window. */
export function windowSpans(regions: FrameRegion[], win: number, hop: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const r of regions) {
    const len = r.end - r.start;
    if (len <= win * 1.5) {
      out.push({ start: r.start, end: r.end });
      continue;
    }
    const count = Math.ceil((len - win) / hop) + 1;
    const step = (len - win) / (count - 1);
    for (let c = 0; c < count; c++) {
      const s = r.start + Math.round(c * step);
      out.push({ start: s, end: s + win });
    }
  }
  return out;
}
