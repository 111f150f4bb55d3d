// Simulated recordings for training the engine's learned parts on the corpus that
// training/speaker-data.sh builds (real recorded voices, none of them in the dev set). A session
// is what the engine sees in a recording: two to four speakers' clips joined into one signal,
// each speaker through its own random channel (band limits, an EQ bump, level, sometimes noise),
// analysed exactly as analyze.ts does (VAD, modelling frames, cepstra standardised over the
// session).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { resample } from '../packages/analysis/src/audio/resample.ts';
import { analyzeFrames, type FrameFeatures } from '../packages/analysis/src/speech/features.ts';
import { detectSpeech, regionsToMask } from '../packages/analysis/src/speech/vad.ts';
import { modellingMask, standardisedCepstra } from '../packages/analysis/src/speech/diarization/speaker-frames.ts';
import { addNoise, reverberate, type Augmentation } from './augment.ts';

const SR = 16000;

export interface Speaker {
  id: string;
  files: string[];
}

/** The corpus's speakers (`speakers.json`), less the excluded ids. */
export function loadSpeakers(dir: string, exclude: ReadonlySet<string> = new Set()): Speaker[] {
  return (JSON.parse(readFileSync(join(dir, 'speakers.json'), 'utf8')) as { id: string }[])
    .filter((s) => !exclude.has(s.id))
    .map((s) => ({ id: s.id, files: readdirSync(join(dir, s.id)).filter((n) => n.endsWith('.wav')).sort().map((n) => join(dir, s.id, n)) }))
    .filter((s) => s.files.length > 0);
}

/** A second-order filter (RBJ cookbook low-pass, high-pass or peaking EQ), applied in place. */
export function biquad(x: Float32Array, kind: 'lp' | 'hp' | 'peak', f0: number, q: number, gainDb = 0): void {
  const w = (2 * Math.PI * f0) / SR;
  const cw = Math.cos(w);
  const alpha = Math.sin(w) / (2 * q);
  const amp = 10 ** (gainDb / 40);
  const [b0, b1, b2, a0, a1, a2] =
    kind === 'lp'
      ? [(1 - cw) / 2, 1 - cw, (1 - cw) / 2, 1 + alpha, -2 * cw, 1 - alpha]
      : kind === 'hp'
        ? [(1 + cw) / 2, -(1 + cw), (1 + cw) / 2, 1 + alpha, -2 * cw, 1 - alpha]
        : [1 + alpha * amp, -2 * cw, 1 - alpha * amp, 1 + alpha / amp, -2 * cw, 1 - alpha / amp];
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const y = (b0 * x[i]! + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2) / a0;
    x2 = x1;
    x1 = x[i]!;
    y2 = y1;
    y1 = y;
    x[i] = y;
  }
}

/**
 * The signal through sox: `via` a lossy format and back (telephone codec), or through effects
 * alone. Same length out as in.
 */
