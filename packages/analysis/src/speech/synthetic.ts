// Synthetic speech-like audio with known speakers and turns, for tests and benchmarks (no
// recorded audio ships with the project). A voice is a glottal pulse train at its own F0
// (declination, jitter, per-syllable intonation) through a cascade of formant resonators scaled
// by its own vocal-tract length, with syllable-rate amplitude modulation and a little aspiration
// noise; vowels change every syllable, each starting with a short burst of noise (a consonant).
// Deterministic for a given seed.

import { seededRandom } from '../behavior/stats.ts';

export interface SyntheticVoice {
  /** Mean F0 in Hz. */
  f0: number;
  /** Formant scale (1 = adult male average; ~1.17 female): shorter tracts, higher formants. */
  formantScale: number;
  /** Level of active speech in dBFS. */
  levelDb?: number;
}

export interface SyntheticTurn {
  speaker: number;
  start: number;
  end: number;
}

const VOWELS: [number, number, number][] = [
  [730, 1090, 2440], // a
  [530, 1840, 2480], // e
  [270, 2290, 3010], // i
  [570, 840, 2410], // o
  [300, 870, 2240], // u
  [660, 1720, 2410], // ae
];
const BANDWIDTHS = [80, 100, 140];
/** Consonant bursts: length, level against the vowels' source, and their own seed. */
const BURST_SEC = 0.05;
const BURST_LEVEL = 0.1;
const BURST_SEED = 0x5eed;

/** Small deterministic PRNG (mulberry32), the same one the behavior stage's shuffled baselines use. */
export const prng = seededRandom;

interface Resonator {
  b0: number;
  a1: number;
  a2: number;
}

function resonator(freq: number, bw: number, rate: number): Resonator {
  const r = Math.exp((-Math.PI * bw) / rate);
  const a1 = -2 * r * Math.cos((2 * Math.PI * freq) / rate);
  const a2 = r * r;
  return { b0: 1 + a1 + a2, a1, a2 };
}

/** Renders one voice speaking from `start` to `end` (seconds) into `out` (added); returns the syllables rendered. */
export function renderSpeech(out: Float32Array, rate: number, voice: SyntheticVoice, start: number, end: number, rand: () => number): number {
  const s0 = Math.max(0, Math.round(start * rate));
  const s1 = Math.min(out.length, Math.round(end * rate));
  const gain = 10 ** (((voice.levelDb ?? -26) + 9) / 20); // the pulse train through the filters sits ~9 dB low
  const state = [0, 0, 0, 0, 0, 0];
  // Consonants: a burst of high-passed noise at each syllable's onset, from a source of its own
  // so that the vowels, timings and syllable counts of a seed stay what they were. Without them a
  // steady vowel-only voice is heard by Silero VAD as background after a few seconds.
  const consonants = seededRandom(s0 * 2654435761 + BURST_SEED);
  let burstGain = 0;
  let lastNoise = 0;
  let phase = 0;
  let syllableEnd = s0;
  let syllableStart = s0;
  let res: Resonator[] = [];
  let contour = 0;
  let phraseStart = s0;
  let syllables = 0;
  for (let i = s0; i < s1; i++) {
    if (i >= syllableEnd) {
      // Next syllable: 120-300 ms, sometimes after a short pause that starts a new phrase.
      const pause = rand() < 0.15;
      syllableStart = i + (pause ? Math.round(rate * (0.05 + 0.15 * rand())) : 0);
      if (pause) phraseStart = syllableStart;
      if (syllableStart < s1) syllables++;
      syllableEnd = syllableStart + Math.round(rate * (0.12 + 0.18 * rand()));
      const v = VOWELS[Math.floor(rand() * VOWELS.length)]!;
      res = v.map((fr, k) => resonator(fr * voice.formantScale * (0.95 + 0.1 * rand()), BANDWIDTHS[k]!, rate));
      contour = (rand() - 0.5) * 0.15;
      burstGain = BURST_LEVEL * (0.5 + consonants());
    }
    if (i < syllableStart) continue;
    const progress = (i - syllableStart) / Math.max(1, syllableEnd - syllableStart);
    const env = Math.sin(Math.PI * progress) ** 0.7;
    // Declination: F0 falls ~8 % over a phrase and resets at the next pause.
    const decl = 1 - 0.08 * Math.min(1, (i - phraseStart) / (2 * rate));
    const f0 = voice.f0 * decl * (1 + contour * (progress - 0.5)) * (1 + 0.01 * (rand() - 0.5));
    phase += f0 / rate;
    let src = 0;
    if (phase >= 1) {
      phase -= 1;
      src = 1;
    }
    src += 0.02 * (rand() - 0.5);
    let y = src;
    for (let k = 0; k < res.length; k++) {
      const r = res[k]!;
      const o = r.b0 * y - r.a1 * state[2 * k]! - r.a2 * state[2 * k + 1]!;
      state[2 * k + 1] = state[2 * k]!;
      state[2 * k] = o;
      y = o;
    }
    const since = (i - syllableStart) / rate;
    let burst = 0;
    if (since < BURST_SEC) {
      const n = consonants() * 2 - 1;
      burst = (n - lastNoise) * burstGain * (1 - since / BURST_SEC);
      lastNoise = n;
    }
    out[i] = out[i]! + gain * (env * y + burst);
  }
  return syllables;
}

