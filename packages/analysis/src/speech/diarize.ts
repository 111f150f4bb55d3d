// Speaker diarization from frame features, with no pretrained network (one small linear projection,
// the window embedding's LDA, is trained offline on voices outside the dev set: training/):
// 1. a universal background model (UBM, a diagonal GMM) is fitted to the recording's voiced
//    frames (standardised c1..c19 and log F0);
// 2. windows of speech are described by their GMM supervectors and median F0 and clustered
//    bottom-up (cosine distance + pitch distance) into at most a handful of initial clusters;
// 3. the clusters become GMM-UBM speaker models (MAP-adapted means) plus an F0 Gaussian; a
//    Viterbi pass with a speaker-change penalty resegments frame by frame, and the pair of
//    speakers whose models explain each other best (cross-likelihood ratio, CLR, weighted by how
//    much of each model comes from its own data) is merged while it stays above a threshold,
//    unless the two voices' voiceprints or window embeddings say they differ; clusters with too
//    little voiced speech are always merged into their closest partner, and two whose
//    voiceprints match closely are merged even when the CLR says no (merge-choice.ts). The
//    speaker count is where merging stops;
// 4. with the count settled, pieces of speech move between speakers when their own speaker's
//    model, re-estimated without them, explains them worse than another's and the channel-robust
//    views of the voice agree (reassign.ts), and last resegmentation passes with cheaper speaker
//    changes at pauses and Z-normed scores follow; the two alternate until no piece moves;
// 5. last, in a recording short enough for one stage, pieces move to the speaker whose mean
//    window embedding they lie nearest (k-means from those labels, embedding-refine.ts): the
//    likelihood models of step 4 keep a second voice in a cluster that has adapted to it.
// The UBM's seeding decides too much of the outcome (docs/analysis-speech.md), so steps 1-5 run
// from seedCandidates seedings and the run whose speakers best fit the window embedding, which
// owes nothing to the UBM, is kept (partition-fit.ts).
// Recordings longer than `longRecordingSec` are diarized in chunks first (diarize-long.ts).
// Speakers are numbered in order of first speech.
import { NUM_CEPS, type FrameFeatures } from './features.ts';
import type { FrameRegion } from './vad.ts';
import { agglomerate } from './cluster.ts';
import { framePitchSemitones, hzToSemitones, pitchGaussian, pitchLogLikelihood, pitchSums } from './pitch.ts';
import { adaptMeans, alignToUbm, frameLlr } from './gmm-speakers.ts';
import { reassignPieces, type ReassignContext } from './reassign.ts';
import { accumulate, emptyUbmStats, trainUbm, type Ubm, type UbmStats } from './ubm.ts';
import { quantile } from './stats.ts';
import { CepstralVoiceprint } from './voiceprint.ts';
import { chunkSpeakers, linkedChunkGroups } from './diarize-long.ts';
import { bridgedPauses, concatFrames, framesByLabel, modellingMask, standardisedCepstra, windowSpans } from './speaker-frames.ts';
import { rangeEmbedder, speakerEmbeddings, type EmbeddingSum, type RangeEmbedder } from './window-embedding.ts';
import { forcedMerge, pairClr, pickMerge, type MergeEvidence } from './merge-choice.ts';
import { DEFAULT_EMBEDDING } from './default-embedding.ts';
import { bestFitting, embedWindows, type EmbeddedWindows } from './partition-fit.ts';
import { decideSpeakerCount } from './speaker-count.ts';
import { DIARIZE_DEFAULTS, type DiarizeOptions } from './diarize-options.ts';
import { refineByEmbedding } from './embedding-refine.ts';
import { compactColumns, normaliseByImpostors, renumberByFirstSpeech, viterbiEmissions } from './viterbi.ts';

const VETO_PRINT = new CepstralVoiceprint();

export { DIARIZE_DEFAULTS, type DiarizeOptions, type MergeTrace } from './diarize-options.ts';

export interface Diarization {
  /** Speaker per frame, -1 for non-speech; speakers renumbered in order of first speech. */
  frameSpeaker: Int16Array;
  speakers: number;
  /** True when the speakers came from a transcript's named cues rather than from clustering. */
  guided: boolean;
}

