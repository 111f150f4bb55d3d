// The window speaker embedding the engine uses unless told otherwise (DiarizationOverrides.embeddingModel):
// the LDA over window statistics (speaker-lda.model.ts). The neural model (speaker-net.ts, trained
// by training/train-speaker-net.sh) reads through the same interface; on voices neither saw in
// training it did not do better (docs/analysis-speech.md, "Speaker-disjoint folds"), so it is
// not the default and its weights are not shipped.
import { SPEAKER_LDA } from './speaker-lda.model.ts';
import type { WindowEmbeddingModel } from './window-embedding.ts';

export const DEFAULT_EMBEDDING: WindowEmbeddingModel = SPEAKER_LDA;
