// Voiceprints: a fixed-length vector per speaker, compared with cosine similarity. The extractor
// sits behind an interface so that a neural speaker embedding can replace the cepstral statistics
// without touching diarization or entity linking.
import { NUM_CEPS, type FrameFeatures } from './features.ts';
import { hzToSemitones } from './pitch.ts';
import { cosineSimilarity, quantile } from './stats.ts';

export interface VoiceprintExtractor {
  /** Name and version recorded in MediaAnalysis.method (voiceprints of different names do not compare). */
  readonly name: string;
  readonly dimensions: number;
  /** Voiceprint of the frames where `frameSpeaker[i] === speaker`. */
  extract(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): number[];
}

const CEPS = NUM_CEPS - 1; // c1..c19

/**
 * Cepstral statistics: means and standard deviations of c1..c19 over the speaker's frames, plus
 * the median and spread of the voiced pitch. Each part is scaled to roughly unit spread across
 * voices, then centred on a typical voice, so that cosine similarity compares how a voice
 * differs from the typical one rather than what all voices share.
 */
export class CepstralVoiceprint implements VoiceprintExtractor {
  readonly name = 'cepstral-stats-v1';
  readonly dimensions = 2 * CEPS + 2;

  extract(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): number[] {
    const sum = new Float64Array(CEPS);
    const sq = new Float64Array(CEPS);
    const st: number[] = [];
    let n = 0;
    for (let i = 0; i < f.frames; i++) {
      if (frameSpeaker[i] !== speaker) continue;
      n++;
      for (let d = 0; d < CEPS; d++) {
        const v = f.mfcc[i * NUM_CEPS + d + 1]!;
        sum[d] = sum[d]! + v;
        sq[d] = sq[d]! + v * v;
      }
      if (f.pitchHz[i]! > 0) st.push(hzToSemitones(f.pitchHz[i]!));
    }
    const out: number[] = [];
    for (let d = 0; d < CEPS; d++) out.push(n ? sum[d]! / n : 0);
    for (let d = 0; d < CEPS; d++) out.push(n ? Math.sqrt(Math.max(0, sq[d]! / n - (sum[d]! / n) ** 2)) : 0);
    const med = quantile(st, 0.5);
    const spread = st.length ? quantile(st, 0.9)! - quantile(st, 0.1)! : 0;
    out.push(med ?? 0, spread);
    return normaliseVoiceprint(out).map((x) => Math.round(x * 1e5) / 1e5);
  }
}

/** Typical values and spreads of the raw statistics (see docs/analysis-speech.md for their origin). */
export const VOICEPRINT_CENTER: number[] = [];
export const VOICEPRINT_SCALE: number[] = [];

function normaliseVoiceprint(raw: number[]): number[] {
  return raw.map((v, i) => (v - (VOICEPRINT_CENTER[i] ?? 0)) / (VOICEPRINT_SCALE[i] ?? 1));
}

export function voiceprintSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return cosineSimilarity(a, b);
}

/** Cosine similarity at or above which two voiceprints from different recordings are one person. */
export const SAME_SPEAKER_THRESHOLD = 0.8;

/**
 * Links each new speaker of one media to an existing entity (or null for a new one): the most
 * similar pairs first, one-to-one within the media, only above the threshold.
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
