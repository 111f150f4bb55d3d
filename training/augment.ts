// Real-world conditions for simulated recordings: recorded background noise mixed at a chosen
// signal-to-noise ratio, and real room impulse responses (the shared real-voice corpus's noise/
// folder, decoded by training/real-voices-corpus.sh into CORPUS/_noise and CORPUS/_rir). Used by
// the trainers' session simulator and the validation builder, so both draw the same conditions.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import FFT from 'fft.js';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';

const SR = 16000;

export interface Augmentation {
  noises: { name: string; x: Float32Array }[];
  rirs: { name: string; x: Float32Array }[];
}

async function loadDir(dir: string): Promise<{ name: string; x: Float32Array }[]> {
  if (!existsSync(dir)) return [];
  const out: { name: string; x: Float32Array }[] = [];
  for (const n of readdirSync(dir).filter((f) => f.endsWith('.wav')).sort()) out.push({ name: n.replace(/\.wav$/, ''), x: await decodeAudioToArray(join(dir, n)) });
  return out;
}

/** The corpus's noise recordings and room responses (empty lists where the corpus has none). */
export async function loadAugmentation(corpus: string): Promise<Augmentation> {
  const rirs = (await loadDir(join(corpus, '_rir'))).map(({ name, x }) => ({ name, x: trimRir(x) }));
  return { noises: await loadDir(join(corpus, '_noise')), rirs };
}

/** A response from its direct path on, at most 1 s long, scaled so that the direct path is 1. */
function trimRir(x: Float32Array): Float32Array {
  let peak = 0;
  for (let i = 1; i < x.length; i++) if (Math.abs(x[i]!) > Math.abs(x[peak]!)) peak = i;
  const start = Math.max(0, peak - 16);
  const y = x.slice(start, Math.min(x.length, start + SR));
  const g = 1 / (Math.abs(x[peak]!) || 1);
  for (let i = 0; i < y.length; i++) y[i] = y[i]! * g;
  return y;
}

/** Mean power of the loudest half of the signal's 20 ms frames: the speech, not its pauses. */
export function activePower(x: Float32Array): number {
  const frame = 320;
  const p: number[] = [];
  for (let a = 0; a + frame <= x.length; a += frame) {
    let s = 0;
    for (let i = a; i < a + frame; i++) s += x[i]! * x[i]!;
    p.push(s / frame);
  }
  if (p.length === 0) return 0;
  p.sort((a, b) => b - a);
  const top = p.slice(0, Math.max(1, p.length >> 1));
  return top.reduce((a, b) => a + b, 0) / top.length;
}

/**
 * The signal through a room (overlap-add FFT convolution), same length out, scaled back to the
 * dry signal's active power: the room changes the sound, not the level.
 */
export function reverberate(x: Float32Array, rir: Float32Array): Float32Array {
  let size = 1024;
  while (size < 2 * rir.length) size *= 2;
  const block = size - rir.length + 1;
  const fft = new FFT(size);
  const hIn = new Float64Array(size);
  hIn.set(rir);
  const H = fft.createComplexArray() as number[];
  fft.realTransform(H, hIn);
  fft.completeSpectrum(H);
  const y = new Float32Array(x.length);
  const buf = new Float64Array(size);
  const X = fft.createComplexArray() as number[];
  const out = fft.createComplexArray() as number[];
  for (let a = 0; a < x.length; a += block) {
    buf.fill(0);
    for (let i = 0; i < block && a + i < x.length; i++) buf[i] = x[a + i]!;
    fft.realTransform(X, buf);
    fft.completeSpectrum(X);
    for (let k = 0; k < size; k++) {
      const re = X[2 * k]! * H[2 * k]! - X[2 * k + 1]! * H[2 * k + 1]!;
      const im = X[2 * k]! * H[2 * k + 1]! + X[2 * k + 1]! * H[2 * k]!;
      X[2 * k] = re;
      X[2 * k + 1] = im;
    }
    fft.inverseTransform(out, X);
    for (let i = 0; i < size && a + i < y.length; i++) y[a + i] = y[a + i]! + out[2 * i]!;
  }
  const g = Math.sqrt(activePower(x) / (activePower(y) || 1));
  for (let i = 0; i < y.length; i++) y[i] = y[i]! * g;
  return y;
}

/**
 * Adds a stretch of a noise recording (from a random offset, looped) under the signal, in place,
 * so that the signal's active power stands `snrDb` above the noise's mean power.
 */
export function addNoise(x: Float32Array, noise: Float32Array, snrDb: number, rand: () => number): void {
  if (noise.length === 0) return;
  let pn = 0;
  for (let i = 0; i < noise.length; i++) pn += noise[i]! * noise[i]!;
  pn /= noise.length;
  const g = Math.sqrt(activePower(x) / (pn || 1) / 10 ** (snrDb / 10));
  let o = Math.floor(rand() * noise.length);
  for (let i = 0; i < x.length; i++) {
    x[i] = x[i]! + g * noise[o]!;
    if (++o >= noise.length) o = 0;
  }
}
