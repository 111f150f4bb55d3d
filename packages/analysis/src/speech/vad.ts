// Model-free voice activity detection on the frame features: an adaptive level threshold on the
// speech band (250-4000 Hz) with hysteresis, gap bridging and minimum durations, then a check
// that each region is speech-like (some voicing, and not a steady pure tone such as a beep).
// The thresholds follow the dev set's own trimming rule (speech is within ~25-30 dB of the loud
// frames and clearly above the noise floor); see docs/analysis-speech.md for the comparison
// with a Silero model.
import type { FrameFeatures } from './features.ts';
import { hzToSemitones } from './pitch.ts';
import { quantile } from './stats.ts';

export interface FrameRegion {
  start: number; // first frame
  end: number; // one past the last frame
}

export interface VadOptions {
  /** dB below the loud (95th percentile) frames that still counts as speech. */
  belowLoudDb?: number;
  /** dB above the noise floor (3rd percentile) required to enter speech. */
  aboveFloorDb?: number;
  bridgeGapSec?: number;
  minSpeechSec?: number;
}

const ABSOLUTE_FLOOR_DB = -68;

/**
 * The speech-band levels that enter and keep speech (hysteresis), from the recording's loud
 * frames and noise floor. A frame below `stay` is silence, also inside a bridged region.
 */
export function speechThresholds(f: FrameFeatures, options: VadOptions = {}): { enter: number; stay: number; steadyNoise: boolean } {
  const belowLoud = options.belowLoudDb ?? 30;
  const aboveFloor = options.aboveFloorDb ?? 9;
  const floor = quantile(f.bandDb, 0.03) ?? ABSOLUTE_FLOOR_DB;
  const loud = quantile(f.bandDb, 0.95) ?? ABSOLUTE_FLOOR_DB;
  const enter = Math.max(loud - belowLoud, floor + aboveFloor, ABSOLUTE_FLOOR_DB);
  const stay = Math.max(enter - 4, floor + aboveFloor - 3, ABSOLUTE_FLOOR_DB);
  // If even the loud frames do not clear the floor, there is nothing but steady noise.
  return { enter, stay, steadyNoise: loud < floor + aboveFloor };
}

/** `thresholds`: the recording's, when the caller has them already (two quantiles of every frame). */
export function detectSpeech(f: FrameFeatures, options: VadOptions = {}, thresholds = speechThresholds(f, options)): FrameRegion[] {
  const bridge = Math.round((options.bridgeGapSec ?? 0.3) * 100);
  const minLen = Math.round((options.minSpeechSec ?? 0.12) * 100);
  const n = f.frames;
  if (n === 0) return [];
  const { enter, stay, steadyNoise } = thresholds;
  if (steadyNoise) return [];

  const regions: FrameRegion[] = [];
  let i = 0;
  while (i < n) {
    if (f.bandDb[i]! < enter) {
      i++;
      continue;
    }
    // Extend backwards and forwards with the lower (hysteresis) threshold.
    let s = i;
    while (s > 0 && f.bandDb[s - 1]! >= stay) s--;
    let e = i + 1;
    while (e < n && f.bandDb[e]! >= stay) e++;
    const last = regions[regions.length - 1];
    if (last && s - last.end <= bridge) last.end = e;
    else regions.push({ start: Math.max(s, last?.end ?? 0), end: e });
    i = e;
  }
  return regions.filter((r) => r.end - r.start >= minLen && isSpeechLike(f, r));
}

/** Rejects regions with almost no voicing and steady tones (constant pitch, near-perfect periodicity). */
function isSpeechLike(f: FrameFeatures, r: FrameRegion): boolean {
  const st: number[] = [];
  const per: number[] = [];
  for (let i = r.start; i < r.end; i++) {
    per.push(f.periodicity[i]!);
    if (f.pitchHz[i]! > 0) st.push(hzToSemitones(f.pitchHz[i]!));
  }
  const len = r.end - r.start;
  if (st.length < Math.max(3, 0.1 * len)) return false;
  const spread = quantile(st, 0.9)! - quantile(st, 0.1)!;
  const medianPeriodicity = quantile(per, 0.5)!;
  return !(spread < 0.6 && medianPeriodicity > 0.95);
}

/** Frame mask (1 = speech) from regions. */
export function regionsToMask(regions: FrameRegion[], frames: number): Uint8Array {
  const mask = new Uint8Array(frames);
  for (const r of regions) mask.fill(1, r.start, Math.min(frames, r.end));
  return mask;
}
