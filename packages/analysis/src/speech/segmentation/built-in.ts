// The engine's own segmentation networks (packages/analysis/models/, each committed with its
// training record: training/README.md), heard as one model.
import { fileURLToPath } from 'node:url';
import type { SegmentationModel } from './model.ts';
import { loadSegmentationEnsemble } from './ensemble.ts';

const modelFile = (name: string): string => fileURLToPath(new URL(`../../../models/${name}`, import.meta.url));

let builtIn: SegmentationModel | null = null;

/** The path of the engine's first network (committed with its training record). */
export const BUILT_IN_SEGMENTATION = modelFile('segmentation.onnx');

/**
 * The engine's networks: the first, and two fine-tunes of it on new conversations (the first
 * network's recipe, and overlap at meetings' rate), heard as one (ensemble.ts). Each is committed
 * with its training record (training/README.md).
 */
export const BUILT_IN_SEGMENTATIONS = [BUILT_IN_SEGMENTATION, modelFile('segmentation-2.onnx'), modelFile('segmentation-3.onnx')];

/** The engine's own segmentation networks as one model, loaded once per process. */
export function builtInSegmentation(): SegmentationModel {
  builtIn ??= loadSegmentationEnsemble(BUILT_IN_SEGMENTATIONS);
  return builtIn;
}
