// Voiceprints through a projection trained on real voices (issue 38 §4). The cepstral voiceprint
// (voiceprint.ts) compares 15 hand-picked statistics, each scaled by its spread over the dev
// set's 25 speaker appearances; nothing in it has learnt what varies within one voice across
// recordings (a telephone line, a room, a level) and what varies between voices. Here a
// speaker's statistics over all its voiced frames, not standardised over the recording (a
// recording's mean voice is what identity must keep), go through an LDA trained offline
// (training/train-voiceprint-lda.ts) on simulated sessions of the real-voice corpus, in which each
// voice comes through another random channel, room, noise or telephone codec each time.
import { NUM_CEPS, type FrameFeatures } from './features.ts';
import { hzToSemitones } from './pitch.ts';
import { quantilesInPlace } from './stats.ts';
import { project, type LinearProjection } from './diarization/lda.ts';
import type { VoiceprintExtractor } from './voiceprint.ts';

const PITCH_QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9];
/** Fewer voiced frames than this (0.5 s) give no statistics. */
const MIN_VOICED_FRAMES = 50;

/** Length of `voiceStats`' vector: mean and deviation of c1..c19, then the F0 quantiles (semitones). */
export const VOICE_STATS_DIMS = 2 * (NUM_CEPS - 1) + PITCH_QUANTILES.length;

/**
 * Statistics of the frames where `frameSpeaker[i] === speaker` and a pitch was found (vowels carry
 * the voice; silences and fricatives mostly the channel): the mean and standard deviation of
 * c1..c19 (c0, the level, left out) and quantiles of F0 in semitones. Null under 0.5 s of them.
 */
export function voiceStats(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): Float64Array | null {
  const C = NUM_CEPS - 1;
  const sum = new Float64Array(C);
  const sq = new Float64Array(C);
  const pitch: number[] = [];
  for (let i = 0; i < f.frames; i++) {
    if (frameSpeaker[i] !== speaker || !(f.pitchHz[i]! > 0)) continue;
    for (let d = 0; d < C; d++) {
      const x = f.mfcc[i * NUM_CEPS + d + 1]!;
      sum[d] = sum[d]! + x;
      sq[d] = sq[d]! + x * x;
    }
    pitch.push(hzToSemitones(f.pitchHz[i]!));
  }
  const n = pitch.length;
  if (n < MIN_VOICED_FRAMES) return null;
  const out = new Float64Array(VOICE_STATS_DIMS);
  for (let d = 0; d < C; d++) {
    const m = sum[d]! / n;
    out[d] = m;
    out[C + d] = Math.sqrt(Math.max(0, sq[d]! / n - m * m));
  }
  quantilesInPlace(Float64Array.from(pitch), PITCH_QUANTILES).forEach((q, j) => (out[2 * C + j] = q));
  return out;
}

/** A trained voiceprint model: the LDA over `voiceStats` and how it was made. */
export interface VoiceprintModel {
  name: string;
  lda: LinearProjection;
  trained?: string;
}

/** The LDA projection of a speaker's `voiceStats`, length-normalised (zeros with too little voiced speech). */
export class TrainedVoiceprint implements VoiceprintExtractor {
  readonly name: string;
  readonly dimensions: number;
  private readonly model: VoiceprintModel;

  constructor(model: VoiceprintModel) {
    if (model.lda.mean.length !== VOICE_STATS_DIMS || model.lda.rows.some((r) => r.length !== VOICE_STATS_DIMS)) throw new Error(`voiceprint model ${model.name}: expects ${VOICE_STATS_DIMS} statistics`);
    this.model = model;
    this.name = model.name;
    this.dimensions = model.lda.rows.length;
  }

  extract(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): number[] {
    const stats = voiceStats(f, frameSpeaker, speaker);
    if (!stats) return new Array<number>(this.dimensions).fill(0);
    return projectVoiceStats(this.model, stats);
  }
}

/** `stats` through the model's LDA, length-normalised and rounded as stored voiceprints are. */
export function projectVoiceStats(model: VoiceprintModel, stats: ArrayLike<number>): number[] {
  const e = project(model.lda, stats);
  let norm = 0;
  for (const v of e) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  return Array.from(e, (v) => Math.round((v / norm) * 1e5) / 1e5);
}
