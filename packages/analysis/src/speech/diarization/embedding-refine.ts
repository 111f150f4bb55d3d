// The last step of the refinement stage (refinement.ts): pieces of speech move to the speaker whose voice the window
// embedding (window-embedding.ts) says they are nearest, k-means style, starting from the
// labels the likelihood stages left.
//
// Those stages judge a piece with GMM speaker models adapted on the cluster it sits in, so a
// cluster that holds two voices keeps explaining both (reassign.ts can only move pieces that the
// likelihood already disowns). The embedding owes nothing to the recording's UBM or to the
// cluster's own model: each speaker is the mean embedding of its pieces, and a piece that lies
// nearer another speaker's mean than its own (its own mean taken without it) by a margin moves.
// On the dev set it takes pieces out of clusters the likelihood stages left them in wrongly
// (over nine UBM seed phases DER 4.5 -> 4.1 %, talk share 5.02 -> 4.09 pp; docs/analysis-speech.md);
// with a small margin a piece's own noise (what is said, how long it is) moves it too, which is
// what the margin is for.
import type { FrameRegion } from '../vad.ts';
import type { RangeEmbedder } from './window-embedding.ts';
import { speakerPieces } from './speaker-frames.ts';

export interface EmbeddingRefineContext {
  regions: FrameRegion[];
  /** Modelled (voiced, loud enough) frames. */
  model: Uint8Array;
  cep: Float32Array;
  dims: number;
  /** Frames inside pauses: a piece ends at a pause or at a change of speaker. */
  pauses: Uint8Array;
  embedding: RangeEmbedder;
}

export interface EmbeddingRefineRules {
  /** Rounds at most (each re-estimates the speakers' means); it stops when no piece moves. */
  embeddingRefineRounds: number;
  /** How much nearer (squared distance per embedding dimension) the new speaker must be. */
  embeddingRefineMargin: number;
  /** Pieces with less modelled speech than this (seconds) stay where they are. */
  embeddingRefineMinSec: number;
  /** A speaker may lose at most this share of its pieces' frames in one round. */
  reassignMaxShare: number;
}

interface Piece {
  start: number;
  end: number;
  label: number;
  /** Mean embedding of the piece's window-length parts. */
  e: Float64Array;
  /** How many parts: the piece's weight in its speaker's mean. */
  parts: number;
  /** Modelled frames. */
  frames: number;
}

/** The embedding of [start, end): pieces longer than the model's window are cut into about window-length parts. */
function embedPiece(c: EmbeddingRefineContext, start: number, end: number): { e: Float64Array; parts: number } | null {
  const W = c.embedding.windowFrames;
  const count = Math.max(1, Math.round((end - start) / W));
  const e = new Float64Array(c.embedding.dims);
  let parts = 0;
  for (let p = 0; p < count; p++) {
    const v = c.embedding.embed(start + Math.floor(((end - start) * p) / count), start + Math.floor(((end - start) * (p + 1)) / count));
    if (!v) continue;
    for (let d = 0; d < v.length; d++) e[d] = e[d]! + v[d]!;
    parts++;
  }
  if (parts === 0) return null;
  for (let d = 0; d < e.length; d++) e[d] = e[d]! / parts;
  return { e, parts };
}

/** The pieces of the labelled speech with at least minFrames modelled frames. Exported for tests. */
export function labelledPieces(c: EmbeddingRefineContext, frameSpeaker: Int16Array, minFrames: number): Piece[] {
  const out: Piece[] = [];
  for (const { label, start, end } of speakerPieces(c.regions, c.pauses, frameSpeaker)) {
    let frames = 0;
    for (let i = start; i < end; i++) frames += c.model[i]!;
    if (frames < minFrames) continue;
    const emb = embedPiece(c, start, end);
    if (emb) out.push({ start, end, label, e: emb.e, parts: emb.parts, frames });
  }
  return out;
}

/** One round's moves: [piece, new speaker]. */
function roundMoves(pieces: Piece[], k: number, D: number, r: EmbeddingRefineRules): [Piece, number][] {
  const sums = new Float64Array(k * D);
  const weight = new Float64Array(k);
  const frames = new Float64Array(k);
  for (const p of pieces) {
    weight[p.label] = weight[p.label]! + p.parts;
    frames[p.label] = frames[p.label]! + p.frames;
    for (let d = 0; d < D; d++) sums[p.label * D + d] = sums[p.label * D + d]! + p.parts * p.e[d]!;
  }
  // Squared distance per dimension from a piece to speaker s's mean (its own without it); null
  // when that mean rests on fewer than two windows.
  const distance = (p: Piece, s: number): number | null => {
    const own = s === p.label;
    const n = weight[s]! - (own ? p.parts : 0);
    if (n < 2) return null;
    let x = 0;
    for (let d = 0; d < D; d++) x += (p.e[d]! - (sums[s * D + d]! - (own ? p.parts * p.e[d]! : 0)) / n) ** 2;
    return x / D;
  };
  const moves: [Piece, number][] = [];
  const leaving = new Float64Array(k);
  for (const p of pieces) {
    const own = distance(p, p.label);
    if (own === null) continue;
    let to = -1;
    let best = own - r.embeddingRefineMargin;
    for (let s = 0; s < k; s++) {
      if (s === p.label) continue;
      const v = distance(p, s);
      if (v !== null && v < best) {
        best = v;
        to = s;
      }
    }
    if (to < 0) continue;
    moves.push([p, to]);
    leaving[p.label] = leaving[p.label]! + p.frames;
  }
  // Whether a speaker exists is the merging stage's decision: one that would lose most of its
  // speech keeps it.
  return moves.filter(([p]) => leaving[p.label]! <= r.reassignMaxShare * frames[p.label]!);
}

/** Moves pieces in `frameSpeaker` (speakers 0..k-1) until none moves; how many piece moves were made. */
export function refineByEmbedding(c: EmbeddingRefineContext, frameSpeaker: Int16Array, k: number, r: EmbeddingRefineRules): number {
  let moved = 0;
  const minFrames = Math.max(10, Math.round(r.embeddingRefineMinSec * 100));
  for (let round = 0; round < r.embeddingRefineRounds; round++) {
    const moves = roundMoves(labelledPieces(c, frameSpeaker, minFrames), k, c.embedding.dims, r);
    if (moves.length === 0) break;
    for (const [p, to] of moves) for (let i = p.start; i < p.end; i++) if (frameSpeaker[i]! >= 0) frameSpeaker[i] = to;
    moved += moves.length;
  }
  return moved;
}