const CEP_DIMS = NUM_CEPS - 1;
const MAX_CLUSTER_ITEMS = 600;
const MAX_UBM_FRAMES = 6000;
const UBM_ITERATIONS = 6;
/** A transcript name needs 1 s of voiced speech in its cues to become a speaker model. */
const GUIDE_MIN_FRAMES = 100;

interface Window {
  start: number;
  end: number;
  stats: UbmStats;
  speechFrames: number;
  /** Median F0 in semitones over the window's modelling frames. */
  pitchSt: number;
}

/** UBM statistics and median F0 of one window's modelling frames. */
function makeWindow(f: FrameFeatures, ubm: Ubm, cep: Float32Array, model: Uint8Array, start: number, end: number, scratch: Float64Array): Window {
  const stats = emptyUbmStats(ubm);
  const st: number[] = [];
  let speechFrames = 0;
  for (let i = start; i < end; i++)
    if (model[i]) {
      accumulate(ubm, cep, i, stats, scratch);
      speechFrames++;
      if (f.pitchHz[i]! > 0) st.push(hzToSemitones(f.pitchHz[i]!));
    }
  return { start, end, stats, speechFrames, pitchSt: quantile(st, 0.5) ?? NaN };
}

/**
 * Bottom-up clustering of speech windows (at most MAX_CLUSTER_ITEMS of them, evenly spread, so
 * that long recordings cost no more memory or time here than a half-hour one): frames per
 * initial cluster.
 */
function clusterWindows(f: FrameFeatures, regions: FrameRegion[], ubm: Ubm, cep: Float32Array, model: Uint8Array, o: typeof DIARIZE_DEFAULTS): Int32Array[] {
  const win = Math.round(o.windowSec * 100);
  const hop = Math.round(o.hopSec * 100);
  const modelledFrames = (a: number, b: number): number => {
    let n = 0;
    for (let i = a; i < b; i++) n += model[i]!;
    return n;
  };
  const spans = windowSpans(regions, win, hop).filter((w) => modelledFrames(w.start, w.end) >= 10);
  const stride = Math.max(1, spans.length / MAX_CLUSTER_ITEMS);
  const scratch = new Float64Array(ubm.components);
  const picked: Window[] = [];
  for (let x = 0; x < spans.length; x += stride) {
    const span = spans[Math.floor(x)]!;
    picked.push(makeWindow(f, ubm, cep, model, span.start, span.end, scratch));
  }
  const { labels, k } = agglomerate(
    ubm,
    picked.map((w) => w.stats),
    o.clusterThreshold,
    o.maxInitialClusters,
    picked.map((w) => w.pitchSt),
    picked.map((w) => w.speechFrames),
    o.clusterPitchWeight,
  );
  // Windows overlap, so a frame can appear more than once (weighting it as the windows did).
  const sizes = new Int32Array(k);
  picked.forEach((w, i) => {
    const c = labels[i]!;
    for (let t = w.start; t < w.end; t++) sizes[c] = sizes[c]! + model[t]!;
  });
  const initial = Array.from(sizes, (n) => new Int32Array(n));
  sizes.fill(0);
  picked.forEach((w, i) => {
    const c = labels[i]!;
    const into = initial[c]!;
    let at = sizes[c]!;
    for (let t = w.start; t < w.end; t++) if (model[t]) into[at++] = t;
    sizes[c] = at;
  });
  return initial;
}

/**
 * Speaker groups from a transcript guide (`guide[i]` = index of the named speaker whose cue
 * covers frame i, -1 for none or several): the modelled frames of each name with at least
 * GUIDE_MIN_FRAMES of them, or null when no name has enough to be modelled.
 */
function guideGroups(guide: Int16Array, model: Uint8Array): Int32Array[] | null {
  let names = 0;
  for (let i = 0; i < guide.length; i++) names = Math.max(names, guide[i]! + 1);
  const usable = framesByLabel(guide, names, model).filter((fr) => fr.length >= GUIDE_MIN_FRAMES);
  return usable.length > 0 ? usable : null;
}

/**
 * `guide`, when given, is a per-frame speaker track read from a transcript's named cues
 * (language/transcript-guide.ts): each named speaker then becomes one speaker model trained on
 * the frames of its cues, and one resegmentation pass assigns every speech frame (also those no
 * cue covers) to the best of them; the speaker count is the number of names, with no merging.
 */
