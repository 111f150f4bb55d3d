// Speaker diarization from frame features: (1) embed short windows of speech by the statistics
// of their standardised MFCCs and pitch, (2) cluster them with a distance threshold (automatic
// speaker count), (3) resegment frame by frame with one Gaussian model per speaker and a Viterbi
// pass whose switch penalty stands for the minimum plausible speaker-turn length.
import { NUM_CEPS, type FrameFeatures } from './features.ts';
import type { FrameRegion } from './vad.ts';
import { agglomerate } from './cluster.ts';
import { accumulate, emptyUbmStats, trainUbm, type Ubm, type UbmStats } from './ubm.ts';
import { quantile } from './stats.ts';
import { addFrame, emptyStats, glrPerFrame, type GaussStats } from './gaussian.ts';

export interface DiarizeOptions {
  /** Cosine-distance threshold at which clustering stops. */
  clusterThreshold?: number;
  windowSec?: number;
  hopSec?: number;
  /** Log-likelihood cost of a speaker change between two frames in the Viterbi pass. */
  switchPenalty?: number;
  /** Clusters with less speech than this (seconds) are merged into their nearest neighbour. */
  minSpeakerSec?: number;
  /** Upper bound on the clusters handed from window clustering to the BIC merging stage. */
  maxInitialClusters?: number;
  ubmComponents?: number;
  /** Weight of the BIC model-size penalty when deciding whether two clusters are one speaker. */
  bicLambda?: number;
}

export interface Diarization {
  /** Speaker per frame, -1 for non-speech; speakers renumbered in order of first speech. */
  frameSpeaker: Int16Array;
  speakers: number;
}

const DIMS = NUM_CEPS - 1; // c1..c19: c0 is level, which says more about the microphone than the voice
const MAX_CLUSTER_ITEMS = 600;
const MAX_UBM_FRAMES = 20000;

/** Speech frames that are voiced and within 30 dB of the recording's loud frames. */
export function modellingMask(f: FrameFeatures, speech: Uint8Array): Uint8Array {
  const levels: number[] = [];
  for (let i = 0; i < f.frames; i++) if (speech[i]) levels.push(f.bandDb[i]!);
  const floor = (quantile(levels, 0.95) ?? 0) - 30;
  const out = new Uint8Array(f.frames);
  for (let i = 0; i < f.frames; i++) if (speech[i] && f.pitchHz[i]! > 0 && f.bandDb[i]! > floor) out[i] = 1;
  return out;
}

/** Standardised cepstra (per-file mean and deviation over speech frames). */
export function standardisedCepstra(f: FrameFeatures, mask: Uint8Array): Float32Array {
  const out = new Float32Array(f.frames * DIMS);
  const m = new Float64Array(DIMS);
  const s = new Float64Array(DIMS);
  let count = 0;
  for (let i = 0; i < f.frames; i++) {
    if (!mask[i]) continue;
    count++;
    for (let d = 0; d < DIMS; d++) {
      const v = f.mfcc[i * NUM_CEPS + d + 1]!;
      m[d] = m[d]! + v;
      s[d] = s[d]! + v * v;
    }
  }
  for (let d = 0; d < DIMS; d++) {
    m[d] = count ? m[d]! / count : 0;
    s[d] = count ? Math.sqrt(Math.max(1e-6, s[d]! / count - m[d]! ** 2)) : 1;
  }
  for (let i = 0; i < f.frames; i++)
    for (let d = 0; d < DIMS; d++) out[i * DIMS + d] = (f.mfcc[i * NUM_CEPS + d + 1]! - m[d]!) / s[d]!;
  return out;
}

interface Window {
  start: number;
  end: number;
  stats: UbmStats;
  speechFrames: number;
}

function makeWindows(regions: FrameRegion[], ubm: Ubm, cep: Float32Array, model: Uint8Array, win: number, hop: number): Window[] {
  const out: Window[] = [];
  const scratch = new Float64Array(ubm.components);
  const windowOf = (start: number, end: number): Window => {
    const stats = emptyUbmStats(ubm);
    let speechFrames = 0;
    for (let i = start; i < end; i++)
      if (model[i]) {
        accumulate(ubm, cep, i, stats, scratch);
        speechFrames++;
      }
    return { start, end, stats, speechFrames };
  };
  for (const r of regions) {
    const len = r.end - r.start;
    if (len <= win * 1.5) {
      out.push(windowOf(r.start, r.end));
      continue;
    }
    const count = Math.ceil((len - win) / hop) + 1;
    const step = (len - win) / (count - 1);
    for (let c = 0; c < count; c++) {
      const s = r.start + Math.round(c * step);
      out.push(windowOf(s, s + win));
    }
  }
  return out.filter((w) => w.speechFrames >= 10);
}

