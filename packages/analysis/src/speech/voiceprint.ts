// Voiceprints: a fixed-length vector per speaker, compared with cosine similarity. The extractor
// sits behind an interface so that another voiceprint can replace the shipped one (the trained
// voiceprint of trained-voiceprint.ts since issue 38 §4) without touching diarization or entity
// linking. The cepstral statistics here were the shipped voiceprint until then; they stay as a
// measured alternative (`eval --voiceprint cepstral`), and linkSpeakers serves every extractor.
import { NUM_CEPS, type FrameFeatures } from './features.ts';
import { hzToSemitones } from './pitch.ts';
import { cosineSimilarity, quantilesInPlace } from './stats.ts';
import { VOICEPRINT_CENTER, VOICEPRINT_SCALE } from './voiceprint-calibration.ts';

/**
 * The cosine at or above which two voiceprints of the shipped extractor (the trained voiceprint,
 * trained-voiceprint.ts) are one voice (issue 38 §4: linking is conservative, since a wrong merge
 * costs a user more than a missed link). It is the lowest threshold of the sweep over the
 * speaker-disjoint folds (each fold analysed with its own LDA and voiceprint model, neither of
 * which heard its voices) at which pairwise precision is at least 0.95 on every fold: 24 links
 * made, none wrong, 15 % of the true links (docs/speech-validation.md, "Issue 38: a trained
 * identity voiceprint"). The cepstral voiceprint below needed 0.98 for the same precision and made
 * 11 links there (7 %); the dev set's F1-best threshold for it (DEV_SET_F1_THRESHOLD, 0.71)
 * linked 44 wrong pairs across the AMI excerpts.
 */
export const SAME_SPEAKER_THRESHOLD = 0.92;

export interface VoiceprintExtractor {
  /** Name and version recorded in MediaAnalysis.method (voiceprints of different names do not compare). */
  readonly name: string;
  readonly dimensions: number;
  /** Voiceprint of the frames where `frameSpeaker[i] === speaker`. */
  extract(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): number[];
}

// The mel filterbank and DCT of features.ts (40 triangular bands evenly spaced in mel over
// 60-7600 Hz, c_k = sqrt(2/40) * sum_b cos(pi k (b + 0.5) / 40) * logMel_b). features.ts keeps
// them private; voiceprint.test.ts checks that a tone still peaks in the band computed here.
const MEL_BANDS = 40;
const MEL_LO_HZ = 60;
const MEL_HI_HZ = 7600;
/**
 * The band every source of a voice shares: the dev set mixes 8 kHz IVR prompts, 44.1 kHz
 * recordings and a 300-3400 Hz telephone channel, and means of full-band cepstra mostly tell
 * those channels apart (a voice heard on two channels looked like two voices).
 */
const VOICE_BAND_LO_HZ = 300;
const VOICE_BAND_HI_HZ = 3400;
/** Cosine coefficients 1..SHAPE_CEPS of the in-band log-mel shape (12 was best on the dev set; 10-16 are close). */
const SHAPE_CEPS = 12;
const PITCH_QUANTILES = [0.1, 0.5, 0.9];
/**
 * Weight of the pitch part after normalisation: pitch survives channels well, but once the
 * spectral part is channel-robust too, ×2 balances them best (×3 was the optimum with full-band
 * cepstra; docs/analysis-speech.md).
 */
const PITCH_WEIGHT = 2;

const melOf = (hz: number): number => 2595 * Math.log10(1 + hz / 700);
const hzOfMel = (mel: number): number => 700 * (10 ** (mel / 2595) - 1);

/** Lower edge, centre and upper edge (Hz) of each mel band of features.ts. */
function melBandsHz(): { lo: number; centre: number; hi: number }[] {
  const lo = melOf(MEL_LO_HZ);
  const step = (melOf(MEL_HI_HZ) - lo) / (MEL_BANDS + 1);
  return Array.from({ length: MEL_BANDS }, (_, b) => ({ lo: hzOfMel(lo + step * b), centre: hzOfMel(lo + step * (b + 1)), hi: hzOfMel(lo + step * (b + 2)) }));
}

const MEL_BANDS_HZ = melBandsHz();

/** Mel bands whose whole triangle lies within [loHz, hiHz]. */
export function bandsWithin(loHz: number, hiHz: number): number[] {
  return MEL_BANDS_HZ.flatMap((band, b) => (band.lo >= loHz && band.hi <= hiHz ? [b] : []));
}

export const VOICE_BANDS: readonly number[] = bandsWithin(VOICE_BAND_LO_HZ, VOICE_BAND_HI_HZ);
export const VOICE_BAND_CENTRES_HZ: readonly number[] = VOICE_BANDS.map((b) => MEL_BANDS_HZ[b]!.centre);

