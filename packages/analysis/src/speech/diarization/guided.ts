// Diarization guided by a transcript's named, timed cues (language/transcript-guide.ts): each
// name with at least a second of voiced speech in its cues becomes one speaker model (the
// recording's GMM-UBM adapted to those frames, and its F0; speaker-models.ts), and one Viterbi
// pass (resegmentation.ts) gives every speech frame, also speech no cue covers, to the best of
// them. The names are the speakers: nothing is merged or split.
import { NUM_CEPS, type FrameFeatures } from '../features.ts';
import type { FrameRegion } from '../vad.ts';
import { framesByLabel, modellingMask, standardisedCepstra } from './speaker-frames.ts';
import { fitSpeakerModels, modelledFrames } from './speaker-models.ts';
import { resegment, type Labelling } from './resegmentation.ts';
import type { GuidedSettings } from './settings.ts';

/** A transcript name needs 1 s of voiced speech in its cues to become a speaker model. */
const GUIDE_MIN_FRAMES = 100;
/** Under this many modelling frames (half a second) the speech is one speaker. */
const MIN_MODELLED_FRAMES = 50;

/**
 * Speaker per frame (-1: none; numbered by first speech) and the number of speakers, or null when
 * no name has enough speech to be modelled (the caller then diarizes from the audio alone).
 * `guide[i]`: the index of the name whose cue covers frame i, -1 for none or several.
 */
export function diarizeGuided(
  f: FrameFeatures,
  regions: FrameRegion[],
  speech: Uint8Array,
  guide: Int16Array,
  s: GuidedSettings,
  // The modelling mask of `speech` and its standardised cepstra, when the caller has them already
  // (the boundary stage: segmented.ts computed both for the embeddings).
  prepared?: { model: Uint8Array; cep: Float32Array },
): { frameSpeaker: Int16Array; speakers: number } | null {
  const model = prepared?.model ?? modellingMask(f, speech);
  const modelFrames = modelledFrames(model);
  if (modelFrames.length < MIN_MODELLED_FRAMES) return null;
  let names = 0;
  for (let i = 0; i < guide.length; i++) names = Math.max(names, guide[i]! + 1);
  const groups = framesByLabel(guide, names, model).filter((fr) => fr.length >= GUIDE_MIN_FRAMES);
  if (groups.length === 0) return null;
  const cep = prepared?.cep ?? standardisedCepstra(f, model);
  const m = fitSpeakerModels({ f, regions, model, modelFrames, cep, dims: NUM_CEPS }, s);
  const lab: Labelling = { frameSpeaker: new Int16Array(f.frames).fill(-1), groups, emission: new Float32Array(f.frames * groups.length) };
  resegment(m, lab, 1, s);
  return { frameSpeaker: lab.frameSpeaker, speakers: lab.groups.length };
}
