// Speaker diarization: who speaks when, from the frame features (features.ts), the speech regions
// of the speech detector (vad.ts, Silero) and the speaker segmentation network slid over the
// recording (segmentation/). It reads top to bottom as pyannote 3.x's SpeakerDiarization.apply():
//
//   segmentation      segmentation/       per window of 8 s, up to three local speakers per frame
//   local speakers    local-speakers.ts   each local speaker's frames, and its clean speech embedded
//                                         (window-embedding.ts: the LDA of speaker-lda.model.ts,
//                                         or the deployment's network)
//   clustering        clustering.ts       one clustering of the local speakers; the count is
//                                         decided there, the user's bounds first
//   assignment        assign.ts           local speakers with too little clean speech
//   reconstruction    reconstruct.ts      one track of the recording, both speakers in overlap
//   numbering         numbering.ts        speakers in order of first speech
//
// segmented.ts runs these stages. A transcript whose named cues cover the speech guides the
// diarization instead (guided.ts).
import type { FrameFeatures } from '../features.ts';
import type { FrameRegion } from '../vad.ts';
import type { LocalSegmentation } from '../segmentation/local-segmentation.ts';
import type { CountEvidence } from '../../types.ts';
import type { CountBounds } from './clustering.ts';
import { DEFAULT_EMBEDDING } from './default-embedding.ts';
import { diarizeGuided } from './guided.ts';
import { diarizeSegmented } from './segmented.ts';
import type { WindowEmbeddingModel } from './window-embedding.ts';
import { resolveSettings, type DiarizationOverrides } from './settings.ts';

export { DIARIZATION_SETTINGS, type DiarizationOverrides, type DiarizationSettings } from './settings.ts';

export interface Diarization {
  /** Speaker per frame (the best scored where two speak), -1 for non-speech; numbered in order of first speech. */
  frameSpeaker: Int16Array;
  /** The second speaker of frames where the segmentation hears two, -1 elsewhere (always -1 when guided). */
  overlapSpeaker: Int16Array;
  speakers: number;
  /** True when the speakers came from a transcript's named cues. */
  guided: boolean;
  /** How near the count was to another (clustering.ts); absent for a transcript's speakers. */
  countEvidence?: CountEvidence;
  /** Per speaker, how cleanly its voice separates from the others' (segmented.ts); absent for a transcript's speakers. */
  separation?: (number | null)[];
}

export interface DiarizeRequest {
  /** The user's bounds on the speaker count (from SpeakerCountHint). */
  speakers?: CountBounds;
  /** A per-frame track of a transcript's named cues (language/transcript-guide.ts): the names are the speakers. */
  guide?: Int16Array | null;
  /** The deployment's speaker embedding network (onnx-embedding.ts) instead of the built-in LDA. */
  embedding?: WindowEmbeddingModel;
}

/** `evaluation`: other settings, a fold's embedding model (eval/ only). */
export function diarize(f: FrameFeatures, regions: FrameRegion[], speech: Uint8Array, segmentation: LocalSegmentation, windowSec: number, request: DiarizeRequest = {}, evaluation?: DiarizationOverrides): Diarization {
  const s = resolveSettings(evaluation?.settings);
  const none = new Int16Array(f.frames).fill(-1);
  const guided = request.guide && regions.length > 0 ? diarizeGuided(f, regions, speech, request.guide, s.guided) : null;
  if (guided) return { ...guided, overlapSpeaker: none, guided: true };
  const embedding = evaluation?.embeddingModel ?? request.embedding ?? DEFAULT_EMBEDDING;
  const d = diarizeSegmented(f, regions, speech, segmentation, windowSec, embedding, request.speakers ?? { min: 1, max: Infinity }, s);
  return { ...d, guided: false };
}
