// Voiceprints: a fixed-length vector per speaker, compared with cosine similarity. The extractor
// sits behind an interface so that a neural speaker embedding can replace the cepstral statistics
// without touching diarization or entity linking.
import { NUM_CEPS, type FrameFeatures } from './features.ts';
import { hzToSemitones } from './pitch.ts';
import { cosineSimilarity, quantile } from './stats.ts';
import { SAME_SPEAKER_THRESHOLD, VOICEPRINT_CENTER, VOICEPRINT_SCALE } from './voiceprint-calibration.ts';

export { SAME_SPEAKER_THRESHOLD };

export interface VoiceprintExtractor {
  /** Name and version recorded in MediaAnalysis.method (voiceprints of different names do not compare). */
  readonly name: string;
  readonly dimensions: number;
  /** Voiceprint of the frames where `frameSpeaker[i] === speaker`. */
  extract(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): number[];
}

const CEPS = NUM_CEPS - 1; // c1..c19
const PITCH_QUANTILES = [0.1, 0.5, 0.9];
/**
 * Weight of the pitch part after normalisation. Pitch survives channels (telephone, noise,
 * 8 kHz sources) far better than the spectral envelope, and alone it ranks same-voice pairs
 * above different-voice pairs more often than the cepstra do (docs/analysis-speech.md).
 */
const PITCH_WEIGHT = 3;

/** Raw statistics: means of c1..c19 over the speaker's voiced frames, F0 quantiles (semitones). */
export function rawVoiceStats(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): number[] | null {
  const sum = new Float64Array(CEPS);
  const st: number[] = [];
  for (let i = 0; i < f.frames; i++) {
    // Voiced frames only: vowels carry the voice; silences and fricatives mostly the channel.
    if (frameSpeaker[i] !== speaker || !(f.pitchHz[i]! > 0)) continue;
    for (let d = 0; d < CEPS; d++) sum[d] = sum[d]! + f.mfcc[i * NUM_CEPS + d + 1]!;
    st.push(hzToSemitones(f.pitchHz[i]!));
  }
  if (st.length === 0) return null;
  return [...Array.from(sum, (v) => v / st.length), ...PITCH_QUANTILES.map((q) => quantile(st, q)!)];
}

/**
 * Cepstral and pitch statistics, each standardised by the spread of that statistic across
 * voices (VOICEPRINT_CENTER / VOICEPRINT_SCALE), so that cosine similarity compares how a
 * voice departs from the typical one rather than what all voices share.
 */
export class CepstralVoiceprint implements VoiceprintExtractor {
  readonly name = 'cepstral-pitch-stats-v1';
  readonly dimensions = CEPS + PITCH_QUANTILES.length;

  extract(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): number[] {
    const raw = rawVoiceStats(f, frameSpeaker, speaker);
    if (!raw) return new Array<number>(this.dimensions).fill(0);
    return normaliseVoiceStats(raw).map((x) => Math.round(x * 1e5) / 1e5);
  }
}

export function normaliseVoiceStats(raw: number[], center: number[] = VOICEPRINT_CENTER, scale: number[] = VOICEPRINT_SCALE): number[] {
  return raw.map((v, i) => ((v - (center[i] ?? 0)) / (scale[i] || 1)) * (i >= CEPS ? PITCH_WEIGHT : 1));
}

export function voiceprintSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return cosineSimilarity(a, b);
}

/**
 * Links each new speaker of one media to an existing entity (or null for a new one): the most
 * similar pairs first, one-to-one within the media, only at or above the threshold.
 */
export function linkSpeakers(
  newVoiceprints: number[][],
  existing: { entityId: string; voiceprint: number[] }[],
  threshold: number = SAME_SPEAKER_THRESHOLD,
): (string | null)[] {
  const pairs: { s: number; e: number; sim: number }[] = [];
  newVoiceprints.forEach((v, s) => {
    existing.forEach((x, e) => {
      if (x.voiceprint.length !== v.length) return;
      const sim = voiceprintSimilarity(v, x.voiceprint);
      if (sim >= threshold) pairs.push({ s, e, sim });
    });
  });
  pairs.sort((a, b) => b.sim - a.sim);
  const out: (string | null)[] = newVoiceprints.map(() => null);
  const usedEntities = new Set<string>();
  for (const p of pairs) {
    const id = existing[p.e]!.entityId;
    if (out[p.s] !== null || usedEntities.has(id)) continue;
    out[p.s] = id;
    usedEntities.add(id);
  }
  return out;
}