export interface Gaussian {
  mean: Float64Array;
  invVar: Float64Array;
  logNorm: number;
}

export function fitGaussian(cep: Float32Array, frames: number[]): Gaussian {
  const mean = new Float64Array(DIMS);
  const sq = new Float64Array(DIMS);
  for (const i of frames)
    for (let d = 0; d < DIMS; d++) {
      const v = cep[i * DIMS + d]!;
      mean[d] = mean[d]! + v;
      sq[d] = sq[d]! + v * v;
    }
  const n = Math.max(1, frames.length);
  const invVar = new Float64Array(DIMS);
  let logNorm = 0;
  for (let d = 0; d < DIMS; d++) {
    mean[d] = mean[d]! / n;
    const v = Math.max(0.05, sq[d]! / n - mean[d]! ** 2);
    invVar[d] = 1 / v;
    logNorm -= 0.5 * Math.log(2 * Math.PI * v);
  }
  return { mean, invVar, logNorm };
}

export function logLik(g: Gaussian, cep: Float32Array, i: number): number {
  let s = 0;
  for (let d = 0; d < DIMS; d++) {
    const x = cep[i * DIMS + d]! - g.mean[d]!;
    s += x * x * g.invVar[d]!;
  }
  return g.logNorm - 0.5 * s;
}

/** Viterbi over each speech region: speaker per frame with a cost per change of speaker. */
export function viterbi(models: Gaussian[], cep: Float32Array, regions: FrameRegion[], penalty: number, frameSpeaker: Int16Array, model?: Uint8Array): void {
  // Frames outside the modelling mask (silence inside a region, unvoiced sounds) carry no
  // evidence: they follow their neighbours.
  const emit = (g: Gaussian, i: number): number => (model && !model[i] ? 0 : logLik(g, cep, i));
  const k = models.length;
  for (const r of regions) {
    const len = r.end - r.start;
    const back = new Int16Array(len * k);
    let score = new Float64Array(k);
    for (let s = 0; s < k; s++) score[s] = emit(models[s]!, r.start);
    for (let t = 1; t < len; t++) {
      const next = new Float64Array(k);
      let bestPrev = 0;
      for (let s = 1; s < k; s++) if (score[s]! > score[bestPrev]!) bestPrev = s;
      for (let s = 0; s < k; s++) {
        const stay = score[s]!;
        const move = score[bestPrev]! - penalty;
        const from = stay >= move ? s : bestPrev;
        back[t * k + s] = from;
        next[s] = Math.max(stay, move) + emit(models[s]!, r.start + t);
      }
      score = next;
    }
    let s = 0;
    for (let x = 1; x < k; x++) if (score[x]! > score[s]!) s = x;
    for (let t = len - 1; t >= 0; t--) {
      frameSpeaker[r.start + t] = s;
      s = back[t * k + s]!;
    }
  }
}

/** Full-covariance statistics of each speaker's frames in the current track. */
function clusterStats(cep: Float32Array, frameSpeaker: Int16Array, k: number, model: Uint8Array): GaussStats[] {
  const stats = Array.from({ length: k }, () => emptyStats(DIMS));
  for (let i = 0; i < frameSpeaker.length; i++) {
    const s = frameSpeaker[i]!;
    if (s >= 0 && model[i]) addFrame(stats[s]!, cep, i * DIMS);
  }
  return stats;
}

function framesBySpeaker(frameSpeaker: Int16Array, k: number, model: Uint8Array): number[][] {
  const out: number[][] = Array.from({ length: k }, () => []);
  for (let i = 0; i < frameSpeaker.length; i++) {
    const s = frameSpeaker[i]!;
    if (s >= 0 && model[i]) out[s]!.push(i);
  }
  return out;
}

/** Renumbers the track so that the used speaker ids are 0..k-1 in order of first speech. */
function renumber(frameSpeaker: Int16Array): number {
  const order = new Map<number, number>();
  for (let i = 0; i < frameSpeaker.length; i++) {
    const s = frameSpeaker[i]!;
    if (s < 0) continue;
    if (!order.has(s)) order.set(s, order.size);
    frameSpeaker[i] = order.get(s)!;
  }
  return order.size;
}

