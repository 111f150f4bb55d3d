// Voiceprints from the speaker embedding the diarization clusters with (issue 38 §4): the mean
// of the LDA embeddings (diarization/window-embedding.ts) of a speaker's clean speech, taken
// 1.5 s of its frames at a time (the windows the LDA was trained on), length-normalised and
// compared by cosine. Measured, not shipped: on the speaker-disjoint folds, with the same
// diarization, it linked voices worse than the cepstral voiceprint (voiceprint.ts; identity F1
// 0.17 against 0.48 at 0.71, and pairwise precision 0.95 on every fold only from 0.82, with 5 %
// of the true links against 8 %). `npm run eval -- --voiceprint lda` runs it.
import { NUM_CEPS, type FrameFeatures } from './features.ts';
import { modellingMask, standardisedCepstra } from './diarization/speaker-frames.ts';
import { embedInPieces, rangeEmbedder, type LdaEmbeddingModel, type RangeEmbedder } from './diarization/window-embedding.ts';
import type { VoiceprintExtractor } from './voiceprint.ts';

export class EmbeddingVoiceprint implements VoiceprintExtractor {
  readonly name: string;
  readonly dimensions: number;
  private readonly model: LdaEmbeddingModel;
  private bound: { f: FrameFeatures; track: Int16Array; embedder: RangeEmbedder | null } | null = null;

  constructor(model: LdaEmbeddingModel) {
    this.model = model;
    this.name = `lda-embedding-v1 (${model.name})`;
    this.dimensions = model.rows.length;
  }

  /** Voiceprint of the frames where `track[i] === speaker` (pass a track without overlapped frames). */
  extract(f: FrameFeatures, track: Int16Array, speaker: number): number[] {
    const embedder = this.embedderFor(f, track);
    const frames: number[] = [];
    for (let i = 0; i < f.frames; i++) if (track[i] === speaker) frames.push(i);
    const out = (embedder && embedInPieces(embedder, frames, this.model.windowFrames)) ?? new Float64Array(this.dimensions);
    let norm = 0;
    for (const v of out) norm += v * v;
    norm = Math.sqrt(norm);
    return Array.from(out, (v) => (norm > 0 ? Math.round((v / norm) * 1e5) / 1e5 : 0));
  }

  /** The LDA bound to the recording's voiced frames (built once per track). */
  private embedderFor(f: FrameFeatures, track: Int16Array): RangeEmbedder | null {
    if (this.bound?.f !== f || this.bound.track !== track) {
      const speech = Uint8Array.from(track, (s) => (s >= 0 ? 1 : 0));
      const model = modellingMask(f, speech);
      this.bound = { f, track, embedder: rangeEmbedder(this.model, standardisedCepstra(f, model), NUM_CEPS, model) };
    }
    return this.bound.embedder;
  }
}
