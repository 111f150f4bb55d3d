// Reassignment of pieces of speech between speakers, after the count stage (speaker-count.ts) has
// settled the speaker count. A speaker model adapted on a cluster's frames explains those very
// frames better than it would explain new speech of the same voice: a stretch of another voice
// that went into the cluster early pulls the model towards itself and then keeps winning its own
// frames, so resegmentation alone never lets it go (docs/analysis-speech.md measures this).
//
// 1. Propose: each piece of speech (one speaker's run between two pauses) is scored against its
//    own speaker's model re-estimated without it (leave-one-out) and against the other speakers'
//    models as they are; a piece that another model explains better by a margin is proposed to
//    move there. Proposals are grouped by (from, to).
// 2. Arbitrate: the likelihood models also see the channel, so a voice whose channel drifts
//    looks like a second voice on that channel once its own frames stop vouching for it. Each
//    group is therefore judged by what does not see the channel: the merging stage's own veto
//    (voiceprints and window embeddings, as if the group were a cluster joining its new speaker),
//    and, where the group's pieces give embeddings, they must lie nearer the new speaker than the
//    old one.
// 3. A group that would take most of its speaker is left alone: whether that speaker exists is
//    the merging stage's decision, not this one's.
import type { FrameFeatures } from '../features.ts';
import type { FrameRegion } from '../vad.ts';
import type { Ubm } from './ubm.ts';
import { addFrameStats, frameLlr, meansFromStats, speakerStats, type FrameAlignment, type SpeakerStats } from './gmm-speakers.ts';
import { framesByLabel, speakerPieces } from './speaker-frames.ts';
import { pitchGaussian, pitchLogLikelihood, pitchSums, type PitchGaussian } from '../pitch.ts';
import { mergeVetoed, type MergeRules, type VetoEvidence } from './merge-choice.ts';
import type { VoiceprintExtractor } from '../voiceprint.ts';
import { embeddingDistance, pieceEmbeddings, speakerEmbeddings, type EmbeddingSum, type RangeEmbedder } from './window-embedding.ts';

/** What stays fixed over the rounds of one recording. */
export interface ReassignContext {
  f: FrameFeatures;
  regions: FrameRegion[];
  /** Modelled (voiced, loud enough) frames. */
  model: Uint8Array;
  ubm: Ubm;
  cep: Float32Array;
  dims: number;
  align: FrameAlignment;
  /** F0 in semitones per frame, NaN when unvoiced. */
  pitchSt: Float64Array;
  /** The recording's F0 Gaussian: speaker pitch scores are relative to it, as in resegmentation.ts. */
  filePitch: PitchGaussian;
  pitchWeight: number;
  /** Frames inside pauses: a piece ends at a pause or at a change of speaker. */
  pauses: Uint8Array;
  print: VoiceprintExtractor;
  /** Null when the embedding model does not read these features. */
  embedding: RangeEmbedder | null;
}

export interface ReassignRules extends MergeRules {
  /** Summed log-likelihood by which another model must beat a piece's own (left-out) one. */
  reassignMargin: number;
  /** A (from, to) group needs this much voiced speech (seconds) to be considered. */
  reassignMinSec: number;
  /** A group may take at most this share of its speaker's modelled frames. */
  reassignMaxShare: number;
  /** How much nearer (embedding distance) the new speaker must be than the old one. */
  reassignEmbeddingMargin: number;
}

/** A speaker model: MAP-adapted means and an F0 Gaussian. */
interface Model {
  means: Float64Array;
  pitch: PitchGaussian;
}

/** Summed frame score of `frames` under a model, as diarize.ts's emissions score them. */
function score(c: ReassignContext, m: Model, frames: ArrayLike<number>): number {
  let total = 0;
  for (let j = 0; j < frames.length; j++) {
    const i = frames[j]!;
    total += frameLlr(c.ubm, m.means, c.cep, c.align, i);
    const st = c.pitchSt[i]!;
    if (!Number.isNaN(st)) total += c.pitchWeight * (pitchLogLikelihood(st, m.pitch) - pitchLogLikelihood(st, c.filePitch));
  }
  return total;
}

/**
 * Step 1: the modelled frames proposed to move, keyed by `from * k + to` (ascending within a
 * key). Exported for tests.
 */
