// Speaker diarization from frame features: (1) embed short windows of speech by the statistics
// of their standardised MFCCs and pitch, (2) cluster them with a distance threshold (automatic
// speaker count), (3) resegment frame by frame with one Gaussian model per speaker and a Viterbi
// pass whose switch penalty stands for the minimum plausible speaker-turn length.
import { NUM_CEPS, type FrameFeatures } from './features.ts';
import type { FrameRegion } from './vad.ts';
import { agglomerate } from './cluster.ts';
import { hzToSemitones } from './pitch.ts';
import { adaptMeans, alignToUbm, frameLlr } from './gmm-speakers.ts';
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
  /** Weight of the pitch distance (per 6 semitones) in window clustering. */
  clusterPitchWeight?: number;
  /** Weight of the per-speaker F0 likelihood in the resegmentation emissions. */
  pitchStreamWeight?: number;
  /** Cross-likelihood ratio above which two clusters are merged as one speaker. */
  clrThreshold?: number;
  /** Weight of the BIC model-size penalty when deciding whether two clusters are one speaker. */
  bicLambda?: number;
}

export interface Diarization {
  /** Speaker per frame, -1 for non-speech; speakers renumbered in order of first speech. */
  frameSpeaker: Int16Array;
  speakers: number;
}

const CEP_DIMS = NUM_CEPS - 1;
const DIMS = process.env.NOPITCH ? CEP_DIMS : CEP_DIMS + 1;
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

/**
 * Per-frame speaker features, standardised over the modelling frames of the recording:
 * c1..c19 (c0 is level, which says more about the microphone than the voice) and log F0.
 */