/** Adds faint white noise (a room) at `levelDb` dBFS RMS. */
export function addNoise(out: Float32Array, levelDb: number, rand: () => number): void {
  const a = 10 ** (levelDb / 20) * Math.sqrt(3);
  for (let i = 0; i < out.length; i++) out[i] = out[i]! + a * (2 * rand() - 1);
}

/**
 * A conversation: speakers alternate in turns of `turnSec` (randomised +-40 %) separated by
 * gaps of 0.2-0.8 s. Returns the audio and the reference turns.
 */
export function synthConversation(
  voices: SyntheticVoice[],
  durationSec: number,
  options: { rate?: number; seed?: number; turnSec?: number; noiseDb?: number; order?: number[] } = {},
): { samples: Float32Array; rate: number; turns: SyntheticTurn[]; syllables: number[] } {
  const rate = options.rate ?? 16000;
  const rand = prng(options.seed ?? 1);
  const samples = new Float32Array(Math.round(durationSec * rate));
  const turns: SyntheticTurn[] = [];
  const syllables = voices.map(() => 0);
  let t = 0.5;
  let k = 0;
  while (t < durationSec - 1) {
    const speaker = options.order ? options.order[k % options.order.length]! : k % voices.length;
    const len = Math.min(durationSec - 0.5 - t, (options.turnSec ?? 4) * (0.6 + 0.8 * rand()));
    if (len < 0.5) break;
    syllables[speaker] = syllables[speaker]! + renderSpeech(samples, rate, voices[speaker]!, t, t + len, rand);
    turns.push({ speaker, start: t, end: t + len });
    t += len + 0.2 + 0.6 * rand();
    k++;
  }
  addNoise(samples, options.noiseDb ?? -70, rand);
  return { samples, rate, turns, syllables };
}

/**
 * The service's upload fixture (packages/server, packages/client and packages/dashboard tests): two
 * voices taking turns of `turnSec` every `turnSec + gapSec` from 0 s, the first voice first, over
 * faint noise. Rendered as speech, with consonants, so that the trained speech detector hears it
 * (a bare harmonic buzz it does not). Voices above 180 Hz get a woman's formants, 140-180 Hz between.
 */
export function alternatingTwoVoices(
  seconds: number,
  options: { f0s?: [number, number]; turnSec?: number; gapSec?: number; rate?: number; seed?: number } = {},
): Float32Array {
  const rate = options.rate ?? 16000;
  const turn = options.turnSec ?? 3.5;
  const step = turn + (options.gapSec ?? 0.5);
  const out = new Float32Array(Math.round(seconds * rate));
  const rand = prng(options.seed ?? 7);
  const voices: SyntheticVoice[] = (options.f0s ?? [120, 210]).map((f0) => ({ f0, formantScale: f0 > 180 ? 1.2 : f0 > 140 ? 1.1 : 1 }));
  for (let k = 0; k * step < seconds; k++) renderSpeech(out, rate, voices[k % 2]!, k * step, Math.min(seconds, k * step + turn), rand);
  addNoise(out, -70, rand);
  return out;
}