/**
 * Matrix (rows 1..k, columns c1..c19) taking a frame's cepstra to the cosine coefficients of its
 * log-mel shape restricted to `bands`: the smoothed log-mel spectrum is rebuilt from the cepstra
 * (the transpose of features.ts' DCT), cut to the bands and transformed again. c0 and the
 * frame's level drop out, because DCT rows 1..k sum to zero over the kept bands. Linear, so the
 * mean over frames can be taken before or after.
 */
export function bandShapeProjection(bands: readonly number[], k: number): number[][] {
  const n = bands.length;
  return Array.from({ length: k }, (_, r) =>
    Array.from({ length: NUM_CEPS - 1 }, (_, c) => {
      let s = 0;
      for (let j = 0; j < n; j++) {
        const redct = Math.cos((Math.PI * (r + 1) * (j + 0.5)) / n) * Math.sqrt(2 / n);
        const inverse = Math.cos((Math.PI * (c + 1) * (bands[j]! + 0.5)) / MEL_BANDS) * Math.sqrt(2 / MEL_BANDS);
        s += redct * inverse;
      }
      return s;
    }),
  );
}

const SHAPE = bandShapeProjection(VOICE_BANDS, SHAPE_CEPS);

/**
 * Log-mel levels (natural log, frame mean removed) of the voice bands rebuilt from one frame's
 * c1..c19: the picture SHAPE summarises, used by the test that checks the band layout.
 */
export function voiceBandShape(f: FrameFeatures, frame: number): number[] {
  const level = VOICE_BANDS.map((b) => {
    let s = 0;
    for (let c = 1; c < NUM_CEPS; c++) s += f.mfcc[frame * NUM_CEPS + c]! * Math.cos((Math.PI * c * (b + 0.5)) / MEL_BANDS) * Math.sqrt(2 / MEL_BANDS);
    return s;
  });
  const mean = level.reduce((a, v) => a + v, 0) / level.length;
  return level.map((v) => v - mean);
}

/** Raw statistics: in-band shape of the mean c1..c19 over the speaker's voiced frames, F0 quantiles (semitones). */
export function rawVoiceStats(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): number[] | null {
  const sum = new Float64Array(NUM_CEPS - 1);
  let n = 0;
  for (let i = 0; i < f.frames; i++) if (frameSpeaker[i] === speaker && f.pitchHz[i]! > 0) n++;
  if (n === 0) return null;
  // Diarization extracts a voiceprint per cluster at every merge round: the pitches go into a
  // reused buffer rather than a fresh array each time.
  if (pitchScratch.length < n) pitchScratch = new Float64Array(Math.max(n, pitchScratch.length * 2));
  const st = pitchScratch.subarray(0, n);
  let v = 0;
  for (let i = 0; i < f.frames; i++) {
    // Voiced frames only: vowels carry the voice; silences and fricatives mostly the channel.
    if (frameSpeaker[i] !== speaker || !(f.pitchHz[i]! > 0)) continue;
    for (let d = 0; d < NUM_CEPS - 1; d++) sum[d] = sum[d]! + f.mfcc[i * NUM_CEPS + d + 1]!;
    st[v++] = hzToSemitones(f.pitchHz[i]!);
  }
  const shape = SHAPE.map((row) => row.reduce((a, w, d) => a + w * sum[d]!, 0) / n);
  return [...shape, ...quantilesInPlace(st, PITCH_QUANTILES)];
}

let pitchScratch = new Float64Array(0);

/**
 * Spectral-shape and pitch statistics, each standardised by the spread of that statistic across
 * voices (VOICEPRINT_CENTER / VOICEPRINT_SCALE), so that cosine similarity compares how a
 * voice departs from the typical one rather than what all voices share.
 */
export class CepstralVoiceprint implements VoiceprintExtractor {
  // v2: 300-3400 Hz shape, 15 numbers. v1 (full-band c1..c19 + pitch) had 22, so linkSpeakers'
  // length check keeps stored v1 voiceprints from ever being compared with v2 ones.
  readonly name = 'band-cepstral-pitch-stats-v2';
  readonly dimensions = SHAPE_CEPS + PITCH_QUANTILES.length;

  extract(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number): number[] {
    const raw = rawVoiceStats(f, frameSpeaker, speaker);
    if (!raw) return new Array<number>(this.dimensions).fill(0);
    return normaliseVoiceStats(raw).map((x) => Math.round(x * 1e5) / 1e5);
  }
}

export function normaliseVoiceStats(raw: number[], center: number[] = VOICEPRINT_CENTER, scale: number[] = VOICEPRINT_SCALE): number[] {
  return raw.map((v, i) => ((v - (center[i] ?? 0)) / (scale[i] || 1)) * (i >= SHAPE_CEPS ? PITCH_WEIGHT : 1));
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
