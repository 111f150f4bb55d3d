// YIN pitch (de Cheveigné & Kawahara 2002) computed from an FFT autocorrelation, so that one
// frame costs O(N log N) instead of O(N * maxLag). The difference function over the shrinking
// overlap is d(t) = E[0, W-t) + E[t, W) - 2 r(t), with the energies from prefix sums.

export const PITCH_MIN_HZ = 60;
export const PITCH_MAX_HZ = 500;
const YIN_THRESHOLD = 0.2;

export interface PitchEstimate {
  hz: number; // 0 when unvoiced
  /** 1 - the cumulative-mean-normalised difference at the chosen lag: 1 is perfectly periodic. */
  periodicity: number;
}

/**
 * `frame` is the raw (unwindowed) frame, `autocorr[t]` its autocorrelation at lag t (t < W).
 * `prefix` is scratch space of length W + 1.
 */
export function yinFromAutocorr(frame: Float32Array, autocorr: Float64Array, sampleRate: number, prefix: Float64Array): PitchEstimate {
  const w = frame.length;
  prefix[0] = 0;
  for (let i = 0; i < w; i++) prefix[i + 1] = prefix[i]! + frame[i]! * frame[i]!;
  const total = prefix[w]!;
  if (total <= 1e-9) return { hz: 0, periodicity: 0 };
  const minLag = Math.floor(sampleRate / PITCH_MAX_HZ);
  const maxLag = Math.min(Math.ceil(sampleRate / PITCH_MIN_HZ), Math.floor(w * 0.6));
  let running = 0;
  let best = -1;
  let bestVal = Infinity;
  const d = (t: number): number => prefix[w - t]! + (total - prefix[t]!) - 2 * autocorr[t]!;
  const cmnd = new Float64Array(maxLag + 2);
  cmnd[0] = 1;
  for (let t = 1; t <= maxLag + 1; t++) {
    const dt = d(t);
    running += dt;
    cmnd[t] = running > 0 ? (dt * t) / running : 1;
  }
  for (let t = minLag; t <= maxLag; t++) {
    const v = cmnd[t]!;
    if (v < YIN_THRESHOLD) {
      // Descend to the local minimum after the first dip below the threshold.
      let tt = t;
      while (tt + 1 <= maxLag && cmnd[tt + 1]! < cmnd[tt]!) tt++;
      best = tt;
      bestVal = cmnd[tt]!;
      break;
    }
    if (v < bestVal) {
      bestVal = v;
      best = t;
    }
  }
  if (best < 0) return { hz: 0, periodicity: 0 };
  const periodicity = Math.max(0, 1 - bestVal);
  if (bestVal >= YIN_THRESHOLD * 1.75) return { hz: 0, periodicity };
  // Parabolic interpolation around the minimum for sub-sample lag precision.
  const a = cmnd[best - 1] ?? bestVal;
  const c = cmnd[best + 1] ?? bestVal;
  const denom = a - 2 * bestVal + c;
  const shift = denom > 0 ? (0.5 * (a - c)) / denom : 0;
  const lag = best + Math.max(-0.5, Math.min(0.5, shift));
  return { hz: sampleRate / lag, periodicity };
}

/** Hz to semitones re 27.5 Hz (eGeMAPS' reference). */
export function hzToSemitones(hz: number): number {
  return 12 * Math.log2(hz / 27.5);
}

/** A speaker's F0 in semitones as a Gaussian (diarization's pitch stream). */
export interface PitchGaussian {
  mean: number;
  sd: number;
}

/** The deviation is floored: a few frames, or one held note, are not a voice's whole range. */
const PITCH_SD_FLOOR_ST = 1.5;

/** Sums of F0 in semitones over voiced frames. */
export interface PitchSums {
  sum: number;
  sumSq: number;
  voiced: number;
}

/** Sums over the voiced frames among `frames` (`semitones` is NaN where a frame is unvoiced). */
export function pitchSums(semitones: Float64Array, frames: ArrayLike<number>): PitchSums {
  let sum = 0;
  let sumSq = 0;
  let voiced = 0;
  for (let j = 0; j < frames.length; j++) {
    const st = semitones[frames[j]!]!;
    if (Number.isNaN(st)) continue;
    sum += st;
    sumSq += st * st;
    voiced++;
  }
  return { sum, sumSq, voiced };
}

export function pitchGaussian({ sum, sumSq, voiced }: PitchSums): PitchGaussian {
  const n = Math.max(1, voiced);
  const mean = sum / n;
  return { mean, sd: Math.max(PITCH_SD_FLOOR_ST, Math.sqrt(Math.max(0, sumSq / n - mean * mean))) };
}

/** log N(st; mean, sd) up to the constant every speaker shares. */
export function pitchLogLikelihood(st: number, g: PitchGaussian): number {
  return -0.5 * ((st - g.mean) / g.sd) ** 2 - Math.log(g.sd);
}

/**
 * F0 in semitones per frame, NaN where unvoiced. A plain loop: Float64Array.from with a mapping
 * function goes through the iterator protocol and lists every value first (megabytes of boxed
 * numbers for an hour).
 */
export function framePitchSemitones(pitchHz: Float32Array | Float64Array): Float64Array {
  const out = new Float64Array(pitchHz.length);
  for (let i = 0; i < pitchHz.length; i++) out[i] = pitchHz[i]! > 0 ? hzToSemitones(pitchHz[i]!) : NaN;
  return out;
}