export function diarize(f: FrameFeatures, regions: FrameRegion[], mask: Uint8Array, options: DiarizeOptions = {}, guide?: Int16Array | null): Diarization {
  return diarizeRange(f, regions, mask, options, guide ?? null, true);
}

/** `chunked`: whether a long recording may be cut into chunks (never again inside a chunk). */
function diarizeRange(f: FrameFeatures, regions: FrameRegion[], mask: Uint8Array, options: DiarizeOptions, guide: Int16Array | null, chunked: boolean): Diarization {
  const o = { ...DIARIZE_DEFAULTS, ...options };
  const long = !guide && chunked && f.frames > o.longRecordingSec * 100 && f.frames <= o.longRecordingMaxSec * 100;
  if (guide || regions.length === 0 || !o.voicedOnly) return diarizeSeeded(f, regions, mask, options, guide, chunked);
  // The speaker frames and features do not depend on the UBM's seeding: built once for every run.
  const model = modellingMask(f, mask, true);
  const dims = CEP_DIMS + 1;
  const cep = standardisedCepstra(f, model, true);
  const embedding = rangeEmbedder(o.embeddingModel ?? DEFAULT_EMBEDDING, cep, dims, model);
  if (!embedding) return diarizeSeeded(f, regions, mask, options, null, chunked);
  // The embedded windows serve the spectral count and the choice between seedings: embedded
  // only when one of them runs (a long recording under the merging rule needs neither).
  let windows: EmbeddedWindows | undefined;
  const windowsOnce = (): EmbeddedWindows => (windows ??= embedWindows(embedding, regions));
  const speech = { model, cep, embedding, count: countBounds(windowsOnce, o) };
  if (long || o.seedCandidates <= 1) return diarizeSeeded(f, regions, mask, options, null, chunked, speech);
  // Several UBM seedings, and the run whose speakers the (UBM-free) window embedding fits best.
  const phases = Array.from({ length: o.seedCandidates }, (_, m) => (o.ubmSeedPhase + m / o.seedCandidates) % 1);
  return bestFitting(phases, (phase) => diarizeSeeded(f, regions, mask, { ...options, ubmSeedPhase: phase }, null, chunked, speech), windowsOnce(), model);
}

/**
 * The speaker count the merging stage must reach: the user's bounds, and under the spectral rule
 * the count read off the window embeddings within them (speaker-count.ts).
 */
function countBounds(windows: () => EmbeddedWindows, o: typeof DIARIZE_DEFAULTS & DiarizeOptions): { min: number; max: number } {
  const hint = o.speakers ?? { min: 1, max: Infinity };
  if (o.countRule === 'merging') return hint;
  const w = windows();
  const decided = decideSpeakerCount(w.vectors, w.dims, w.start.length, { min: hint.min, max: Math.min(hint.max, o.maxInitialClusters) });
  return decided ? { min: decided.count, max: decided.count } : hint;
}

