// Stage: the speaker count. This file is where the number of speakers is decided, for short and
// long recordings alike.
//
// Starting from the initial segments, the pair of speakers whose GMM models explain each other's
// frames best (cross-likelihood ratio, CLR, weighted by how much of each model comes from its own
// data) is merged, and the recording resegmented, while that ratio stays above a threshold,
// unless the two voices' voiceprints or window embeddings say they differ; clusters with too
// little voiced speech are always merged into their closest partner, and two whose voiceprints
// match closely are merged even when the CLR says no (merge-choice.ts). The count is where
// merging stops, within the user's bounds:
// - above the user's maximum, the pair with the best CLR is merged whatever the vetoes say;
// - at the user's minimum, nothing more is merged;
// - a transcript's names are the speakers (no merge);
// - a long recording's chunk speakers (each chunk went through this stage, within the user's
//   maximum) are first linked across chunks by the same evidence: the size-weighted CLR under the
//   same threshold, with the voiceprint veto, and never two of one chunk (long-recordings.ts).
//   The linked speakers are then merged only down to the user's maximum. Merging them again by
//   the rule above (and refining them) was measured on 2026-11-25: better on the three long files
//   of the speaker-disjoint folds (3 voices each: DER 44.2 / 39.4 / 66.5 -> 40.8 / 38.1 / 62.6 %),
//   much worse on dev files joined into long recordings of 5 to 11 voices (long03 29.4 -> 44.7 %,
//   long05 21.9 -> 37.7 %, long07 17.2 -> 34.1 %: the recording-wide CLR merges voices that each
//   chunk kept apart), so it is not done (docs/analysis-speech.md).
import { CepstralVoiceprint } from '../voiceprint.ts';
import { forcedMerge, pairClr, pickMerge, type MergeEvidence } from './merge-choice.ts';
import { concatFrames } from './speaker-frames.ts';
import { speakerEmbeddings, type EmbeddingSum } from './window-embedding.ts';
import { resegment, type Labelling } from './resegmentation.ts';
import type { InitialSegments } from './initial-segments.ts';
import { linkedChunkGroups } from './long-recordings.ts';
import type { RecordingModels } from './speaker-models.ts';
import type { DiarizationSettings, MergeTrace } from './settings.ts';

/** The view of the voice that can refuse a merge or force one (and arbitrates reassignments). */
export const VETO_PRINT = new CepstralVoiceprint();

export interface CountBounds {
  min: number;
  max: number;
}

/**
 * The speakers of `initial` once the count is decided, and whether the evidence decided it (then
 * the refinement stage follows) or it was fixed by where the speakers came from.
 */
export function decideSpeakerCount(m: RecordingModels, initial: InitialSegments, bounds: CountBounds, s: DiarizationSettings, trace?: (e: MergeTrace) => void): { lab: Labelling; how: 'settled' | 'fixed' } {
  const { f, model, modelFrames } = m;
  const { from } = initial;
  const start = from === 'chunks' ? linkedChunkGroups(initial.chunks, m, { ...s.count, maxInitialClusters: s.initialSegments.maxInitialClusters }) : initial.groups;
  const groups = start.filter((fr) => fr.length > 0);
  const lab: Labelling = { frameSpeaker: new Int16Array(f.frames).fill(-1), groups, emission: new Float32Array(f.frames * groups.length) };
  // A speaker needs enough voiced speech to be told apart from noise: a few seconds, but less in
  // a short recording.
  const minSpeakerFrames = Math.min(s.count.minSpeakerSec * 100, s.count.minSpeakerShare * modelFrames.length);
  // Two passes from the window clusters (their boundaries are the windows'), one from names.
  resegment(m, lab, from === 'transcript' ? 1 : 2, s.resegmentation);
  for (let round = 0; ; round++) {
    const k = lab.groups.length;
    if (from === 'transcript' || k <= 1 || (from === 'chunks' && k <= bounds.max)) return { lab, how: 'fixed' };
    const { frameSpeaker, emission } = lab;
    // Mean LLR of each cluster's frames under each model.
    const sums = new Float64Array(k * k);
    const counts = new Float64Array(k);
    for (let i = 0; i < f.frames; i++) {
      const x = frameSpeaker[i]!;
      if (x < 0 || !model[i]) continue;
      counts[x] = counts[x]! + 1;
      for (let y = 0; y < k; y++) sums[x * k + y] = sums[x * k + y]! + emission[i * k + y]!;
    }
    const prints: (number[] | undefined)[] = [];
    let embeddings: EmbeddingSum[] | null | undefined;
    const evidence: MergeEvidence = {
      k,
      counts,
      sums,
      minSpeakerFrames,
      // Each scans every frame, and most rounds need few or none: computed on first use.
      voiceprint: (c) => (prints[c] ??= VETO_PRINT.extract(f, frameSpeaker, c)),
      embeddings: () => (embeddings ??= m.embedding ? speakerEmbeddings(m.embedding, model, m.regions, frameSpeaker, k) : null),
    };
    if (trace) {
      const clr = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => pairClr(evidence, i, j, 0)));
      const self = Array.from({ length: k }, (_, i) => sums[i * k + i]! / Math.max(1, counts[i]!));
      trace({ round, frameSpeaker, counts: Array.from(counts), clr, self });
    }
    // The user's bounds first, then the evidence.
    const pick = k <= bounds.min ? null : k > bounds.max ? forcedMerge(evidence, s.count) : pickMerge(evidence, s.count);
    if (!pick) return { lab, how: 'settled' };
    lab.groups[pick.i] = concatFrames(lab.groups[pick.i]!, lab.groups[pick.j]!);
    lab.groups.splice(pick.j, 1);
    resegment(m, lab, 1, s.resegmentation);
  }
}
