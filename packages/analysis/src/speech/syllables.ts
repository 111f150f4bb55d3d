// Syllable nuclei after de Jong & Wempe (2009): peaks of the intensity contour that rise above
// (0.99 quantile - 25 dB), are separated from the next peak by a dip of more than 2 dB, and are
// voiced. Counted over the whole recording, then attributed to whoever speaks at each peak.
import type { FrameFeatures } from './features.ts';
import { quantile } from './stats.ts';

const BELOW_TOP_DB = 25;
const MIN_DIP_DB = 2;

/** Frame indices of syllable nuclei among the frames where `mask` is set. */
export function syllableNuclei(f: FrameFeatures, mask: Uint8Array): number[] {
  const n = f.frames;
  // Light smoothing (3 frames) stands in for Praat's longer intensity window.
  const level = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const a = f.energyDb[Math.max(0, i - 1)]!;
    const b = f.energyDb[i]!;
    const c = f.energyDb[Math.min(n - 1, i + 1)]!;
    level[i] = (a + b + c) / 3;
  }
  const speechLevels: number[] = [];
  for (let i = 0; i < n; i++) if (mask[i]) speechLevels.push(level[i]!);
  const top = quantile(speechLevels, 0.99);
  if (top === null) return [];
  const threshold = top - BELOW_TOP_DB;
  const peaks: number[] = [];
  for (let i = 1; i < n - 1; i++) {
    if (!mask[i] || level[i]! < threshold) continue;
    if (level[i]! > level[i - 1]! && level[i]! >= level[i + 1]!) peaks.push(i);
  }
  // Keep a peak when the contour dips more than 2 dB below it before the next kept candidate;
  // of two peaks without such a dip, the higher survives.
  const kept: number[] = [];
  for (const p of peaks) {
    const last = kept[kept.length - 1];
    if (last === undefined) {
      kept.push(p);
      continue;
    }
    let dip = Infinity;
    for (let i = last; i <= p; i++) dip = Math.min(dip, level[i]!);
    const separated = level[last]! - dip > MIN_DIP_DB && level[p]! - dip > MIN_DIP_DB;
    if (separated || !mask.subarray(last, p + 1).every((m) => m === 1)) kept.push(p);
    else if (level[p]! > level[last]!) kept[kept.length - 1] = p;
  }
  return kept.filter((p) => f.pitchHz[p]! > 0 || f.pitchHz[p - 1]! > 0 || f.pitchHz[p + 1]! > 0);
}
