// Kaldi-compatible log mel filterbank features ("fbank"), the input most published speaker
// embedding networks read (WeSpeaker, 3D-Speaker, NeMo's TitaNet): frames of 25 ms every 10 ms,
// DC removed, pre-emphasis 0.97, a Povey or Hamming window, a 512-point power spectrum, triangular
// bands evenly spaced on the mel scale (1127 ln(1 + f/700)) from 20 Hz to 8 kHz, and the log of
// each band's energy (floored at float32's epsilon). The arithmetic follows Kaldi's
// compute-fbank-feats (and torchaudio.compliance.kaldi.fbank) with dither 0 and snip_edges: frame
// i covers samples [160 i, 160 i + 400), zero-padded past the end; the engine's own frame i
// (features.ts) is centred 7.5 ms earlier, close enough for windows of a second and more.
//
// Computed only when a speaker embedding model brought by the deployment asks for it
// (onnx-embedding.ts), streaming like FrameAnalyzer, and kept as 16-bit fixed point (1/256 of a
// natural log unit): 80 bands of an hour of audio take 58 MB instead of 115.
import FFT from 'fft.js';
import { HOP, SAMPLE_RATE, type Fbank } from './features.ts';
import { SlidingFrames } from './sliding-frames.ts';

export type { Fbank };

const FRAME = 400;
const NFFT = 512;
const PREEMPH = 0.97;
const LOW_HZ = 20;
const EPS = 1.1920928955078125e-7;
/** Fixed-point scale of the stored log energies. */
export const FBANK_SCALE = 256;

export type FbankWindow = 'povey' | 'hamming';

export interface FbankOptions {
  bins: number;
  window: FbankWindow;
  /** Samples are multiplied by this first (WeSpeaker's recipes read int16-scaled audio: 32768). */
  sampleScale: number;
}


function mel(hz: number): number {
  return 1127 * Math.log(1 + hz / 700);
}

/** Per band, its first FFT bin and the weights of the bins from there (Kaldi's MelBanks). */
function melBank(bins: number): { first: number; weights: Float64Array }[] {
  const lo = mel(LOW_HZ);
  const hi = mel(SAMPLE_RATE / 2);
  const delta = (hi - lo) / (bins + 1);
  const out: { first: number; weights: Float64Array }[] = [];
  for (let m = 0; m < bins; m++) {
    const left = lo + m * delta;
    const centre = left + delta;
    const right = centre + delta;
    const w: number[] = [];
    let first = -1;
    for (let k = 0; k < NFFT / 2; k++) {
      const x = mel((k * SAMPLE_RATE) / NFFT);
      const v = x > left && x < right ? (x <= centre ? (x - left) / (centre - left) : (right - x) / (right - centre)) : 0;
      if (v > 0 && first < 0) first = k;
      if (first >= 0) w.push(v);
    }
    while (w.length && w[w.length - 1] === 0) w.pop();
    out.push({ first: Math.max(0, first), weights: Float64Array.from(w) });
  }
  return out;
}

function windowFunction(kind: FbankWindow): Float64Array {
  const w = new Float64Array(FRAME);
  for (let i = 0; i < FRAME; i++) {
    const c = Math.cos((2 * Math.PI * i) / (FRAME - 1));
    w[i] = kind === 'povey' ? (0.5 - 0.5 * c) ** 0.85 : 0.54 - 0.46 * c;
  }
  return w;
}

export class FbankAnalyzer {
  private readonly fft = new FFT(NFFT);
  private readonly spectrum: number[];
  private readonly input = new Float64Array(NFFT);
  private readonly bank: { first: number; weights: Float64Array }[];
  private readonly window: Float64Array;
  private data: Int16Array;
  private readonly framing = new SlidingFrames(FRAME, HOP, (frame) => this.analyse(frame));
  private frames = 0;
  private readonly options: FbankOptions;

  constructor(options: FbankOptions, expectedSamples?: number) {
    this.options = options;
    if (!Number.isInteger(options.bins) || options.bins < 10 || options.bins > 128) throw new RangeError('fbank: bins must be an integer from 10 to 128');
    this.bank = melBank(options.bins);
    this.window = windowFunction(options.window);
    this.spectrum = this.fft.createComplexArray() as number[];
    this.data = new Int16Array(options.bins * (expectedSamples ? Math.ceil(expectedSamples / HOP) : 4096));
  }

  /** Feeds 16 kHz mono samples. */
  push(chunk: Float32Array): void {
    this.framing.push(chunk);
  }

  /** One row per 10 ms of input, as FrameAnalyzer: the last frames read zeros past the end. */
  finish(): Fbank {
    this.framing.finish();
    const n = this.frames * this.options.bins;
    return { bins: this.options.bins, data: n === this.data.length ? this.data : this.data.slice(0, n) };
  }

  private analyse(frame: Float32Array): void {
    const x = this.input;
    const scale = this.options.sampleScale;
    let mean = 0;
    for (let i = 0; i < FRAME; i++) mean += frame[i]!;
    mean = (mean / FRAME) * scale;
    for (let i = 0; i < FRAME; i++) x[i] = frame[i]! * scale - mean;
    for (let i = FRAME - 1; i > 0; i--) x[i] = x[i]! - PREEMPH * x[i - 1]!;
    x[0] = x[0]! * (1 - PREEMPH);
    for (let i = 0; i < FRAME; i++) x[i] = x[i]! * this.window[i]!;
    x.fill(0, FRAME);
    this.fft.realTransform(this.spectrum, x);
    const bins = this.options.bins;
    if ((this.frames + 1) * bins > this.data.length) {
      const next = new Int16Array(Math.max((this.frames + 1) * bins, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    const row = this.data.subarray(this.frames * bins, (this.frames + 1) * bins);
    for (let m = 0; m < this.bank.length; m++) {
      const { first, weights } = this.bank[m]!;
      let e = 0;
      for (let j = 0; j < weights.length; j++) {
        const k = first + j;
        const re = this.spectrum[2 * k]!;
        const im = this.spectrum[2 * k + 1]!;
        e += weights[j]! * (re * re + im * im);
      }
      const v = Math.round(Math.log(Math.max(e, EPS)) * FBANK_SCALE);
      row[m] = Math.max(-32768, Math.min(32767, v));
    }
    this.frames++;
  }
}
