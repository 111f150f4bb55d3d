// Everything the analysis reads from the samples, computed while the media decodes so that the
// samples are never held: the frame features (features.ts), the speech detector's probabilities
// (silero-vad.ts), the input of the speaker segmentation network (its fbank, or for a network that
// reads samples the network itself, run window by window), and the fbank of a deployment's speaker
// embedding network when it reads one.
import { FrameAnalyzer, type FrameFeatures } from './features.ts';
import { FbankAnalyzer, type FbankOptions } from './fbank.ts';
import { SileroVad } from './silero-vad.ts';
import { SampleSegmenter, segmentFbank, type LocalSegmentation } from './segmentation/local-segmentation.ts';
import type { SegmentationModel } from './segmentation/model.ts';

export interface FrontEndOutput {
  features: FrameFeatures;
  /** Speech probability per 512 samples. */
  speechWindows: Float32Array;
  /** The segmentation network over the recording; null when no network was given. */
  segmentation: LocalSegmentation | null;
}

export interface FrontEndOptions {
  /** The fbank a speaker embedding network reads, kept as FrameFeatures.fbank. */
  embeddingFbank?: FbankOptions | null;
  segmentation?: { model: SegmentationModel; hopSec: number } | null;
}

function sameFbank(a: FbankOptions, b: FbankOptions): boolean {
  return a.bins === b.bins && a.window === b.window && a.sampleScale === b.sampleScale;
}

export class FrontEnd {
  private readonly frames: FrameAnalyzer;
  private readonly vad = new SileroVad();
  private readonly embeddingFbank: FbankAnalyzer | null;
  private readonly segmentationFbank: FbankAnalyzer | null;
  private readonly segmenter: SampleSegmenter | null;
  private readonly options: FrontEndOptions;

  constructor(options: FrontEndOptions, expectedSamples?: number) {
    this.options = options;
    this.frames = new FrameAnalyzer(expectedSamples);
    const seg = options.segmentation ?? null;
    const segFbank = seg?.model.fbank ?? null;
    this.embeddingFbank = options.embeddingFbank ? new FbankAnalyzer(options.embeddingFbank, expectedSamples) : null;
    // One fbank serves both networks when they read the same one.
    this.segmentationFbank = segFbank && !(options.embeddingFbank && sameFbank(options.embeddingFbank, segFbank)) ? new FbankAnalyzer(segFbank, expectedSamples) : null;
    this.segmenter = seg && !segFbank ? new SampleSegmenter(seg.model, seg.hopSec) : null;
  }

  get samplesSeen(): number {
    return this.frames.samplesSeen;
  }

  /** Feeds 16 kHz mono samples. */
  push(chunk: Float32Array): void {
    this.frames.push(chunk);
    this.vad.push(chunk);
    this.embeddingFbank?.push(chunk);
    this.segmentationFbank?.push(chunk);
    this.segmenter?.push(chunk);
  }

  finish(): FrontEndOutput {
    const features = this.frames.finish();
    const embeddingFbank = this.embeddingFbank?.finish() ?? null;
    if (embeddingFbank) features.fbank = embeddingFbank;
    const seg = this.options.segmentation ?? null;
    let segmentation: LocalSegmentation | null = null;
    if (seg && this.segmenter) segmentation = this.segmenter.finish();
    else if (seg) segmentation = segmentFbank(seg.model, this.segmentationFbank?.finish() ?? embeddingFbank!, seg.hopSec);
    return { features, speechWindows: this.vad.finish(), segmentation };
  }
}
