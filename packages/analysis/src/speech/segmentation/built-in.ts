// The engine's own segmentation networks (packages/analysis/models/, each committed with its
// training record: training/README.md), heard as one model.
import { fileURLToPath } from 'node:url';
import { loadSegmentationModel, type SegmentationModel } from './model.ts';
import { ensembleSegmentation } from './ensemble.ts';

let builtIn: SegmentationModel | null = null;

/** The path of the engine's first network (committed with its training record). */
export const BUILT_IN_SEGMENTATION = fileURLToPath(new URL('../../../models/segmentation.onnx', import.meta.url));

/**
 * The engine's networks: the first, and two fine-tunes of it on new conversations (the first
 * network's recipe, and overlap at meetings' rate), heard as one (ensemble.ts). Each is committed
 * with its training record (training/README.md).
 */
export const BUILT_IN_SEGMENTATIONS = [BUILT_IN_SEGMENTATION, ...['segmentation-2.onnx', 'segmentation-3.onnx'].map((f) => fileURLToPath(new URL(`../../../models/${f}`, import.meta.url)))];

/** The engine's own segmentation networks as one model, loaded once per process. */
export function builtInSegmentation(): SegmentationModel {
  builtIn ??= ensembleSegmentation(BUILT_IN_SEGMENTATIONS.map((f) => loadSegmentationModel(f)));
  return builtIn;
}
