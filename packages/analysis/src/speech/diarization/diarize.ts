// Speaker diarization: who speaks when, from the frame features of features.ts and the speech
// regions of vad.ts. The stages, in order, each in its own file with its own settings
// (settings.ts groups them by stage):
//
//   speaker frames     speaker-frames.ts   voiced frames within 30 dB of the loud ones; their
//                                          cepstra and log F0, standardised over the recording
//   window embedding   window-embedding.ts a speaker embedding of any range of those frames (the
//                                          LDA of speaker-lda.model.ts, trained offline: training/)
//   long recordings    long-recordings.ts  past longRecordingSec, chunks diarized on their own
//                                          (this pipeline); the count stage links their speakers
//   speaker models     speaker-models.ts   a UBM fitted to the recording, frame alignments, F0
//   initial segments   initial-segments.ts transcript names, chunk speakers, or clusters of
//                                          speech windows
//   speaker count      speaker-count.ts    merging with resegmentation (resegmentation.ts) until
//                                          the evidence or the user's bounds say stop
//   refinement         refinement.ts       pieces reassigned, last passes at pauses, pieces moved
//                                          to the nearest speaker in the window embedding
//   hint split         hint-split.ts       below the user's minimum, the largest speakers split
//                                          in two by their runs' window embeddings
//   numbering          numbering.ts        speakers in order of first speech
//
// The UBM's seeding decides too much of the outcome (docs/analysis-speech.md), so a recording
// diarized in one stage runs from seedCandidates seedings, and the run whose speakers the window
// embedding (which owes nothing to the UBM) fits best is kept (partition-fit.ts).
import { NUM_CEPS, type FrameFeatures } from '../features.ts';
import type { FrameRegion } from '../vad.ts';
import { chunkSpeakers } from './long-recordings.ts';
import { modellingMask, standardisedCepstra } from './speaker-frames.ts';
import { rangeEmbedder, type RangeEmbedder, type WindowEmbeddingModel } from './window-embedding.ts';
import { DEFAULT_EMBEDDING } from './default-embedding.ts';
import { bestFitting, embedWindows } from './partition-fit.ts';
import { fitSpeakerModels, modelledFrames } from './speaker-models.ts';
import { initialSegments } from './initial-segments.ts';
import { decideSpeakerCount, type CountBounds } from './speaker-count.ts';
import { refineSpeakers } from './refinement.ts';
import { renumberByFirstSpeech } from './numbering.ts';
import { splitToMinimum } from './hint-split.ts';
import { countEvidence } from './count-evidence.ts';
import type { CountEvidence } from '../../types.ts';
import { resolveSettings, type DiarizationOverrides, type DiarizationSettings } from './settings.ts';

export { DIARIZATION_SETTINGS, type DiarizationOverrides, type DiarizationSettings, type MergeTrace } from './settings.ts';

export interface Diarization {
  /** Speaker per frame, -1 for non-speech; speakers numbered in order of first speech. */
  frameSpeaker: Int16Array;
  speakers: number;
  /** True when the speakers came from a transcript's named cues rather than from clustering. */
  guided: boolean;
  /** How sure the count is (count-evidence.ts); absent for a transcript's speakers or without an embedding. */
  countEvidence?: CountEvidence;
}

export interface DiarizeRequest {
  /** The user's bounds on the speaker count (from SpeakerCountHint). */
  speakers?: CountBounds;
  /**
   * A per-frame speaker track read from a transcript's named cues (language/transcript-guide.ts):
   * each named speaker then becomes one speaker model trained on the frames of its cues, and
   * resegmentation assigns every speech frame to the best of them; the count is the number of names.
   */
  guide?: Int16Array | null;
  /** The deployment's speaker embedding network (onnx-embedding.ts) instead of the built-in LDA. */
  embedding?: WindowEmbeddingModel;
}

/** The voiced-only features: c1..c19 and log F0. */
const DIMS = NUM_CEPS;
/** Under this many modelling frames (half a second) the speech is one speaker. */
const MIN_MODELLED_FRAMES = 50;

interface Run {
  speakers: CountBounds;
  guide: Int16Array | null;
  /** Whether a long recording may be cut into chunks (never again inside a chunk). */
  chunked: boolean;
  embedding: WindowEmbeddingModel;
}

/** `evaluation`: other settings, a fold's embedding model, a merge trace (eval/ only). */
export function diarize(f: FrameFeatures, regions: FrameRegion[], mask: Uint8Array, request: DiarizeRequest = {}, evaluation?: DiarizationOverrides): Diarization {
  const s = resolveSettings(evaluation?.settings);
  const embedding = evaluation?.embeddingModel ?? request.embedding ?? DEFAULT_EMBEDDING;
  const run: Run = { speakers: request.speakers ?? { min: 1, max: Infinity }, guide: request.guide ?? null, chunked: true, embedding };
  return diarizeRange(f, regions, mask, run, s, evaluation);
}

