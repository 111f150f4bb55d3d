// The window speaker embedding the engine uses unless told otherwise (DiarizationOverrides.embeddingModel):
// the LDA over window statistics (speaker-lda.model.ts, trained on 716 real voices by
// training/train-lda-export.ts). The neural model (speaker-net.ts, trained on the same sessions by
// training/train-real-voices.sh) reads through the same interface; on voices neither saw in
// training it did not do better (docs/speech-validation.md, "The window embedding trained on
// real voices"), so it is not the default and its weights are not shipped.
import { SPEAKER_LDA } from './speaker-lda.model.ts';
import type { WindowEmbeddingModel } from './window-embedding.ts';

export const DEFAULT_EMBEDDING: WindowEmbeddingModel = SPEAKER_LDA;