export function reassignmentProposals(c: ReassignContext, frameSpeaker: Int16Array, k: number, margin: number): Map<number, number[]> {
  const groups = framesByLabel(frameSpeaker, k, c.model);
  const stats = groups.map((g) => speakerStats(c.ubm, c.cep, c.align, g));
  const pitch = groups.map((g) => pitchSums(c.pitchSt, g));
  const models: Model[] = groups.map((_, s) => ({ means: meansFromStats(c.ubm, stats[s]!), pitch: pitchGaussian(pitch[s]!) }));
  // Scratch for the left-out model of each piece: this runs for every piece of every round of
  // every chunk of a long recording, and fresh arrays per piece grew the heap by tens of MB.
  const rest: SpeakerStats = { N: new Float64Array(c.ubm.components), F: new Float64Array(c.ubm.components * c.dims) };
  const leftOut: Model = { means: new Float64Array(c.ubm.components * c.dims), pitch: c.filePitch };
  const out = new Map<number, number[]>();
  const piece: number[] = [];
  const judge = (from: number): void => {
    if (from < 0 || piece.length === 0) return;
    rest.N.set(stats[from]!.N);
    rest.F.set(stats[from]!.F);
    addFrameStats(c.ubm, c.cep, c.align, piece, rest, -1);
    meansFromStats(c.ubm, rest, leftOut.means);
    const own = pitch[from]!;
    const p = pitchSums(c.pitchSt, piece);
    leftOut.pitch = pitchGaussian({ sum: own.sum - p.sum, sumSq: own.sumSq - p.sumSq, voiced: own.voiced - p.voiced });
    let best = score(c, leftOut, piece) + margin;
    let to = -1;
    for (let s = 0; s < k; s++) {
      if (s === from) continue;
      const v = score(c, models[s]!, piece);
      if (v > best) {
        best = v;
        to = s;
      }
    }
    if (to < 0) return;
    const key = from * k + to;
    const list = out.get(key);
    if (list) list.push(...piece);
    else out.set(key, [...piece]);
  };
  for (const { label, start, end } of speakerPieces(c.regions, c.pauses, frameSpeaker)) {
    piece.length = 0;
    for (let i = start; i < end; i++) if (c.model[i]) piece.push(i);
    judge(label);
  }
  return out;
}

/**
 * Step 2 and 3 for one group: whether its frames may move from `from` to `to`. `sizes` holds the
 * modelled frames of each speaker 0..k-1 under `frameSpeaker`.
 */
function accepted(c: ReassignContext, frameSpeaker: Int16Array, sizes: Int32Array, from: number, to: number, frames: number[], r: ReassignRules): boolean {
  const k = sizes.length;
  if (frames.length > r.reassignMaxShare * sizes[from]!) return false;
  // The group as a cluster of its own (label k).
  const track = Int16Array.from(frameSpeaker);
  for (const i of frames) track[i] = k;
  const counts = Float64Array.from({ length: k + 1 }, (_, s) => (s === k ? frames.length : sizes[s]! - (s === from ? frames.length : 0)));
  let embeddings: EmbeddingSum[] | null | undefined;
  const evidence: VetoEvidence = {
    counts,
    voiceprint: (s) => c.print.extract(c.f, track, s),
    embeddings: () => (embeddings ??= c.embedding ? speakerEmbeddings(c.embedding, c.model, c.regions, track, k + 1) : null),
  };
  if (mergeVetoed(evidence, r, k, to)) return false;
  const emb = evidence.embeddings();
  if (!emb || !c.embedding) return true;
  const pieces = pieceEmbeddings(c.embedding, frames);
  const toward = embeddingDistance(pieces, emb[to]!);
  const away = embeddingDistance(pieces, emb[from]!);
  return toward === null || away === null || toward + r.reassignEmbeddingMargin < away;
}

/** One round: moves the accepted groups in `frameSpeaker` (speakers 0..k-1); whether any moved. */
export function reassignPieces(c: ReassignContext, frameSpeaker: Int16Array, k: number, r: ReassignRules): boolean {
  const moves: [number[], number][] = [];
  const sizes = new Int32Array(k);
  for (let i = 0; i < frameSpeaker.length; i++) if (c.model[i] && frameSpeaker[i]! >= 0) sizes[frameSpeaker[i]!] = sizes[frameSpeaker[i]!]! + 1;
  for (const [key, frames] of reassignmentProposals(c, frameSpeaker, k, r.reassignMargin)) {
    if (frames.length < r.reassignMinSec * 100) continue;
    const from = Math.floor(key / k);
    const to = key % k;
    if (accepted(c, frameSpeaker, sizes, from, to, frames, r)) moves.push([frames, to]);
  }
  // Judged against the same labels, then applied together.
  for (const [frames, to] of moves) for (const i of frames) frameSpeaker[i] = to;
  return moves.length > 0;
}
