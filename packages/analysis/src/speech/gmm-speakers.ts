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
    // Partial selection of the TOP best components.
    const best: number[] = [];
    for (let c = 0; c < k; c++) {
      if (best.length < TOP) best.push(c);
      else {
        let worst = 0;
        for (let b = 1; b < best.length; b++) if (ll[best[b]!]! < ll[best[worst]!]!) worst = b;
        if (ll[c]! > ll[best[worst]!]!) best[worst] = c;
      }
    }
    let max = -Infinity;
    for (const c of best) max = Math.max(max, ll[c]!);
    let total = 0;
    for (const c of best) total += Math.exp(ll[c]! - max);
    ubmLl[i] = max + Math.log(total);
    best.forEach((c, b) => {
      top[i * TOP + b] = c;
      post[i * TOP + b] = Math.exp(ll[c]! - max) / total;
    });
  }
  return { top, post, ubmLl };
}

/** MAP-adapted means (components * dims) of a speaker from its frames. */
export function adaptMeans(ubm: Ubm, x: Float32Array, a: FrameAlignment, frames: number[]): Float64Array {
  const { components: k, dims } = ubm;
  const N = new Float64Array(k);
  const F = new Float64Array(k * dims);
  for (const i of frames) {
    for (let b = 0; b < TOP; b++) {
      const c = a.top[i * TOP + b]!;
      if (c < 0) continue;
      const p = a.post[i * TOP + b]!;
      N[c] = N[c]! + p;
      for (let d = 0; d < dims; d++) F[c * dims + d] = F[c * dims + d]! + p * x[i * dims + d]!;
    }
  }
  const out = new Float64Array(k * dims);
  for (let c = 0; c < k; c++) {
    const alpha = N[c]! / (N[c]! + RELEVANCE);
    for (let d = 0; d < dims; d++) {
      const ml = N[c]! > 0 ? F[c * dims + d]! / N[c]! : 0;
      out[c * dims + d] = alpha * ml + (1 - alpha) * ubm.means[c * dims + d]!;
    }
  }
  return out;
}

/** log p(x_i | speaker) - log p(x_i | UBM), over the frame's top components; 0 if unmodelled. */
export function frameLlr(ubm: Ubm, means: Float64Array, x: Float32Array, a: FrameAlignment, i: number): number {
  const { dims, invVars, logConst } = ubm;
  let max = -Infinity;
  const ll = [0, 0, 0, 0];
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
