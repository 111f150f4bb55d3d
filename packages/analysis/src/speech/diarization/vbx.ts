// Variational Bayes clustering of speaker embeddings (VBx without its HMM: Landini et al. 2022,
// "Bayesian HMM clustering of x-vector sequences (VBx) in speaker diarization", as pyannote 4
// uses it on local speakers). Each embedding is a draw from its speaker's mean plus unit
// within-speaker noise; speaker means are drawn from N(0, diag(phi)). Starting from a hard
// partition (the average linkage's), the responsibilities, the speaker means' posteriors and
// the speaker priors are updated in turn; a speaker whose prior falls to nothing is gone, which
// is how the count can move.

export interface VbxOptions {
  /** Scales the embeddings' statistics (they are not independent draws). */
  fa: number;
  /** The speaker-mean prior's weight: larger keeps fewer speakers. */
  fb: number;
  maxIters: number;
  /** Sharpness of the initial responsibilities from the hard partition. */
  initSmoothing: number;
}

export interface VbxResult {
  /** Responsibilities, T x S row-major. */
  gamma: Float64Array;
  /** Speaker priors, S. */
  pi: Float64Array;
  iterations: number;
}

/**
 * `x`: T embeddings of D dimensions in the space where within-speaker scatter is the identity;
 * `phi`: the between-speaker variance of each dimension there; `init`: a cluster 0..S-1 per
 * embedding. (Weighting each embedding by the clean speech it stands for read worse on the folds.)
 */
export function vbx(x: Float64Array[], phi: ArrayLike<number>, init: Int32Array, o: VbxOptions): VbxResult {
  const T = x.length;
  const D = phi.length;
  let S = 0;
  for (const c of init) S = Math.max(S, c + 1);
  const gamma = new Float64Array(T * S);
  // softmax(onehot * smoothing) per row
  const off = 1 / (1 + (S - 1) * Math.exp(o.initSmoothing));
  const on = Math.exp(o.initSmoothing) * off;
  for (let t = 0; t < T; t++) for (let s = 0; s < S; s++) gamma[t * S + s] = s === init[t] ? on : off;
  const pi = new Float64Array(S).fill(1 / S);
  // Flat T x D arrays: the loops below are the whole cost (T x S x D per iteration).
  const rho = new Float64Array(T * D);
  const G = new Float64Array(T);
  for (let t = 0; t < T; t++) {
    const v = x[t]!;
    let sq = 0;
    for (let d = 0; d < D; d++) {
      rho[t * D + d] = v[d]! * Math.sqrt(phi[d]!);
      sq += v[d]! * v[d]!;
    }
    G[t] = -0.5 * (sq + D * Math.log(2 * Math.PI));
  }
  const invL = new Float64Array(S * D);
  const alpha = new Float64Array(S * D);
  const logp = new Float64Array(T * S);
  const acc = new Float64Array(D);
  const ratio = o.fa / o.fb;
  let prev = -Infinity;
  let it = 0;
  for (; it < o.maxIters; it++) {
    // A speaker whose prior is gone takes no frame again (its responsibilities are 0 from here on).
    const alive = Array.from(pi, (p) => p > 1e-10);
    for (let s = 0; s < S; s++) {
      if (!alive[s]) continue;
      let n = 0;
      acc.fill(0);
      for (let t = 0; t < T; t++) {
        const g = gamma[t * S + s]!;
        if (g === 0) continue;
        n += g;
        for (let d = 0; d < D; d++) acc[d] = acc[d]! + g * rho[t * D + d]!;
      }
      for (let d = 0; d < D; d++) {
        const il = 1 / (1 + ratio * n * phi[d]!);
        invL[s * D + d] = il;
        alpha[s * D + d] = ratio * il * acc[d]!;
      }
    }
    for (let s = 0; s < S; s++) {
      if (!alive[s]) {
        for (let t = 0; t < T; t++) logp[t * S + s] = -Infinity;
        continue;
      }
      let c = 0;
      for (let d = 0; d < D; d++) c += (invL[s * D + d]! + alpha[s * D + d]! ** 2) * phi[d]!;
      for (let t = 0; t < T; t++) {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += rho[t * D + d]! * alpha[s * D + d]!;
        logp[t * S + s] = o.fa * (dot - 0.5 * c + G[t]!);
      }
    }
    let total = 0;
    const lpi = Float64Array.from(pi, (p) => Math.log(p + 1e-8));
    pi.fill(0);
    for (let t = 0; t < T; t++) {
      let m = -Infinity;
      for (let s = 0; s < S; s++) m = Math.max(m, logp[t * S + s]! + lpi[s]!);
      let z = 0;
      for (let s = 0; s < S; s++) z += Math.exp(logp[t * S + s]! + lpi[s]! - m);
      const lse = m + Math.log(z);
      total += lse;
      for (let s = 0; s < S; s++) {
        const g = Math.exp(logp[t * S + s]! + lpi[s]! - lse);
        gamma[t * S + s] = g;
        pi[s] = pi[s]! + g;
      }
    }
    let psum = 0;
    for (const p of pi) psum += p;
    for (let s = 0; s < S; s++) pi[s] = pi[s]! / psum;
    let kl = 0;
    for (let s = 0; s < S; s++) {
      if (!alive[s]) continue;
      for (let d = 0; d < D; d++) kl += Math.log(invL[s * D + d]!) - invL[s * D + d]! - alpha[s * D + d]! ** 2 + 1;
    }
    const elbo = total + o.fb * 0.5 * kl;
    if (it > 0 && elbo - prev < 1e-4) {
      it++;
      break;
    }
    prev = elbo;
  }
  return { gamma, pi, iterations: it };
}