/** BIC model-size penalty of a full-covariance Gaussian, per log(frames). */
const BIC_PARAMS = DIMS + (DIMS * (DIMS + 1)) / 2;

export function diarize(f: FrameFeatures, regions: FrameRegion[], mask: Uint8Array, options: DiarizeOptions = {}): Diarization {
  const threshold = options.clusterThreshold ?? 0.5;
  const maxInitial = options.maxInitialClusters ?? 10;
  const lambda = options.bicLambda ?? 3;
  const win = Math.round((options.windowSec ?? 1.5) * 100);
  const hop = Math.round((options.hopSec ?? 0.75) * 100);
  const penalty = options.switchPenalty ?? 100;
  const minSpeaker = Math.round((options.minSpeakerSec ?? 3) * 100);
  const frameSpeaker = new Int16Array(f.frames).fill(-1);
  if (regions.length === 0) return { frameSpeaker, speakers: 0 };

  // Speaker models use the frames that carry voice: voiced, and within 30 dB of the loud frames.
  const model = modellingMask(f, mask);
  const cep = standardisedCepstra(f, model);
  const modelFrames: number[] = [];
  for (let i = 0; i < f.frames; i++) if (model[i]) modelFrames.push(i);
  if (modelFrames.length < 50) {
    for (const r of regions) frameSpeaker.fill(0, r.start, r.end);
    return { frameSpeaker, speakers: 1 };
  }
  const ubmFrames = modelFrames.filter((_, i) => i % Math.max(1, Math.floor(modelFrames.length / MAX_UBM_FRAMES)) === 0);
  const ubm = trainUbm(cep, DIMS, ubmFrames, options.ubmComponents ?? 32);
  const windows = makeWindows(regions, ubm, cep, model, win, hop);

  // 1. Cluster the windows (at most MAX_CLUSTER_ITEMS of them, evenly spread).
  const stride = Math.max(1, windows.length / MAX_CLUSTER_ITEMS);
  const picked: Window[] = [];
  for (let x = 0; x < windows.length; x += stride) picked.push(windows[Math.floor(x)]!);
  const { labels, k } = agglomerate(
    ubm,
    picked.map((w) => w.stats),
    threshold,
    maxInitial,
  );
  const initial: number[][] = Array.from({ length: k }, () => []);
  picked.forEach((w, i) => {
    for (let t = w.start; t < w.end; t++) if (model[t]) initial[labels[i]!]!.push(t);
  });
  let models = initial.filter((fr) => fr.length > 0).map((fr) => fitGaussian(cep, fr));

  // 2. Resegment, then merge the closest pair of speakers while BIC prefers one Gaussian.
  for (;;) {
    viterbi(models, cep, regions, penalty, frameSpeaker, model);
    let count = renumber(frameSpeaker);
    viterbi(framesBySpeaker(frameSpeaker, count, model).map((fr) => fitGaussian(cep, fr)), cep, regions, penalty, frameSpeaker, model);
    count = renumber(frameSpeaker);
    const stats = clusterStats(cep, frameSpeaker, count, model);
    let best = 0;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < count; i++)
      for (let j = i + 1; j < count; j++) {
        const p = stats[i]!;
        const q = stats[j]!;
        const n = p.n + q.n;
        const small = Math.min(p.n, q.n) < minSpeaker;
        const dBic = n * glrPerFrame(p, q) - lambda * 0.5 * BIC_PARAMS * Math.log(n) - (small ? 1e9 : 0);
        if (dBic < best) {
          best = dBic;
          bi = i;
          bj = j;
        }
      }
    if (bi < 0) {
      models = framesBySpeaker(frameSpeaker, count, model).map((fr) => fitGaussian(cep, fr));
      break;
    }
    const byFrames = framesBySpeaker(frameSpeaker, count, model);
    byFrames[bi] = byFrames[bi]!.concat(byFrames[bj]!);
    byFrames.splice(bj, 1);
    models = byFrames.map((fr) => fitGaussian(cep, fr));
  }
  viterbi(models, cep, regions, penalty, frameSpeaker, model);
  return { frameSpeaker, speakers: renumber(frameSpeaker) };
}
