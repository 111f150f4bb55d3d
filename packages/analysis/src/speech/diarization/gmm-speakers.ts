// GMM-UBM speaker models (Reynolds et al. 2000) for resegmentation: each speaker is the
// recording's UBM with its means MAP-adapted to that speaker's frames, and a frame is scored by
// the log-likelihood ratio of the speaker model to the UBM over the frame's top UBM components.
// Because every component models one class of sounds, the ratio reflects the voice more than
// the phoneme, which a single Gaussian per speaker cannot do.
import type { Ubm } from './ubm.ts';

const TOP = 4;
const RELEVANCE = 64;

export interface FrameAlignment {
  /** For each frame, TOP component indices (-1 when the frame is not modelled). */
  top: Int16Array;
  /** Their posteriors under the UBM. */
  post: Float32Array;
  /** UBM log-likelihood of each modelled frame. */
  ubmLl: Float32Array;
}

const BEST_SCRATCH = new Int32Array(TOP);

export function alignToUbm(ubm: Ubm, x: Float32Array, model: Uint8Array): FrameAlignment {
  const n = model.length;
  const top = new Int16Array(n * TOP).fill(-1);
  const post = new Float32Array(n * TOP);
  const ubmLl = new Float32Array(n);
  const ll = new Float64Array(ubm.components);
  const { components: k, dims, means, invVars, logConst } = ubm;
  for (let i = 0; i < n; i++) {
    if (!model[i]) continue;
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let d = 0; d < dims; d++) {
        const diff = x[i * dims + d]! - means[c * dims + d]!;
        s += diff * diff * invVars[c * dims + d]!;
      }
      ll[c] = logConst[c]! - 0.5 * s;
    }
    // Partial selection of the TOP best components (into a reused buffer: this runs per frame).
    const best = BEST_SCRATCH;
    let used = 0;
    for (let c = 0; c < k; c++) {
      if (used < TOP) best[used++] = c;
      else {
        let worst = 0;
        for (let b = 1; b < used; b++) if (ll[best[b]!]! < ll[best[worst]!]!) worst = b;
        if (ll[c]! > ll[best[worst]!]!) best[worst] = c;
      }
    }
    let max = -Infinity;
    for (let b = 0; b < used; b++) max = Math.max(max, ll[best[b]!]!);
    let total = 0;
    for (let b = 0; b < used; b++) total += Math.exp(ll[best[b]!]! - max);
    ubmLl[i] = max + Math.log(total);
    for (let b = 0; b < used; b++) {
      top[i * TOP + b] = best[b]!;
      post[i * TOP + b] = Math.exp(ll[best[b]!]! - max) / total;
    }
  }
  return { top, post, ubmLl };
}

/** Zeroth- and first-order statistics of frames against the UBM's top components. */
export interface SpeakerStats {
  /** Soft count per component. */
  N: Float64Array;
  /** Posterior-weighted sum of the features per component (components * dims). */
  F: Float64Array;
}

/** Statistics of a speaker's frames (one list or several, in order). */
export function speakerStats(ubm: Ubm, x: Float32Array, a: FrameAlignment, ...lists: ArrayLike<number>[]): SpeakerStats {
  const stats = { N: new Float64Array(ubm.components), F: new Float64Array(ubm.components * ubm.dims) };
  for (const frames of lists) addFrameStats(ubm, x, a, frames, stats);
  return stats;
}

/** Adds (sign 1) or removes (sign -1) the statistics of `frames` to `into`, in place. */
export function addFrameStats(ubm: Ubm, x: Float32Array, a: FrameAlignment, frames: ArrayLike<number>, into: SpeakerStats, sign = 1): void {
  const { dims } = ubm;
  const { N, F } = into;
  for (let j = 0; j < frames.length; j++) {
    const i = frames[j]!;
    for (let b = 0; b < TOP; b++) {
      const c = a.top[i * TOP + b]!;
      if (c < 0) continue;
      const p = sign * a.post[i * TOP + b]!;
      N[c] = N[c]! + p;
      for (let d = 0; d < dims; d++) F[c * dims + d] = F[c * dims + d]! + p * x[i * dims + d]!;
    }
  }
}

/** MAP-adapted means (components * dims) from a speaker's statistics (into `out` when given). */
export function meansFromStats(ubm: Ubm, { N, F }: SpeakerStats, out: Float64Array = new Float64Array(ubm.components * ubm.dims)): Float64Array {
  const { components: k, dims } = ubm;
  for (let c = 0; c < k; c++) {
    const n = Math.max(0, N[c]!);
    const alpha = n / (n + RELEVANCE);
    for (let d = 0; d < dims; d++) {
      const ml = n > 1e-9 ? F[c * dims + d]! / n : 0;
      out[c * dims + d] = alpha * ml + (1 - alpha) * ubm.means[c * dims + d]!;
    }
  }
  return out;
}

/** MAP-adapted means (components * dims) of a speaker from its frames (one list or several, in order). */
export function adaptMeans(ubm: Ubm, x: Float32Array, a: FrameAlignment, ...lists: ArrayLike<number>[]): Float64Array {
  return meansFromStats(ubm, speakerStats(ubm, x, a, ...lists));
}

// frameLlr runs for every frame under every speaker model, millions of times per recording: a
// fresh array per call made the young generation grow by tens of megabytes on long files.
const LL_SCRATCH = new Float64Array(TOP);

/** log p(x_i | speaker) - log p(x_i | UBM), over the frame's top components; 0 if unmodelled. */
export function frameLlr(ubm: Ubm, means: Float64Array, x: Float32Array, a: FrameAlignment, i: number): number {
  const { dims, invVars, logConst } = ubm;
  let max = -Infinity;
  const ll = LL_SCRATCH;
  let used = 0;
  for (let b = 0; b < TOP; b++) {
    const c = a.top[i * TOP + b]!;
    if (c < 0) break;
    let s = 0;
    for (let d = 0; d < dims; d++) {
      const diff = x[i * dims + d]! - means[c * dims + d]!;
      s += diff * diff * invVars[c * dims + d]!;
    }
    const l = logConst[c]! - 0.5 * s;
    ll[b] = l;
    used++;
    if (l > max) max = l;
  }
  if (used === 0) return 0;
  let total = 0;
  for (let b = 0; b < used; b++) total += Math.exp(ll[b]! - max);
  return max + Math.log(total) - a.ubmLl[i]!;
}
