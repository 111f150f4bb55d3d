// Streaming frame analysis at 100 frames/s: one 1024-point FFT of each 32 ms frame feeds the
// loudness, the speech-band level, the MFCCs and (through the autocorrelation) the YIN pitch.
// Only these per-frame numbers are kept, never the samples, so memory grows by ~100 bytes per
// 10 ms whatever the input length.
import FFT from 'fft.js';
import { GrowableF32 } from './growable.ts';
import { yinFromAutocorr } from './pitch.ts';
import { SlidingFrames } from './sliding-frames.ts';

export const SAMPLE_RATE = 16000;
export const HOP = 160; // 10 ms
export const FRAME_SEC = HOP / SAMPLE_RATE;
const WIN = 512; // 32 ms
const NFFT = 1024; // zero-padded twice the window: finer mel resolution
// Pitch runs on the frame decimated to 8 kHz (F0 needs no more) with its own half-size FFT,
// zero-padded twice so that the autocorrelation does not wrap around.
const PITCH_DECIMATION = 2;
const PITCH_WIN = WIN / PITCH_DECIMATION;
const PITCH_NFFT = 2 * PITCH_WIN;
const MEL_BANDS = 40;
export const NUM_CEPS = 20; // c0..c19
const MEL_LO_HZ = 60;
const MEL_HI_HZ = 7600;
const BAND_LO_HZ = 250; // the speech band for voice activity: hum and rumble do not count
const BAND_HI_HZ = 4000;
// Frames are centred on i * 10 ms + 5 ms: the stream is preceded by this many zeros.
const LEAD_IN = WIN / 2 - HOP / 2;

/** Log mel energies per frame (frames x bins, row-major, value * FBANK_SCALE of fbank.ts). */
export interface Fbank {
  bins: number;
  data: Int16Array;
}

/** Per-frame features of a whole recording (frame i covers [i, i+1) * 10 ms). */
export interface FrameFeatures {
  frames: number;
  /** Level of the Hann-windowed frame, dBFS (a full-scale sine reads about -3 dB). */
  energyDb: Float32Array;
  /** Level within 250-4000 Hz, dBFS. */
  bandDb: Float32Array;
  /** NUM_CEPS cepstral coefficients per frame, row-major. */
  mfcc: Float32Array;
  /** F0 in Hz, 0 when unvoiced. */
  pitchHz: Float32Array;
  periodicity: Float32Array;
  /** Share of the speech-band power in the strongest 3 bins: near 1 for pure tones (beeps). */
  tonality: Float32Array;
  /** Kaldi-style log mel energies, kept only for a speaker embedding model that reads them (fbank.ts). */
  fbank?: Fbank;
}

function melOf(hz: number): number {
  return 2595 * Math.log10(1 + hz / 700);
}
function hzOfMel(mel: number): number {
  return 700 * (10 ** (mel / 2595) - 1);
}

interface MelBand {
  first: number;
  weights: Float32Array;
}

function buildMelBank(): MelBand[] {
  const lo = melOf(MEL_LO_HZ);
  const hi = melOf(MEL_HI_HZ);
  const edges: number[] = [];
  for (let i = 0; i < MEL_BANDS + 2; i++) edges.push((hzOfMel(lo + ((hi - lo) * i) / (MEL_BANDS + 1)) * NFFT) / SAMPLE_RATE);
  const bank: MelBand[] = [];
  for (let b = 0; b < MEL_BANDS; b++) {
    const l = edges[b]!;
    const c = edges[b + 1]!;
    const r = edges[b + 2]!;
    const first = Math.ceil(l);
    const last = Math.floor(r);
    const weights = new Float32Array(Math.max(0, last - first + 1));
    for (let k = first; k <= last; k++) weights[k - first] = k <= c ? (k - l) / (c - l) : (r - k) / (r - c);
    bank.push({ first, weights });
  }
  return bank;
}