function isLong(f: FrameFeatures, run: Run, s: DiarizationSettings): boolean {
  const { longRecordingSec, longRecordingMaxSec } = s.longRecordings;
  return !run.guide && run.chunked && f.frames > longRecordingSec * 100 && f.frames <= longRecordingMaxSec * 100;
}

interface SpeakerFrames {
  model: Uint8Array;
  cep: Float32Array;
  embedding: RangeEmbedder | null;
}

function diarizeRange(f: FrameFeatures, regions: FrameRegion[], mask: Uint8Array, run: Run, s: DiarizationSettings, evaluation?: DiarizationOverrides): Diarization {
  if (run.guide || regions.length === 0) return diarizeSeeded(f, regions, mask, run, s, evaluation);
  // The speaker frames and their embedding do not depend on the UBM's seeding: built once.
  const model = modellingMask(f, mask);
  const cep = standardisedCepstra(f, model);
  const embedding = rangeEmbedder(run.embedding, cep, DIMS, model, { speech: mask, regions, fbank: f.fbank ?? null });
  const frames = { model, cep, embedding };
  const result = ((): Diarization => {
    if (!embedding || isLong(f, run, s) || s.models.seedCandidates <= 1) return diarizeSeeded(f, regions, mask, run, s, evaluation, frames);
    const n = s.models.seedCandidates;
    const phases = Array.from({ length: n }, (_, x) => (s.models.ubmSeedPhase + x / n) % 1);
    const seeded = (phase: number): Diarization => diarizeSeeded(f, regions, mask, run, { ...s, models: { ...s.models, ubmSeedPhase: phase } }, evaluation, frames);
    return bestFitting(phases, seeded, embedWindows(embedding, regions), model);
  })();
  // How sure the count is: for the recording's answer, not for a long recording's chunks.
  if (embedding && run.chunked) result.countEvidence = countEvidence(embedding, model, regions, result.frameSpeaker, result.speakers);
  return result;
}

/** One run from the UBM seeding of `s`; `known`: the speaker frames, when already built. */
function diarizeSeeded(f: FrameFeatures, regions: FrameRegion[], mask: Uint8Array, run: Run, s: DiarizationSettings, evaluation?: DiarizationOverrides, known?: SpeakerFrames): Diarization {
  if (regions.length === 0) return { frameSpeaker: new Int16Array(f.frames).fill(-1), speakers: 0, guided: false };
  // A long recording's chunks first, so that their scratch memory is gone before the
  // recording-wide models are built (on an hour this keeps the peak where the one-stage path has it).
  const chunkRun: Run = { speakers: { min: 1, max: run.speakers.max }, guide: null, chunked: false, embedding: run.embedding };
  const chunks = isLong(f, run, s)
    ? chunkSpeakers(f, regions, mask, s.longRecordings.chunkSec, (cf, cr, cm) => diarizeRange(cf, cr, cm, chunkRun, s, { ...evaluation, trace: undefined }))
    : null;
  const model = known?.model ?? modellingMask(f, mask);
  const cep = known?.cep ?? standardisedCepstra(f, model);
  const embedding = known ? known.embedding : rangeEmbedder(run.embedding, cep, DIMS, model, { speech: mask, regions, fbank: f.fbank ?? null });
  const modelFrames = modelledFrames(model);
  if (modelFrames.length < MIN_MODELLED_FRAMES) {
    const frameSpeaker = new Int16Array(f.frames).fill(-1);
    for (const r of regions) frameSpeaker.fill(0, r.start, r.end);
    return { frameSpeaker, speakers: 1, guided: false };
  }
  const m = fitSpeakerModels({ f, regions, model, modelFrames, cep, dims: DIMS, embedding }, s.models);
  const initial = initialSegments(m, s, run.guide, chunks, run.speakers);
  const { lab, how } = decideSpeakerCount(m, initial, run.speakers, s, evaluation?.trace);
  if (how === 'settled') refineSpeakers(m, lab, s, run.chunked);
  if (initial.from !== 'transcript' && lab.groups.length < run.speakers.min) splitToMinimum(lab.frameSpeaker, lab.groups.length, run.speakers.min, embedding);
  const minRun = Math.max(1, Math.round(s.numbering.firstSpeechMinSec * 100));
  return { frameSpeaker: lab.frameSpeaker, speakers: renumberByFirstSpeech(lab.frameSpeaker, minRun).size, guided: initial.from === 'transcript' };
}
