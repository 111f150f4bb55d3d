// The transcript-guided diarization's speaker models (guided.ts). A universal background model (UBM, a diagonal GMM) is fitted to the
// recording's own modelling frames; every speaker model is a MAP adaptation
// of its means (gmm-speakers.ts), and each frame's alignment to the UBM is computed once here.
// The recording's F0 Gaussian is the reference that speakers' pitch scores are relative to.
import type { FrameFeatures } from '../features.ts';
import type { FrameRegion } from '../vad.ts';
import { framePitchSemitones, pitchGaussian, pitchSums, type PitchGaussian } from '../pitch.ts';
import { alignToUbm, type FrameAlignment } from './gmm-speakers.ts';
import { trainUbm, type Ubm } from './ubm.ts';
import type { GuidedSettings } from './settings.ts';

/** At most this many frames (evenly spread) fit the UBM: a long recording costs no more. */
const MAX_UBM_FRAMES = 6000;
const UBM_ITERATIONS = 6;

/** What the speaker stages know of one recording. */
export interface RecordingModels {
  f: FrameFeatures;
  regions: FrameRegion[];
  /** Modelling frames: voiced, and within 30 dB of the loud ones (speaker-frames.ts). */
  model: Uint8Array;
  /** Their indices, in order. */
  modelFrames: Int32Array;
  /** Standardised c1..c19 and log F0 per frame (dims per frame). */
  cep: Float32Array;
  dims: number;
  ubm: Ubm;
  align: FrameAlignment;
  /** F0 in semitones per frame, NaN when unvoiced. */
  pitchSt: Float64Array;
  filePitch: PitchGaussian;
}

/** The frames' indices where `model` is set. */
export function modelledFrames(model: Uint8Array): Int32Array {
  let n = 0;
  for (let i = 0; i < model.length; i++) n += model[i]!;
  const out = new Int32Array(n);
  for (let i = 0, j = 0; i < model.length; i++) if (model[i]) out[j++] = i;
  return out;
}

export function fitSpeakerModels(
  speech: { f: FrameFeatures; regions: FrameRegion[]; model: Uint8Array; modelFrames: Int32Array; cep: Float32Array; dims: number },
  s: GuidedSettings,
): RecordingModels {
  const { modelFrames, cep, dims, model } = speech;
  const step = Math.max(1, Math.floor(modelFrames.length / MAX_UBM_FRAMES));
  const ubmFrames = modelFrames.filter((_, i) => i % step === 0);
  const ubm = trainUbm(cep, dims, ubmFrames, s.ubmComponents, UBM_ITERATIONS, s.ubmSeedPhase);
  const pitchSt = framePitchSemitones(speech.f.pitchHz);
  return { ...speech, ubm, align: alignToUbm(ubm, cep, model), pitchSt, filePitch: pitchGaussian(pitchSums(pitchSt, modelFrames)) };
}