function buildDct(): Float32Array {
  const m = new Float32Array(NUM_CEPS * MEL_BANDS);
  for (let c = 0; c < NUM_CEPS; c++)
    for (let b = 0; b < MEL_BANDS; b++) m[c * MEL_BANDS + b] = Math.cos((Math.PI * c * (b + 0.5)) / MEL_BANDS) * Math.sqrt(2 / MEL_BANDS);
  return m;
}

export class FrameAnalyzer {
  private readonly fft = new FFT(NFFT);
  private readonly hann = new Float32Array(WIN);
  private readonly melBank = buildMelBank();
  private readonly dct = buildDct();
  private readonly windowed = new Float64Array(NFFT);
  private readonly spectrum: number[];
  private readonly power = new Float64Array(NFFT);
  private readonly pitchFft = new FFT(PITCH_NFFT);
  private readonly acSpectrum: number[];
  private readonly acInput = new Float64Array(PITCH_NFFT);
  private readonly acPower = new Float64Array(PITCH_NFFT);
  private readonly autocorr = new Float64Array(PITCH_WIN);
  private readonly prefix = new Float64Array(PITCH_WIN + 1);
  private readonly pitchFrame = new Float32Array(PITCH_WIN);
  private readonly logMel = new Float64Array(MEL_BANDS);
  private readonly frame = new Float32Array(WIN);
  private readonly framing = new SlidingFrames(WIN, HOP, (frame) => this.analyse(frame), LEAD_IN);
  private readonly hannPower: number;
  private readonly out: Record<'energyDb' | 'bandDb' | 'mfcc' | 'pitchHz' | 'periodicity' | 'tonality', GrowableF32>;
  get samplesSeen(): number {
    return this.framing.samplesSeen;
  }

