// The last refinement of the track from the audio: near each change of the first track, frames
// are given to the speaker whose voice model explains them best. The clustering decides who the
// speakers are from embeddings of a few seconds of clean speech each, and the reconstruction
// places the changes where the windows' averaged activities cross, which blurs them by a few
// tenths of a second; a frame-level model of each voice sees the change itself. The models are
// those of the transcript-guided path (guided.ts: the recording's GMM-UBM adapted to each
// speaker's frames, and its F0, with one Viterbi pass at a cost per change of speaker), trained
// here on each speaker's clean frames (those where one speaker speaks). Only frames within
// `reachFrames` of a change (of speaker, or of speech to non-speech) may move: the models decide
// the edges, never whole stretches. Everywhere at once, the same models moved whole turns to the
// wrong voice on one file in two (measured: docs/speech-validation.md, "Issue 38: boundary
// resegmentation").
// The count does not change: a speaker the models lose keeps its frames.
import type { FrameFeatures } from '../features.ts';
import type { FrameRegion } from '../vad.ts';
import { diarizeGuided } from './guided.ts';
import type { GuidedSettings } from './settings.ts';

/**
 * Moves, in place, frames of `first` (speakers 0..k-1, -1 for none) within `reachFrames` of a
 * change to the speaker the voice models prefer; a frame whose new speaker was its second
 * speaker swaps the two. Nothing moves with one speaker, or when no speaker can be modelled.
 * `prepared`: the modelling mask of `speech` and its standardised cepstra, when already made.
 */
export function resegmentBoundaries(
  f: FrameFeatures,
  regions: FrameRegion[],
  speech: Uint8Array,
  first: Int16Array,
  second: Int16Array,
  k: number,
  reachFrames: number,
  g: GuidedSettings,
  prepared?: { model: Uint8Array; cep: Float32Array },
): void {
  if (reachFrames <= 0 || k < 2) return;
  const clean = Int16Array.from(first, (x, i) => (second[i]! < 0 ? x : -1));
  const r = diarizeGuided(f, regions, speech, clean, g, prepared);
  if (!r) return;
  // The models' speakers are numbered anew (and one with too little speech is dropped): each is
  // matched to the speaker it shares most frames with, one to one, the largest overlaps first.
  const shared = new Float64Array(r.speakers * k);
  for (let i = 0; i < first.length; i++) {
    const a = r.frameSpeaker[i]!;
    const b = first[i]!;
    if (a >= 0 && b >= 0) shared[a * k + b] = shared[a * k + b]! + 1;
  }
  const pairs: { n: number; a: number; b: number }[] = [];
  for (let a = 0; a < r.speakers; a++) for (let b = 0; b < k; b++) if (shared[a * k + b]! > 0) pairs.push({ n: shared[a * k + b]!, a, b });
  pairs.sort((x, y) => y.n - x.n);
  const speakerOf = new Int16Array(r.speakers).fill(-1);
  const matched = new Uint8Array(k);
  for (const { a, b } of pairs) {
    if (speakerOf[a]! >= 0 || matched[b]) continue;
    speakerOf[a] = b;
    matched[b] = 1;
  }
  const near = new Uint8Array(first.length);
  for (let i = 1; i < first.length; i++) if (first[i] !== first[i - 1]) near.fill(1, Math.max(0, i - reachFrames), Math.min(first.length, i + reachFrames));
  for (let i = 0; i < first.length; i++) {
    const from = first[i]!;
    const x = r.frameSpeaker[i]!;
    const to = x >= 0 ? speakerOf[x]! : -1;
    if (!near[i] || from < 0 || to < 0 || to === from || !matched[from]) continue;
    if (second[i] === to) second[i] = from;
    first[i] = to;
  }
}