export function throughSox(x: Float32Array, via: string[] | null, effects: string[]): Float32Array<ArrayBuffer> {
  const f32 = ['-t', 'raw', '-e', 'floating-point', '-b', '32', '-c', '1', '-r', String(SR)];
  const run = (args: string[], input: Buffer): Buffer => {
    // -R: sox's dither is random unless told to repeat it, and the same seed must give the same audio.
    const r = spawnSync('sox', ['-R', ...args], { input, maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`sox ${args.join(' ')}: ${r.stderr.toString()}`);
    return r.stdout;
  };
  const raw = Buffer.from(x.buffer, x.byteOffset, x.byteLength);
  const out = via ? run([...via, '-', ...f32, '-'], run([...f32, '-', ...via, '-c', '1', '-', ...effects], raw)) : run([...f32, '-', ...f32, '-', ...effects], raw);
  const y = new Float32Array(x.length);
  y.set(new Float32Array(out.buffer, out.byteOffset, Math.min(x.length, Math.floor(out.byteLength / 4))));
  return y;
}

/** One analysed session: its frames, which frames the engine models, their features, and who spoke each frame (-1: nobody). */
export interface Session {
  features: FrameFeatures;
  model: Uint8Array;
  cep: Float32Array;
  owner: Int16Array;
  /** The session's 16 kHz samples, and its speech frames (the VAD's mask): for fbank exports. */
  signal: Float32Array;
  speech: Uint8Array;
}

/** Draws sessions from the corpus with a seeded random source (the same seed gives the same sessions). */
export interface SimulatorOptions {
  /**
   * Speed factors: each voice played at each factor is its own class (pitch and vocal tract
   * length move together, as another person's would). Class of voice v at factor j:
   * v * speeds.length + j. Default [1]: the voices as recorded.
   */
  speeds?: number[];
  /** Share of sessions sent through a telephone codec (GSM through sox) and through sox reverb. */
  telephoneShare?: number;
  reverbShare?: number;
  /** Voices per session and seconds of each, drawn uniformly (default 2-4 voices, 10-40 s). */
  voices?: [number, number];
  voiceSec?: [number, number];
  /**
   * Recorded noise and room responses (augment.ts): `roomShare` of the voices are each put
   * through a random real room, and `noiseShare` of the sessions get a noise recording at
   * 5-20 dB SNR (before the telephone codec, as a room's noise would be).
   */
  real?: Augmentation;
  roomShare?: number;
  noiseShare?: number;
  /**
   * Share of the voices recorded at 8 kHz: each is taken down to 8 kHz and back, so that nothing
   * of it lies above 4 kHz, as an IVR prompt or a telephone recording played among wide-band
   * voices has (the per-voice channel's low-pass is gentle, the session's telephone codec takes
   * every voice at once). Default 0: no random number is drawn, so earlier exports stay the same.
   */
  narrowbandShare?: number;
}

/** Decoded clips, shared by every simulator of the process (keyed by speed and path). */
const CLIPS = new Map<string, Float32Array>();

export class SessionSimulator {
  private readonly clips = CLIPS;
  private readonly speakers: Speaker[];
  private readonly rand: () => number;
  private readonly augment: boolean;
  private readonly speeds: number[];
  private readonly telephoneShare: number;
  private readonly reverbShare: number;
  private readonly options: SimulatorOptions;
  constructor(speakers: Speaker[], rand: () => number, augment = true, options: SimulatorOptions = {}) {
    this.speakers = speakers;
    this.rand = rand;
    this.augment = augment;
    this.speeds = options.speeds ?? [1];
    this.telephoneShare = options.telephoneShare ?? 0;
    this.reverbShare = options.reverbShare ?? 0;
    this.options = options;
  }

  /** Number of classes (voices times speed factors). */
  get classes(): number {
    return this.speakers.length * this.speeds.length;
  }

  /** A random channel for one voice in one session: band limits, an EQ bump, a level change. */
  private channel(x: Float32Array): void {
    const rand = this.rand;
    if (!this.augment) return;
    if (rand() < 0.5) biquad(x, 'hp', 80 + rand() * 320, 0.707);
    if (rand() < 0.5) {
      // Two poles more: a steeper band edge, as a telephone or radio channel has.
      biquad(x, 'lp', 3000 + rand() * 4000, 0.707);
      biquad(x, 'lp', 3000 + rand() * 4000, 0.707);
    }
    if (rand() < 0.7) biquad(x, 'peak', 300 * 2 ** (rand() * 4), 1, (rand() * 2 - 1) * 8);
    const gain = 10 ** (((rand() * 2 - 1) * 8) / 20);
    for (let i = 0; i < x.length; i++) x[i] = x[i]! * gain;
  }

  /** A clip at 16 kHz mono, decoded once (sessions draw the same clips again and again). */
  private async clip(path: string, speed = 1): Promise<Float32Array> {
    const key = `${speed}:${path}`;
    let c = this.clips.get(key);
    if (!c) {
      // Played `speed` times faster: read as if recorded at SR * speed, resampled to SR.
      c = speed === 1 ? await decodeAudioToArray(path) : resample(await this.clip(path), Math.round(SR * speed), SR);
      this.clips.set(key, c);
    }
    return c;
  }

  async next(): Promise<Session> {
    const { rand, speakers } = this;
    const [vMin, vMax] = this.options.voices ?? [2, 4];
    const [sMin, sMax] = this.options.voiceSec ?? [10, 40];
    const k = vMin + Math.floor(rand() * (vMax - vMin + 1));
    const chosen = new Set<number>();
    while (chosen.size < Math.min(k, speakers.length)) chosen.add(Math.floor(rand() * speakers.length));
    const blocks: { spk: number; x: Float32Array }[] = [];
    for (const si of chosen) {
      const sp = speakers[si]!;
      const j = this.speeds.length > 1 ? Math.floor(rand() * this.speeds.length) : 0;
      const speed = this.speeds[j]!;
      const target = (sMin + rand() * (sMax - sMin)) * SR;
      const parts: Float32Array[] = [];
      let n = 0;
      let guard = 0;
      while (n < target && guard++ < 400) {
        const c = await this.clip(sp.files[Math.floor(rand() * sp.files.length)]!, speed);
        parts.push(c, new Float32Array(Math.round(SR * (0.05 + rand() * 0.3))));
        n += c.length;
      }
      const x = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
      let at = 0;
      for (const p of parts) {
        x.set(p, at);
        at += p.length;
      }
      this.channel(x);
      const nb = this.options.narrowbandShare ?? 0;
      if (nb > 0 && rand() < nb) x.set(resample(resample(x, SR, 8000), 8000, SR).subarray(0, x.length));
      const real = this.options.real;
      if (real && real.rirs.length > 0 && rand() < (this.options.roomShare ?? 0)) x.set(reverberate(x, real.rirs[Math.floor(rand() * real.rirs.length)]!.x));
      blocks.push({ spk: si * this.speeds.length + j, x });
    }
    const total = blocks.reduce((a, b) => a + b.x.length, 0) + SR * blocks.length;
    const sig = new Float32Array(total);
    const owner = new Int16Array(Math.ceil(total / 160) + 1).fill(-1);
    let at = 0;
    for (const b of blocks) {
      sig.set(b.x, at);
      owner.fill(b.spk, Math.floor(at / 160), Math.floor((at + b.x.length) / 160));
      at += b.x.length + SR;
    }
    // Sometimes a noise floor under the whole session (-50 to -35 dBFS).
    if (this.augment && rand() < 0.3) {
      const amp = 10 ** ((-50 + rand() * 15) / 20);
      for (let i = 0; i < sig.length; i++) sig[i] = sig[i]! + amp * (rand() * 2 - 1);
    }
    const recorded = this.options.real;
    if (recorded && recorded.noises.length > 0 && rand() < (this.options.noiseShare ?? 0)) addNoise(sig, recorded.noises[Math.floor(rand() * recorded.noises.length)]!.x, 5 + rand() * 15, rand);
    if (this.telephoneShare > 0 && rand() < this.telephoneShare) sig.set(throughSox(sig, ['-t', 'gsm', '-r', '8000'], ['sinc', '300-3400', 'rate', '8000']));
    else if (this.reverbShare > 0 && rand() < this.reverbShare) sig.set(throughSox(sig, null, ['reverb', String(Math.round(20 + rand() * 60)), '50', String(Math.round(30 + rand() * 70))]));
    const features = analyzeFrames(sig);
    const mask = regionsToMask(detectSpeech(features), features.frames);
    const model = modellingMask(features, mask);
    return { features, model, cep: standardisedCepstra(features, model), owner, signal: sig, speech: mask };
  }
}