/** One run from the UBM seeding of `options`; `speech`: the speaker frames, their features and the count's bounds, when already known. */
function diarizeSeeded(f: FrameFeatures, regions: FrameRegion[], mask: Uint8Array, options: DiarizeOptions, guide: Int16Array | null, chunked: boolean, speech?: { model: Uint8Array; cep: Float32Array; embedding: RangeEmbedder; count: { min: number; max: number } }): Diarization {
  const o = { ...DIARIZE_DEFAULTS, ...options };
  const frameSpeaker = new Int16Array(f.frames).fill(-1);
  if (regions.length === 0) return { frameSpeaker, speakers: 0, guided: false };

  const long = !guide && chunked && f.frames > o.longRecordingSec * 100 && f.frames <= o.longRecordingMaxSec * 100;
  const chunks = long ? chunkSpeakers(f, regions, mask, o.chunkSec, (sf, sr, sm) => diarizeRange(sf, sr, sm, { ...options, trace: undefined, speakers: { min: 1, max: o.speakers?.max ?? Infinity } }, null, false)) : null;
  // Speaker models use the frames that carry voice: voiced, and within 30 dB of the loud frames.
  const model = speech?.model ?? modellingMask(f, mask, o.voicedOnly);
  const cep = speech?.cep ?? standardisedCepstra(f, model, o.voicedOnly);
  const dims = CEP_DIMS + (o.voicedOnly ? 1 : 0);
  // The window embedding's model reads the voiced-only features (c1..c19 and log F0).
  const embedding = speech?.embedding ?? rangeEmbedder(o.embeddingModel ?? DEFAULT_EMBEDDING, cep, dims, model);
  let modelled = 0;
  for (let i = 0; i < f.frames; i++) modelled += model[i]!;
  const modelFrames = new Int32Array(modelled);
  for (let i = 0, j = 0; i < f.frames; i++) if (model[i]) modelFrames[j++] = i;
  if (modelFrames.length < 50) {
    for (const r of regions) frameSpeaker.fill(0, r.start, r.end);
    return { frameSpeaker, speakers: 1, guided: false };
  }
  // A speaker needs enough voiced speech to be told apart from noise in the clustering: a few
  // seconds, but less in a short recording.
  const minSpeaker = Math.min(o.minSpeakerSec * 100, o.minSpeakerShare * modelFrames.length);
  const ubmFrames = modelFrames.filter((_, i) => i % Math.max(1, Math.floor(modelFrames.length / MAX_UBM_FRAMES)) === 0);
  const ubm = trainUbm(cep, dims, ubmFrames, o.ubmComponents, UBM_ITERATIONS, o.ubmSeedPhase);
  const align = alignToUbm(ubm, cep, model);
  // 1. Initial speaker groups: from the transcript's named cues when they describe the speech;
  // else in a long recording the speakers of its chunks, linked across chunks; else from
  // clustering the windows.
  const guided = guide ? guideGroups(guide, model) : null;
  const initial = guided ?? (chunks ? linkedChunkGroups(f, chunks, { ubm, cep, model, align }, o) : clusterWindows(f, regions, ubm, cep, model, o));

  // 2. Resegment with GMM-UBM speaker models; merge the pair of speakers whose models explain
  // each other's frames best (cross-likelihood ratio) while that ratio is above the threshold.
  let groups = initial.filter((fr) => fr.length > 0);
  const pitchSt = framePitchSemitones(f.pitchHz);
  const filePitch = pitchGaussian(pitchSums(pitchSt, modelFrames));
  let emission: Float32Array | undefined;
  // The last passes (after merging) let the speaker change more cheaply at pauses inside regions;
  // the pauses are found when those passes start (guided and chunked recordings never get there).
  let pauses: { frames: Uint8Array; penalty: number } | undefined;
  let lastPass = false;
  // Before the last passes, and after each set of them, pieces may move between speakers
  // (reassign.ts) until none does.
  let reassignRounds = o.reassignRounds;
  let reassignContext: ReassignContext | undefined;
  const reassign = (k: number): boolean => {
    if (reassignRounds <= 0 || !pauses) return false;
    reassignRounds--;
    reassignContext ??= {
      f, regions, model, ubm, cep, dims, align, pitchSt, filePitch,
      pitchWeight: o.pitchStreamWeight,
      pauses: pauses.frames,
      print: VETO_PRINT,
      embedding,
    };
    return reassignPieces(reassignContext, frameSpeaker, k, o);
  };
  for (let round = 0; ; round++) {
    let k2 = groups.length;
    // One buffer for the per-frame scores, reused (stride k2) across passes: for an hour of
    // audio it is the largest array here.
    emission ??= new Float32Array(f.frames * k2);
    // Two resegmentation passes from the window clusters, then one after each merge, and
    // lastPasses at the end.
    for (let it = 0; it < (round === 0 && !guided ? 2 : lastPass ? o.lastPasses : 1); it++) {
      const means = groups.map((fr) => adaptMeans(ubm, cep, align, fr));
      const pitchModels = groups.map((fr) => pitchGaussian(pitchSums(pitchSt, fr)));
      emission.fill(0, 0, f.frames * k2);
      for (let i = 0; i < f.frames; i++) {
        if (!model[i]) continue;
        const st = pitchSt[i]!;
        const fileLl = Number.isNaN(st) ? 0 : pitchLogLikelihood(st, filePitch);
        for (let s2 = 0; s2 < k2; s2++) {
          const pitchLl = Number.isNaN(st) ? 0 : pitchLogLikelihood(st, pitchModels[s2]!) - fileLl;
          emission[i * k2 + s2] = frameLlr(ubm, means[s2]!, cep, align, i) + o.pitchStreamWeight * pitchLl;
        }
      }
      if (lastPass && o.lastPassZnorm) normaliseByImpostors(emission, k2, model, frameSpeaker);
      viterbiEmissions(emission, k2, regions, o.switchPenalty, frameSpeaker, pauses);
      const order = renumberByFirstSpeech(frameSpeaker);
      compactColumns(emission, f.frames, k2, order);
      k2 = order.size;
      groups = framesByLabel(frameSpeaker, k2, model);
    }
    if (lastPass) {
      if (!reassign(k2)) break;
      groups = framesByLabel(frameSpeaker, k2, model);
      continue;
    }
    // A transcript-guided recording has its speakers from the names, a chunked one from its
    // chunks (merged within each chunk, linked across them): the passes above only refine their
    // boundaries, and no merge follows.
    // A chunked one merges further only when it has more speakers than the count allows.
    const bounds = speech?.count ?? o.speakers ?? { min: 1, max: Infinity };
    if (guided || k2 <= 1 || (chunks && k2 <= bounds.max)) break;
    // Mean LLR of each cluster's frames under each model.
    const sums = new Float64Array(k2 * k2);
    const counts = new Float64Array(k2);
    for (let i = 0; i < f.frames; i++) {
      const s2 = frameSpeaker[i]!;
      if (s2 < 0 || !model[i]) continue;
      counts[s2] = counts[s2]! + 1;
      for (let m = 0; m < k2; m++) sums[s2 * k2 + m] = sums[s2 * k2 + m]! + emission[i * k2 + m]!;
    }
    const prints: (number[] | undefined)[] = [];
    let embeddings: EmbeddingSum[] | null | undefined;
    const evidence: MergeEvidence = {
      k: k2,
      counts,
      sums,
      minSpeakerFrames: minSpeaker,
      // Each scans every frame, and most rounds need few or none: computed on first use.
      voiceprint: (c) => (prints[c] ??= VETO_PRINT.extract(f, frameSpeaker, c)),
      embeddings: () => (embeddings ??= embedding ? speakerEmbeddings(embedding, model, regions, frameSpeaker, k2) : null),
    };
    if (o.trace) {
      const clr = Array.from({ length: k2 }, (_, i) => Array.from({ length: k2 }, (_, j) => pairClr(evidence, i, j, 0)));
      const self = Array.from({ length: k2 }, (_, i) => sums[i * k2 + i]! / Math.max(1, counts[i]!));
      o.trace({ round, frameSpeaker, counts: Array.from(counts), clr, self });
    }
    // The count's bounds first (speaker-count.ts, the user's hint), then the evidence.
    const pick = k2 <= bounds.min ? null : k2 > bounds.max ? forcedMerge(evidence, o) : pickMerge(evidence, o);
    if (pick) {
      groups[pick.i] = concatFrames(groups[pick.i]!, groups[pick.j]!);
      groups.splice(pick.j, 1);
      continue;
    }
    // The count is settled.
    if (o.pauseSwitchPenalty >= o.switchPenalty) break;
    pauses = { frames: bridgedPauses(regions, model, Math.round(o.pauseMinSec * 100)), penalty: o.pauseSwitchPenalty };
    lastPass = true;
    if (reassign(k2)) groups = framesByLabel(frameSpeaker, k2, model);
  }
  // 5. Pieces move to the speaker the window embedding puts them nearest (embedding-refine.ts).
  // Not inside a long recording's chunks (`chunked` is false there): on the joined long files it
  // made one held-out file's chunk linking worse at every seed phase tried (docs/analysis-speech.md).
  if (pauses && chunked && embedding) {
    // The last passes left the speakers numbered 0..groups.length - 1.
    refineByEmbedding({ regions, model, cep, dims, pauses: pauses.frames, embedding }, frameSpeaker, groups.length, o);
  }
  return { frameSpeaker, speakers: renumberByFirstSpeech(frameSpeaker, Math.max(1, Math.round(o.firstSpeechMinSec * 100))).size, guided: guided !== null };
}

