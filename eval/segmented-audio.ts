// One file of an evaluation folder through the engine's front end as the diarization reads it:
// the features, the segmentation network slid over it at the shipped hop, and the speech detector's
// regions and frame mask. Shared by the tools that look at the segmentation before clustering
// (overlap-check.ts, window-der.ts, local-speakers-check.ts).
import { join } from 'node:path';
import { decodeAudio } from '../packages/analysis/src/audio/decode.ts';
import { FrontEnd, type FrontEndOutput } from '../packages/analysis/src/speech/front-end.ts';
import { regionsToMask, speechFromProbabilities, type FrameRegion } from '../packages/analysis/src/speech/vad.ts';
import { frameProbabilities } from '../packages/analysis/src/speech/silero-vad.ts';
import { builtInSegmentation } from '../packages/analysis/src/speech/segmentation/built-in.ts';
import { loadSegmentationEnsemble } from '../packages/analysis/src/speech/segmentation/ensemble.ts';
import type { SegmentationModel } from '../packages/analysis/src/speech/segmentation/model.ts';
import type { LocalSegmentation } from '../packages/analysis/src/speech/segmentation/local-segmentation.ts';
import { DIARIZATION_SETTINGS } from '../packages/analysis/src/speech/diarization/settings.ts';

/** `--segmentation A.onnx[,B.onnx…]` (several: heard as one, segmentation/ensemble.ts), else the shipped networks. */
export function segmentationModel(arg: string | undefined): SegmentationModel {
  return arg ? loadSegmentationEnsemble(arg.split(',')) : builtInSegmentation();
}

export interface SegmentedAudio {
  features: FrontEndOutput['features'];
  segmentation: LocalSegmentation;
  regions: FrameRegion[];
  /** Per frame, 1 where the speech detector hears speech. */
  speech: Uint8Array;
}

export async function segmentedAudio(dataset: string, wav: string, model: SegmentationModel): Promise<SegmentedAudio> {
  const front = new FrontEnd({ segmentation: { model, hopSec: DIARIZATION_SETTINGS.segmentation.hopSec } });
  for await (const chunk of decodeAudio(join(dataset, wav))) front.push(chunk);
  const { features, speechWindows, segmentation } = front.finish();
  if (!segmentation) throw new Error(`${wav}: the front end ran no segmentation`);
  const regions = speechFromProbabilities(frameProbabilities(speechWindows, features.frames), features);
  return { features, segmentation, regions, speech: regionsToMask(regions, features.frames) };
}
