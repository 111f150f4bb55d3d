// Speech regions. The engine's detector is Silero VAD (silero-vad.ts): `speechFromProbabilities`
// turns its probabilities into regions the way Silero's own get_speech_timestamps does (enter at
// the threshold, leave below it minus 0.15, bridge short silences, drop short bursts, pad the
// edges) and keeps one check of the model-free detector that the network does not make: a region
// that is a steady pure tone (a beep, a dial tone) is not speech.
//
// The model-free detector (`detectSpeech`: an adaptive level threshold on the speech band, 250-4000
// Hz, with hysteresis, gap bridging and minimum durations, then a voicing and tone check) is kept
// for the trainers' simulated sessions (training/sessions.ts), whose models were trained on it, and
// for the comparison in eval/vad-compare.ts; its level thresholds (`speechThresholds`) still say
// where a pause is quiet enough to hold a change of speaker (turn-gaps.ts).
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
  for (let i = r.start; i < r.end; i++) if (f.pitchHz[i]! > 0) st.push(hzToSemitones(f.pitchHz[i]!));
  const len = r.end - r.start;
  if (st.length < Math.max(3, 0.1 * len)) return false;
  return !isSteadyTone(f, r, st);
}

/** A steady tone: F0 spread (p90 - p10) under 0.6 semitone with median periodicity over 0.95. */
function isSteadyTone(f: FrameFeatures, r: FrameRegion, semitones: number[]): boolean {
  if (semitones.length < 3) return false;
  const per: number[] = [];
  for (let i = r.start; i < r.end; i++) per.push(f.periodicity[i]!);
  const spread = quantile(semitones, 0.9)! - quantile(semitones, 0.1)!;
  return spread < 0.6 && quantile(per, 0.5)! > 0.95;
}

export interface SpeechProbabilityOptions {
  /** Enter speech at this probability (Silero's default 0.5; the engine's 0.2 was chosen on the folds). */
  threshold?: number;
  /** Leave speech below threshold minus this. */
  hysteresis?: number;
  /** Silences shorter than this stay inside the region. */
  minSilenceSec?: number;
  /** Regions shorter than this are dropped. */
  minSpeechSec?: number;
  /** Each region is widened by this on both sides (within the recording, not into the next region). */
  padSec?: number;
  /**
   * A frame's probability is the larger of the detector's and this times the share of the
   * segmentation windows that hear someone there (combinedSpeechProbability); 0: the detector alone.
   */
  segmentationWeight?: number;
}

/**
 * Silero's own defaults, but the threshold: 0.2 had the fewest missed plus false-alarm points at
 * collar 0.25 s on each of the three speaker-disjoint folds (3.3 / 4.1 / 4.7 against 6.5 / 7.4 /
 * 11.1 at Silero's 0.5; eval/vad-compare.ts, docs/analysis-speech.md "Voice activity"). Below it
 * the hysteresis leaves speech at 0.05 or less, so silences stop ending regions.
 */
export const SPEECH_PROBABILITY_DEFAULTS: Required<SpeechProbabilityOptions> = { threshold: 0.2, hysteresis: 0.15, minSilenceSec: 0.1, minSpeechSec: 0.25, padSec: 0.03, segmentationWeight: 0 };

/**
 * Speech regions from per-frame speech probabilities (silero-vad.ts's frameProbabilities), less
 * the regions that are steady tones.
 */
export function speechFromProbabilities(prob: Float32Array, f: FrameFeatures, options: SpeechProbabilityOptions = {}): FrameRegion[] {
  const o = { ...SPEECH_PROBABILITY_DEFAULTS, ...options };
  const n = Math.min(prob.length, f.frames);
  const leave = Math.max(0.01, o.threshold - o.hysteresis);
  const minSilence = Math.round(o.minSilenceSec * 100);
  const minSpeech = Math.round(o.minSpeechSec * 100);
  const pad = Math.round(o.padSec * 100);
  const raw: FrameRegion[] = [];
  let start = -1;
  let below = 0;
  for (let i = 0; i < n; i++) {
    const p = prob[i]!;
    if (start < 0) {
      if (p >= o.threshold) {
        start = i;
        below = 0;
      }
      continue;
    }
    if (p < leave) {
      below++;
      if (below >= minSilence) {
        raw.push({ start, end: i - below + 1 });
        start = -1;
      }
    } else below = 0;
  }
  if (start >= 0) raw.push({ start, end: n - below });
  const kept = raw.filter((r) => r.end - r.start >= minSpeech);
  const out: FrameRegion[] = [];
  for (const r of kept) {
    const a = Math.max(0, r.start - pad, out[out.length - 1]?.end ?? 0);
    const b = Math.min(n, r.end + pad);
    const last = out[out.length - 1];
    if (last && a <= last.end) last.end = b;
    else out.push({ start: a, end: b });
  }
  return out.filter((r) => {
    const st: number[] = [];
    for (let i = r.start; i < r.end; i++) if (f.pitchHz[i]! > 0) st.push(hzToSemitones(f.pitchHz[i]!));
    return !isSteadyTone(f, r, st);
  });
}

/** The speech probability of each frame: the detector's, or the segmentation's `weight` times `heard` where that is more. */
export function combinedSpeechProbability(detector: Float32Array, heard: Float32Array | null, weight: number): Float32Array {
  if (!heard || weight <= 0) return detector;
  return detector.map((p, i) => Math.max(p, weight * (heard[i] ?? 0)));
}

/** Frame mask (1 = speech) from regions. */
export function regionsToMask(regions: FrameRegion[], frames: number): Uint8Array {
  const mask = new Uint8Array(frames);
  for (const r of regions) mask.fill(1, r.start, Math.min(frames, r.end));
  return mask;
}
