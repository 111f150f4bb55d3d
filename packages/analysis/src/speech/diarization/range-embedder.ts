// What every window speaker embedding gives once bound to a recording (window-embedding.ts:
// the built-in LDA, the neural model, or a deployment's ONNX network).
/**
 * A model bound to one recording's features: the embedding of the modelled frames of any range
 * of frames. The neural model runs its frame layers once, here; every range then only pools.
 */
export interface RangeEmbedder {
  name: string;
  /** Output dimensions. */
  dims: number;
  windowFrames: number;
  /** Null under 10 modelled frames in [start, end). */
  embed(start: number, end: number): Float64Array | null;
  /** The embedding of the modelled frames among `frames` (ascending), however spread; null under 10 of them. */
  embedFrames(frames: ArrayLike<number>): Float64Array | null;
}
