// Two-stage diarization for long recordings. Window clustering into a handful of initial clusters
// does not scale with the number of voices: past ~5 minutes several voices share one initial
// cluster and no later merge can undo it. A long recording is therefore cut into chunks of a few
// minutes at speech-region boundaries, each chunk is diarized as a short recording (where the
// pipeline is calibrated), and the chunk speakers are then linked across chunks. Two speakers
// of one chunk are never linked: the chunk stage already decided, on local evidence, that they
// differ. Linking uses the recording-wide UBM (so that models of different chunks compare) with
// the merge stage's size-weighted CLR and voiceprint veto, and also links two chunk speakers
// whose voiceprints match as the cross-recording identity does (SAME_SPEAKER_THRESHOLD): the
// parts of a long recording can differ in channel, and the CLR of one voice on two channels is
// often far below the merge threshold.
import { NUM_CEPS, type FrameFeatures } from '../features.ts';
import type { FrameRegion } from '../vad.ts';
import { adaptMeans, frameLlr } from './gmm-speakers.ts';
import type { RecordingModels } from './speaker-models.ts';
import { framesByLabel } from './speaker-frames.ts';
import { clrSizeWeight } from './merge-choice.ts';
import { CepstralVoiceprint, SAME_SPEAKER_THRESHOLD, voiceprintSimilarity } from '../voiceprint.ts';

const PRINT = new CepstralVoiceprint();
/** Frames per chunk speaker scored for the cross-likelihood ratio (evenly spread; bounds the cost). */
const MAX_SCORED_FRAMES = 2000;

export interface Chunk {
  start: number;
  end: number;
  regions: FrameRegion[];
}

/** A view of frames a..b (no copy). */
export function sliceFeatures(f: FrameFeatures, a: number, b: number): FrameFeatures {
  return {
    frames: b - a,
    energyDb: f.energyDb.subarray(a, b),
    bandDb: f.bandDb.subarray(a, b),
    mfcc: f.mfcc.subarray(a * NUM_CEPS, b * NUM_CEPS),
    pitchHz: f.pitchHz.subarray(a, b),
    periodicity: f.periodicity.subarray(a, b),
    tonality: f.tonality.subarray(a, b),
    ...(f.fbank ? { fbank: { bins: f.fbank.bins, data: f.fbank.data.subarray(a * f.fbank.bins, b * f.fbank.bins) } } : {}),
  };
}

/** Chunks of about equal length (near `chunkFrames`), cut between speech regions; regions are chunk-relative. */
export function chunkRanges(regions: FrameRegion[], frames: number, chunkFrames: number): Chunk[] {
  const n = Math.max(1, Math.round(frames / chunkFrames));
  const target = frames / n;
  const out: Chunk[] = [];
  let cur: FrameRegion[] = [];
  const close = (): void => {
    const start = cur[0]!.start;
    out.push({ start, end: cur[cur.length - 1]!.end, regions: cur.map((r) => ({ start: r.start - start, end: r.end - start })) });
    cur = [];
  };
  for (const r of regions) {
    if (cur.length && r.end - cur[0]!.start > target && out.length < n - 1) close();
    cur.push(r);
  }
  if (cur.length) close();
  return out;
}

export interface LinkOptions {
  clrThreshold: number;
  clrScaleFrames: number;
  mergeVetoSimilarity: number;
  mergeVetoMinSec: number;
  /** Linking goes on past the threshold while more than twice this many speakers remain (bounds memory). */
  maxInitialClusters: number;
}

/** What linking reads of the recording-wide speaker models (speaker-models.ts). */
type SpeakerModelling = Pick<RecordingModels, 'f' | 'ubm' | 'cep' | 'model' | 'align'>;

type ChunkDiarizer = (f: FrameFeatures, regions: FrameRegion[], mask: Uint8Array) => { frameSpeaker: Int16Array; speakers: number };

/** Chunk speakers of a long recording: `label[i]` = chunk speaker of frame i (or -1), `chunkOf[s]` = its chunk. */
export interface ChunkSpeakers {
  label: Int32Array;
  chunkOf: number[];
}

/**
 * Stage 1: diarizes each chunk with `diarizeChunk`. Run before the recording-wide speaker
 * features are built, so that the chunks' scratch memory is gone by then (on an hour this keeps
 * the peak where the single-stage path has it).
 */
export function chunkSpeakers(f: FrameFeatures, regions: FrameRegion[], mask: Uint8Array, chunkSec: number, diarizeChunk: ChunkDiarizer): ChunkSpeakers {
  const label = new Int32Array(f.frames).fill(-1);
  const chunkOf: number[] = [];
  chunkRanges(regions, f.frames, chunkSec * 100).forEach((c, ci) => {
    const sub = diarizeChunk(sliceFeatures(f, c.start, c.end), c.regions, mask.subarray(c.start, c.end));
    const first = chunkOf.length;
    for (let t = 0; t < sub.frameSpeaker.length; t++) if (sub.frameSpeaker[t]! >= 0) label[c.start + t] = first + sub.frameSpeaker[t]!;
    for (let x = 0; x < sub.speakers; x++) chunkOf.push(ci);
  });
  return { label, chunkOf };
}

/**
 * Stage 2 (called by the count stage, speaker-count.ts): links the chunk speakers; returns the
 * modelling frames of each linked speaker.
 */