export function standardisedCepstra(f: FrameFeatures, mask: Uint8Array): Float32Array {
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

interface Window {
  start: number;
  end: number;
  stats: UbmStats;
  speechFrames: number;
  /** Median F0 in semitones over the window's modelling frames. */
  pitchSt: number;
}

function makeWindows(f: FrameFeatures, regions: FrameRegion[], ubm: Ubm, cep: Float32Array, model: Uint8Array, win: number, hop: number): Window[] {
  const out: Window[] = [];
  const scratch = new Float64Array(ubm.components);
  const windowOf = (start: number, end: number): Window => {
    const stats = emptyUbmStats(ubm);
    const st: number[] = [];
    for (let i = start; i < end; i++)
      if (model[i]) {
        accumulate(ubm, cep, i, stats, scratch);
        st.push(hzToSemitones(f.pitchHz[i]!));
      }
    return { start, end, stats, speechFrames: st.length, pitchSt: quantile(st, 0.5) ?? NaN };
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

/** Viterbi over speech regions on precomputed emissions (frame-major, k per frame). */
export function viterbiEmissions(emission: Float32Array, k: number, regions: FrameRegion[], penalty: number, frameSpeaker: Int16Array): void {
  for (const r of regions) {
    const len = r.end - r.start;
    const back = new Int16Array(len * k);
    let score = new Float64Array(k);
    for (let s = 0; s < k; s++) score[s] = emission[r.start * k + s]!;
    for (let t = 1; t < len; t++) {
      const next = new Float64Array(k);
      let bestPrev = 0;
      for (let s = 1; s < k; s++) if (score[s]! > score[bestPrev]!) bestPrev = s;
      for (let s = 0; s < k; s++) {
        const stay = score[s]!;
        const move = score[bestPrev]! - penalty;
        back[t * k + s] = stay >= move ? s : bestPrev;
        next[s] = Math.max(stay, move) + emission[(r.start + t) * k + s]!;
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

/** Gaussian of a speaker's F0 in semitones (the deviation floored: a few frames are not a voice). */
function pitchModel(f: FrameFeatures, frames: number[]): { mean: number; sd: number } {
  let s = 0;
  let q = 0;
  for (const i of frames) {
    const st = hzToSemitones(f.pitchHz[i]!);
    s += st;
    q += st * st;
  }
  const n = Math.max(1, frames.length);
  const mean = s / n;
  return { mean, sd: Math.max(1.5, Math.sqrt(Math.max(0, q / n - mean * mean))) };
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
  const windows = makeWindows(f, regions, ubm, cep, model, win, hop);

  // 1. Cluster the windows (at most MAX_CLUSTER_ITEMS of them, evenly spread).
  const stride = Math.max(1, windows.length / MAX_CLUSTER_ITEMS);
  const picked: Window[] = [];
  for (let x = 0; x < windows.length; x += stride) picked.push(windows[Math.floor(x)]!);
  const { labels, k } = agglomerate(
    ubm,
    picked.map((w) => w.stats),
    threshold,
    maxInitial,
    picked.map((w) => w.pitchSt),
    picked.map((w) => w.speechFrames),
    options.clusterPitchWeight ?? 1,
  );
  const initial: number[][] = Array.from({ length: k }, () => []);
  picked.forEach((w, i) => {
    for (let t = w.start; t < w.end; t++) if (model[t]) initial[labels[i]!]!.push(t);
  });

  // 2. Resegment with GMM-UBM speaker models; merge the pair of speakers whose models explain
  // each other's frames best (cross-likelihood ratio) while that ratio is above the threshold.
  const align = alignToUbm(ubm, cep, model);
  let groups = initial.filter((fr) => fr.length > 0);
  const clrThreshold = options.clrThreshold ?? -1.4;
  const pitchWeight = options.pitchStreamWeight ?? 1;
  const fileStats = pitchModel(f, modelFrames);
  const filePitchLl = (st: number): number => -0.5 * ((st - fileStats.mean) / fileStats.sd) ** 2 - Math.log(fileStats.sd);
  for (;;) {
    let k2 = groups.length;
    let emission = new Float32Array(0);
    for (let it = 0; it < 2; it++) {
      const means = groups.map((fr) => adaptMeans(ubm, cep, align, fr));
      const pitchModels = groups.map((fr) => pitchModel(f, fr));
      emission = new Float32Array(f.frames * k2);
      for (let i = 0; i < f.frames; i++) {
        if (!model[i]) continue;
        const st = hzToSemitones(f.pitchHz[i]!);
        for (let s2 = 0; s2 < k2; s2++) {
          const pm = pitchModels[s2]!;
          const pitchLl = -0.5 * ((st - pm.mean) / pm.sd) ** 2 - Math.log(pm.sd) - filePitchLl(st);
          emission[i * k2 + s2] = frameLlr(ubm, means[s2]!, cep, align, i) + pitchWeight * pitchLl;
        }
      }
      viterbiEmissions(emission, k2, regions, penalty, frameSpeaker);
      const before = k2;
      k2 = renumberKeeping(frameSpeaker, emission, before);
      emission = compactEmission(emission, before, frameSpeaker, k2) as Float32Array<ArrayBuffer>;
      groups = framesBySpeaker(frameSpeaker, k2, model);
    }
    if (k2 <= 1) break;
    // Mean LLR of each cluster's frames under each model.
    const sums = new Float64Array(k2 * k2);
    const counts = new Float64Array(k2);
    for (let i = 0; i < f.frames; i++) {
      const s2 = frameSpeaker[i]!;
      if (s2 < 0 || !model[i]) continue;
      counts[s2] = counts[s2]! + 1;
      for (let m = 0; m < k2; m++) sums[s2 * k2 + m] = sums[s2 * k2 + m]! + emission[i * k2 + m]!;
    }
    let best = -Infinity;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < k2; i++)
      for (let j = i + 1; j < k2; j++) {
        const clr = sums[i * k2 + j]! / Math.max(1, counts[i]!) + sums[j * k2 + i]! / Math.max(1, counts[j]!);
        const small = Math.min(counts[i]!, counts[j]!) < minSpeaker;
        const score = clr + (small ? 1e6 : 0);
        if (score > best) {
          best = score;
          bi = i;
          bj = j;
        }
      }
    if (process.env.DIAR_DEBUG) console.error('k', k2, 'best clr', best.toFixed(3), bi, bj, [...counts].join(','));
    if (best < clrThreshold) break;
    groups[bi] = groups[bi]!.concat(groups[bj]!);
    groups.splice(bj, 1);
  }
  return { frameSpeaker, speakers: renumber(frameSpeaker) };
}

/** Renumbers by first speech; returns the count (emission columns are remapped by compactEmission). */
function renumberKeeping(frameSpeaker: Int16Array, _emission: Float32Array, _k: number): number {
  return renumberMap(frameSpeaker).size;
}

let lastMap = new Map<number, number>();
function renumberMap(frameSpeaker: Int16Array): Map<number, number> {
  const order = new Map<number, number>();
  for (let i = 0; i < frameSpeaker.length; i++) {
    const s = frameSpeaker[i]!;
    if (s < 0) continue;
    if (!order.has(s)) order.set(s, order.size);
    frameSpeaker[i] = order.get(s)!;
  }
  lastMap = order;
  return order;
}

function compactEmission(emission: Float32Array, before: number, frameSpeaker: Int16Array, after: number): Float32Array {
  const out = new Float32Array(frameSpeaker.length * after);
  for (const [old, now] of lastMap) for (let i = 0; i < frameSpeaker.length; i++) out[i * after + now] = emission[i * before + old]!;
  return out;
}
