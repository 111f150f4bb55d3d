// What the built-in speaker segmentation network reads: Kaldi-style log mel energies (fbank.ts)
// of every frame, 40 bands, at int16 sample scale (so that quiet rooms stay clear of the
// log's floor). The trainer's data (training/export-segmentation.ts) is computed by the same
// code with these options, so the network sees at run time exactly what it was trained on.
import type { FbankOptions } from '../fbank.ts';

export const SEGMENTATION_FBANK: FbankOptions = { bins: 40, window: 'povey', sampleScale: 32768 };
