// The per-frame speaker features diarization models: which speech frames carry the voice, and
// their cepstra (and log F0) standardised over the recording.
import { NUM_CEPS, type FrameFeatures } from './features.ts';
import { quantile } from './stats.ts';

const CEP_DIMS = NUM_CEPS - 1;

/** Speech frames that are voiced and within 30 dB of the recording's loud frames. */
export function modellingMask(f: FrameFeatures, speech: Uint8Array, voicedOnly = true): Uint8Array {
  const levels: number[] = [];
  for (let i = 0; i < f.frames; i++) if (speech[i]) levels.push(f.bandDb[i]!);
  const floor = (quantile(levels, 0.95) ?? 0) - 30;
  const out = new Uint8Array(f.frames);
  for (let i = 0; i < f.frames; i++) if (speech[i] && f.bandDb[i]! > floor && (!voicedOnly || f.pitchHz[i]! > 0)) out[i] = 1;
  return out;
}

/**
 * Per-frame speaker features, standardised over the modelling frames of the recording:
 * c1..c19 (c0 is level, which says more about the microphone than the voice) and log F0.
 */
export function standardisedCepstra(f: FrameFeatures, mask: Uint8Array, withPitch = true): Float32Array {
  const DIMS = CEP_DIMS + (withPitch ? 1 : 0);
  const out = new Float32Array(f.frames * DIMS);
  const raw = new Float64Array(DIMS);
  const m = new Float64Array(DIMS);
  const s = new Float64Array(DIMS);
  let count = 0;
  const read = (i: number): void => {
    for (let d = 0; d < CEP_DIMS; d++) raw[d] = f.mfcc[i * NUM_CEPS + d + 1]!;
    if (withPitch) raw[CEP_DIMS] = f.pitchHz[i]! > 0 ? Math.log2(f.pitchHz[i]!) : 0;
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