export function linkedChunkGroups({ label, chunkOf }: ChunkSpeakers, m: SpeakerModelling, o: LinkOptions): Int32Array[] {
  const owner = linkChunkSpeakers(m, label, chunkOf, o);
  const ids = [...new Set(owner)];
  const index = new Map(ids.map((id, g) => [id, g]));
  // Chunk speaker -> linked group, so that the frames are gathered by one table look-up each.
  const groupOf = Int32Array.from(owner, (id) => index.get(id)!);
  return framesByLabel(label, ids.length, m.model, groupOf);
}

/**
 * Links chunk speakers (`label[i]` = chunk speaker of frame i or -1, `chunkOf[s]` = its chunk)
 * bottom-up: pairs whose voiceprints match first (most similar first), then the pair with the
 * best size-weighted CLR under GMM-UBM models of the whole recording while it passes the merge
 * threshold. Returns the linked speaker (an id of one of its chunk speakers) per chunk speaker.
 */
function linkChunkSpeakers({ f, ubm, cep, model, align }: SpeakerModelling, label: Int32Array, chunkOf: number[], o: LinkOptions): Int32Array {
  const n = chunkOf.length;
  const owner = Int32Array.from({ length: n }, (_, i) => i);
  if (n <= 1) return owner;
  const groups = framesByLabel(label, n, model);
  // shared[a * n + b] = 1 when groups a and b hold speakers of one chunk (a flag matrix, so that
  // the O(n^2) pair scan per link allocates nothing).
  const shared = new Uint8Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) shared[a * n + b] = chunkOf[a] === chunkOf[b] ? 1 : 0;
  // A linked group is the list of its chunk speakers; its frames are not concatenated (an hour
  // holds ~90 chunk speakers, and copying growing frame lists at every link is wasted memory).
  const members: number[][] = groups.map((_, g) => [g]);
  const size = groups.map((fr) => fr.length);
  /** Up to MAX_SCORED_FRAMES frames of group g, evenly spread. */
  const sample = (g: number): Int32Array => {
    const total = size[g]!;
    const take = Math.min(total, MAX_SCORED_FRAMES);
    const out = new Int32Array(take);
    let x = 0;
    let offset = 0;
    for (const s of members[g]!) {
      const fr = groups[s]!;
      for (; x < take; x++) {
        const at = take === total ? x : Math.floor((x * total) / take);
        if (at >= offset + fr.length) break;
        out[x] = fr[at - offset]!;
      }
      offset += fr.length;
    }
    return out.subarray(0, x);
  };
  const samples = groups.map((_, g) => sample(g));
  const means: (Float64Array | undefined)[] = groups.map((fr) => adaptMeans(ubm, cep, align, fr));
  // score[a][b] = mean LLR of group a's (sampled) frames under group b's model.
  const meanScore = (a: number, b: number): number => {
    const s = samples[a]!;
    let t = 0;
    for (let j = 0; j < s.length; j++) t += frameLlr(ubm, means[b]!, cep, align, s[j]!);
    return t / Math.max(1, s.length);
  };
  // Voiceprints from the same sampled frames: the pitch quantiles would otherwise sort every
  // frame of a growing group at each link.
  const tag = new Int16Array(f.frames).fill(-1);
  const printOf = (g: number): number[] => {
    const fr = samples[g]!;
    for (let j = 0; j < fr.length; j++) tag[fr[j]!] = 0;
    const p = PRINT.extract(f, tag, 0);
    for (let j = 0; j < fr.length; j++) tag[fr[j]!] = -1;
    return p;
  };
  const prints = groups.map((_, g) => printOf(g));
  const score: number[][] = Array.from({ length: n }, (_, a) => Array.from({ length: n }, (_, b) => (a === b ? 0 : meanScore(a, b))));
  const alive = new Uint8Array(n).fill(1);
  for (let speakers = n; ; speakers--) {
    let best = -Infinity;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        if (!alive[i] || !alive[j]) continue;
        if (shared[i * n + j]) continue;
        const ni = size[i]!;
        const nj = size[j]!;
        const sim = voiceprintSimilarity(prints[i]!, prints[j]!);
        if (Math.min(ni, nj) >= o.mergeVetoMinSec * 100 && sim < o.mergeVetoSimilarity) continue;
        const clr = (score[i]![j]! + score[j]![i]!) * clrSizeWeight(ni, nj, o.clrScaleFrames);
        const s = sim >= SAME_SPEAKER_THRESHOLD ? Math.max(clr, 1e3 + sim) : clr;
        if (s > best) {
          best = s;
          bi = i;
          bj = j;
        }
      }
    if (bi < 0 || (best < o.clrThreshold && speakers <= o.maxInitialClusters)) break;
    for (const s of members[bj]!) members[bi]!.push(s);
    size[bi] = size[bi]! + size[bj]!;
    for (let x = 0; x < n; x++) {
      const v = shared[bi * n + x]! | shared[bj * n + x]!;
      shared[bi * n + x] = v;
      shared[x * n + bi] = v;
    }
    alive[bj] = 0;
    means[bj] = undefined;
    for (let x = 0; x < n; x++) if (owner[x] === bj) owner[x] = bi;
    means[bi] = adaptMeans(ubm, cep, align, ...members[bi]!.map((s) => groups[s]!));
    samples[bi] = sample(bi);
    samples[bj] = new Int32Array(0);
    prints[bi] = printOf(bi);
    for (let x = 0; x < n; x++) {
      if (!alive[x] || x === bi) continue;
      score[bi]![x] = meanScore(bi, x);
      score[x]![bi] = meanScore(x, bi);
    }
  }
  return owner;
}