  /** `expectedSamples` (when known, e.g. from a WAV header) sizes the feature arrays exactly. */
  constructor(expectedSamples?: number) {
    const rows = expectedSamples ? Math.ceil(expectedSamples / HOP) : 4096;
    this.out = {
      energyDb: new GrowableF32(1, rows),
      bandDb: new GrowableF32(1, rows),
      mfcc: new GrowableF32(NUM_CEPS, rows),
      pitchHz: new GrowableF32(1, rows),
      periodicity: new GrowableF32(1, rows),
      tonality: new GrowableF32(1, rows),
    };
    let s = 0;
    for (let i = 0; i < WIN; i++) {
      this.hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / WIN);
      s += this.hann[i]! * this.hann[i]!;
    }
    this.hannPower = s;
    this.spectrum = this.fft.createComplexArray() as number[];
    this.acSpectrum = this.pitchFft.createComplexArray() as number[];
  }

  /** Feeds 16 kHz mono samples. */
  push(chunk: Float32Array): void {
    this.framing.push(chunk);
  }

  /** Pads the tail so that every input sample belongs to a frame, and returns the features. */
  finish(): FrameFeatures {
    this.framing.finish();
    return {
      frames: this.out.energyDb.length,
      energyDb: this.out.energyDb.toArray(),
      bandDb: this.out.bandDb.toArray(),
      mfcc: this.out.mfcc.toArray(),
      pitchHz: this.out.pitchHz.toArray(),
      periodicity: this.out.periodicity.toArray(),
      tonality: this.out.tonality.toArray(),
    };
  }

  private analyse(samples: Float32Array): void {
    const { windowed, power, spectrum } = this;
    this.frame.set(samples);
    for (let i = 0; i < WIN; i++) windowed[i] = samples[i]! * this.hann[i]!;
    windowed.fill(0, WIN);
    this.fft.realTransform(spectrum, windowed);
    let total = 0;
    let band = 0;
    let peak1 = 0;
    const half = NFFT / 2;
    const bandLo = Math.round((BAND_LO_HZ * NFFT) / SAMPLE_RATE);
    const bandHi = Math.round((BAND_HI_HZ * NFFT) / SAMPLE_RATE);
    for (let k = 0; k <= half; k++) {
      const re = spectrum[2 * k]!;
      const im = spectrum[2 * k + 1]!;
      const p = re * re + im * im;
      power[k] = p;
      total += k === 0 || k === half ? p : 2 * p;
      if (k >= bandLo && k <= bandHi) band += 2 * p;
    }
    for (let k = bandLo + 1; k < bandHi; k++) {
      const s3 = power[k - 1]! + power[k]! + power[k + 1]!;
      if (s3 > peak1) peak1 = s3;
    }
    // Parseval: sum |X|^2 = NFFT * sum x^2; normalise by the window's power for a mean square.
    const norm = NFFT * this.hannPower;
    const energyDb = 10 * Math.log10(total / norm + 1e-12);
    const bandDb = 10 * Math.log10(band / norm + 1e-12);
    const tonality = band > 0 ? (2 * peak1) / band : 0;

    const { logMel, melBank, dct } = this;
    for (let b = 0; b < MEL_BANDS; b++) {
      const { first, weights } = melBank[b]!;
      let s = 0;
      for (let j = 0; j < weights.length; j++) s += weights[j]! * power[first + j]!;
      logMel[b] = Math.log(s / norm + 1e-10);
    }
    const row = this.out.mfcc.pushRow();
    const mfcc = this.out.mfcc.view();
    for (let c = 0; c < NUM_CEPS; c++) {
      let s = 0;
      for (let b = 0; b < MEL_BANDS; b++) s += dct[c * MEL_BANDS + b]! * logMel[b]!;
      mfcc[row + c] = s;
    }

    // Pitch only where there is something to measure: it is the costliest part of a frame.
    let hz = 0;
    let periodicity = 0;
    if (bandDb > -70) {
      // Decimate by 2 with a [1 2 1]/4 low-pass: enough anti-aliasing for F0 below 500 Hz.
      const pf = this.pitchFrame;
      for (let j = 0; j < PITCH_WIN; j++) {
        const i = 2 * j;
        pf[j] = 0.25 * (samples[Math.max(0, i - 1)]! + 2 * samples[i]! + samples[i + 1]!);
      }
      const ac = this.acInput;
      for (let j = 0; j < PITCH_WIN; j++) ac[j] = pf[j]!;
      ac.fill(0, PITCH_WIN);
      this.pitchFft.realTransform(this.acSpectrum, ac);
      const ph = PITCH_NFFT / 2;
      const acPower = this.acPower;
      for (let k = 0; k <= ph; k++) {
        const re = this.acSpectrum[2 * k]!;
        const im = this.acSpectrum[2 * k + 1]!;
        acPower[k] = re * re + im * im;
      }
      // The power spectrum is real and even, so its forward transform is the autocorrelation.
      for (let k = ph + 1; k < PITCH_NFFT; k++) acPower[k] = acPower[PITCH_NFFT - k]!;
      this.pitchFft.realTransform(this.acSpectrum, acPower);
      for (let t = 0; t < PITCH_WIN; t++) this.autocorr[t] = this.acSpectrum[2 * t]! / PITCH_NFFT;
      const est = yinFromAutocorr(this.pitchFrame, this.autocorr, SAMPLE_RATE / PITCH_DECIMATION, this.prefix);
      hz = est.hz;
      periodicity = est.periodicity;
    }
    this.out.energyDb.push(energyDb);
    this.out.bandDb.push(bandDb);
    this.out.pitchHz.push(hz);
    this.out.periodicity.push(periodicity);
    this.out.tonality.push(tonality);
  }
}

/** Whole-signal convenience wrapper. */
export function analyzeFrames(samples: Float32Array): FrameFeatures {
  const a = new FrameAnalyzer(samples.length);
  const step = 16000 * 30;
  for (let i = 0; i < samples.length; i += step) a.push(samples.subarray(i, Math.min(samples.length, i + step)));
  return a.finish();
}
