// A per-recording universal background model (Reynolds et al. 2000): a diagonal GMM of all the
// recording's speech frames. Each component stands for a class of sounds; a stretch of speech
// is then described by how it shifts the component means (relevance-MAP adaptation), which
// removes much of what was said and keeps more of who said it (a GMM supervector, Campbell
// et al. 2006). Everything is fitted on the recording itself: no pretrained model is needed.

export interface Ubm {
  components: number;
  dims: number;
  weights: Float64Array;
  means: Float64Array; // components * dims
  invVars: Float64Array;
  logConst: Float64Array; // log weight - 0.5 * sum log(2 pi var)
}

/**
 * Fits a diagonal GMM by EM on the given frames (deterministic: component c is seeded with the
 * frame at (c + seedPhase) / components of the list). EM from so few iterations stays near its
 * seeds, and the diarization built on it depends on them (docs/analysis-speech.md, "Two UBM
 * seedings"): `seedPhase` lets the evaluation measure that.
 */
export function trainUbm(x: Float32Array, dims: number, frames: ArrayLike<number>, components: number, iterations = 8, seedPhase = 0.5): Ubm {
  const n = frames.length;
  const k = Math.max(1, Math.min(components, Math.floor(n / 20)));
  const means = new Float64Array(k * dims);
  const vars = new Float64Array(k * dims).fill(1);
  const weights = new Float64Array(k).fill(1 / k);
  // Seed with frames spread over the recording.
  for (let c = 0; c < k; c++) {
    const f = frames[Math.min(n - 1, Math.floor(((c + seedPhase) * n) / k))]!;
    for (let d = 0; d < dims; d++) means[c * dims + d] = x[f * dims + d]!;
  }
  const ubm: Ubm = { components: k, dims, weights, means, invVars: new Float64Array(k * dims), logConst: new Float64Array(k) };
  const post = new Float64Array(k);
  for (let it = 0; it < iterations; it++) {
    refresh(ubm, vars);
    const N = new Float64Array(k);
    const F = new Float64Array(k * dims);
    const S = new Float64Array(k * dims);
    for (let j = 0; j < n; j++) {
      const f = frames[j]!;
      posteriors(ubm, x, f * dims, post);
      for (let c = 0; c < k; c++) {
        const p = post[c]!;
        if (p < 1e-4) continue;
        N[c] = N[c]! + p;
        for (let d = 0; d < dims; d++) {
          const v = x[f * dims + d]!;
          F[c * dims + d] = F[c * dims + d]! + p * v;
          S[c * dims + d] = S[c * dims + d]! + p * v * v;
        }
      }
    }
    for (let c = 0; c < k; c++) {
      const nc = Math.max(N[c]!, 1e-3);
      weights[c] = Math.max(N[c]! / n, 1e-5);
      for (let d = 0; d < dims; d++) {
        const m = F[c * dims + d]! / nc;
        means[c * dims + d] = N[c]! > 1 ? m : means[c * dims + d]!;
        vars[c * dims + d] = N[c]! > 1 ? Math.max(0.01, S[c * dims + d]! / nc - m * m) : 1;
      }
    }
  }
  refresh(ubm, vars);
  return ubm;
}

function refresh(ubm: Ubm, vars: Float64Array): void {
  for (let c = 0; c < ubm.components; c++) {
    let lc = Math.log(ubm.weights[c]!);
    for (let d = 0; d < ubm.dims; d++) {
      const v = vars[c * ubm.dims + d]!;
      ubm.invVars[c * ubm.dims + d] = 1 / v;
      lc -= 0.5 * Math.log(2 * Math.PI * v);
    }
    ubm.logConst[c] = lc;
  }
}

/** Component posteriors of one frame into `out`. */
export function posteriors(ubm: Ubm, x: Float32Array, offset: number, out: Float64Array): void {
  const { components: k, dims, means, invVars, logConst } = ubm;
  let max = -Infinity;
  for (let c = 0; c < k; c++) {
    let s = 0;
    const base = c * dims;
    for (let d = 0; d < dims; d++) {
      const diff = x[offset + d]! - means[base + d]!;
      s += diff * diff * invVars[base + d]!;
    }
    const l = logConst[c]! - 0.5 * s;
    out[c] = l;
    if (l > max) max = l;
  }
  let total = 0;
  for (let c = 0; c < k; c++) {
    const e = Math.exp(out[c]! - max);
    out[c] = e;
    total += e;
  }
  for (let c = 0; c < k; c++) out[c] = out[c]! / total;
}

/** Zeroth- and first-order statistics of a frame set (summable across frames). */
export interface UbmStats {
  N: Float64Array;
  F: Float64Array;
}

export function emptyUbmStats(ubm: Ubm): UbmStats {
  return { N: new Float64Array(ubm.components), F: new Float64Array(ubm.components * ubm.dims) };
}

export function accumulate(ubm: Ubm, x: Float32Array, frame: number, stats: UbmStats, scratch: Float64Array): void {
  posteriors(ubm, x, frame * ubm.dims, scratch);
  for (let c = 0; c < ubm.components; c++) {
    const p = scratch[c]!;
    if (p < 1e-4) continue;
    stats.N[c] = stats.N[c]! + p;
    for (let d = 0; d < ubm.dims; d++) stats.F[c * ubm.dims + d] = stats.F[c * ubm.dims + d]! + p * x[frame * ubm.dims + d]!;
  }
}

/** MAP mean shifts scaled by sqrt(weight)/sigma: the supervector compared with cosine. */
export function supervector(ubm: Ubm, stats: UbmStats, relevance = 8): Float64Array {
  const { components: k, dims } = ubm;
  const out = new Float64Array(k * dims);
  for (let c = 0; c < k; c++) {
    const nc = stats.N[c]!;
    if (nc <= 0) continue;
    const alpha = nc / (nc + relevance);
    const scale = Math.sqrt(ubm.weights[c]!);
    for (let d = 0; d < dims; d++) {
      const m = stats.F[c * dims + d]! / nc;
      out[c * dims + d] = alpha * (m - ubm.means[c * dims + d]!) * scale * Math.sqrt(ubm.invVars[c * dims + d]!);
    }
  }
  return out;
}
