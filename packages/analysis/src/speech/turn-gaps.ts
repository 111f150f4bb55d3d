// The silence between two speakers, given back to the track. Voice activity bridges pauses
// shorter than 0.3 s, so a floor transfer with a short gap arrives from diarization as two
// speakers touching, and the gap's frames are given to one of them. That hides the gap before
// the turn (responsiveness) and makes every quick transfer look like speech without a pause,
// which is the one sign of overlapped speech a one-speaker-per-frame track can carry.
import type { FrameFeatures } from './features.ts';

export interface TurnGapOptions {
  /** How far either side of a speaker change the silence is looked for, in frames. */
  searchFrames?: number;
  /** Shortest silence (frames below the speech threshold) that counts as a gap. */
  minGapFrames?: number;
}

/** Frame ranges where two speakers are known to overlap (a guiding transcript's cues). */
export interface KnownOverlap {
  start: number;
  end: number;
}

/**
 * Returns a copy of the frame track in which, at each change from one speaker to another
 * without a non-speech frame between them, the silence nearest the change (a run of frames whose
 * speech-band level is below `silenceDb`) is non-speech again and the change sits at it: frames
 * between the silence and the old change go to the speaker on their side of the silence.
 * Changes with no such silence nearby, or near a known overlap, are left touching.
 */
export function restoreTurnGaps(frameSpeaker: Int16Array, f: FrameFeatures, silenceDb: number, options: TurnGapOptions = {}, overlaps: readonly KnownOverlap[] = []): Int16Array {
  const search = options.searchFrames ?? 30;
  const minGap = options.minGapFrames ?? 3;
  const out = Int16Array.from(frameSpeaker);
  const n = out.length;
  const changes: number[] = [];
  for (let i = 1; i < n; i++) if (frameSpeaker[i - 1]! >= 0 && frameSpeaker[i]! >= 0 && frameSpeaker[i - 1] !== frameSpeaker[i]) changes.push(i);
  changes.forEach((at, k) => {
    // Where the speakers are known to overlap, the change has no silence of its own to move to.
    if (overlaps.some((o) => at >= o.start - search && at <= o.end + search)) return;
    const before = frameSpeaker[at - 1]!;
    const after = frameSpeaker[at]!;
    // Only the two speakers' own frames around this change, never past a neighbouring change.
    let lo = at - 1;
    while (lo > 0 && at - lo < search && frameSpeaker[lo - 1] === before && lo > (changes[k - 1] ?? 0)) lo--;
    let hi = at + 1;
    while (hi < n && hi - at < search && frameSpeaker[hi] === after && hi < (changes[k + 1] ?? n)) hi++;
    const gap = nearestSilence(f.bandDb, lo, hi, at, silenceDb, minGap);
    if (!gap) return;
    for (let i = lo; i < hi; i++) {
      // A silence that an earlier change already gave back stays silence.
      if (i >= gap.start && i < gap.end) out[i] = -1;
      else if (out[i] !== -1) out[i] = i < gap.start ? before : after;
    }
  });
  return out;
}

/** Runs of at least `minFrames` frames below `silenceDb` within [lo, hi), in order. */
function* silences(bandDb: Float32Array, silenceDb: number, lo: number, hi: number, minFrames: number): Generator<{ start: number; end: number }> {
  let i = lo;
  while (i < hi) {
    if (bandDb[i]! >= silenceDb) {
      i++;
      continue;
    }
    let e = i;
    while (e < hi && bandDb[e]! < silenceDb) e++;
    if (e - i >= minFrames) yield { start: i, end: e };
    i = e;
  }
}

/** The run of at least minGap frames below the threshold in [lo, hi) nearest to frame `at`. */
function nearestSilence(bandDb: Float32Array, lo: number, hi: number, at: number, silenceDb: number, minGap: number): { start: number; end: number } | null {
  let best: { start: number; end: number } | null = null;
  let bestDistance = Infinity;
  for (const run of silences(bandDb, silenceDb, lo, hi, minGap)) {
    const distance = at < run.start ? run.start - at : at > run.end ? at - run.end : 0;
    if (distance < bestDistance) [best, bestDistance] = [run, distance];
  }
  return best;
}

/**
 * The frames where speech starts again after a silence of at least `minFrames` frames below
 * `silenceDb` (onsets), and where such a silence starts (offsets), in increasing order: the
 * edges against which a transcript's cue times are checked (language/cue-timing.ts).
 */
export function silenceEdges(bandDb: Float32Array, silenceDb: number, minFrames = 5): { onsets: number[]; offsets: number[] } {
  const onsets: number[] = [];
  const offsets: number[] = [];
  for (const run of silences(bandDb, silenceDb, 0, bandDb.length, minFrames)) {
    if (run.start > 0) offsets.push(run.start);
    if (run.end < bandDb.length) onsets.push(run.end);
  }
  return { onsets, offsets };
}
