// From a frame-level speaker track to segments, turns (with their prosody) and per-speaker
// acoustic statistics: the speech stage's contribution to the data model of types.ts.
import type { AcousticStats, SpeechSegment, Turn } from '../types.ts';
import { FRAME_SEC, type FrameFeatures } from './features.ts';
import { hzToSemitones } from './pitch.ts';
import { mean, quantile, std } from './stats.ts';
import { RunIndex, type SpeakerRun } from './run-index.ts';

/** Same-speaker speech separated by less than this (and nobody else in between) is one turn. */
export const TURN_MERGE_GAP_SEC = 3;
/** A short utterance inside another speaker's turn is a backchannel, not a turn. */
export const BACKCHANNEL_MAX_SEC = 1;
const MIN_VOICED_FRAMES = 10;
const MIN_RATE_SEC = 1;

export function frameTrackToSegments(frameSpeaker: Int16Array): SpeechSegment[] {
  const out: SpeechSegment[] = [];
  let i = 0;
  while (i < frameSpeaker.length) {
    const s = frameSpeaker[i]!;
    let e = i + 1;
    while (e < frameSpeaker.length && frameSpeaker[e] === s) e++;
    if (s >= 0) out.push({ speaker: s, start: round3(i * FRAME_SEC), end: round3(e * FRAME_SEC) });
    i = e;
  }
  return out;
}

/** Each speaker's segments joined where they overlap or touch: the segments of two tracks, or a track and a transcript's overlaps, as one list. */
export function unionPerSpeaker(segments: readonly SpeechSegment[]): SpeechSegment[] {
  const sorted = [...segments].sort((x, y) => x.speaker - y.speaker || x.start - y.start);
  const out: SpeechSegment[] = [];
  for (const seg of sorted) {
    const last = out[out.length - 1];
    if (last && last.speaker === seg.speaker && seg.start <= last.end + TOUCH_SEC) last.end = Math.max(last.end, seg.end);
    else out.push({ ...seg });
  }
  return out.sort((x, y) => x.start - y.start || x.speaker - y.speaker);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

interface Span {
  speaker: number;
  start: number;
  end: number;
  backchannel: boolean;
  interrupts: boolean;
}

/** Frame rounding: segments that touch may differ by this much in their boundaries. */
export const TOUCH_SEC = 0.02;

/**
 * Groups segments into turns, with the definitions of the dev set's manifest
 * (docs/analysis.md): a **backchannel** is a short (<= 1 s) segment that another speaker's
 * speech runs through without a pause (their segments cover it end to end, touching allowed: a
 * reply that starts in one of the other's utterances and ends in the next had the floor alone in
 * between); it is not a turn and does not break the other's. A **turn** is a run of one
 * speaker's other segments in start order, until another speaker's turn starts (or a pause
 * longer than TURN_MERGE_GAP_SEC). A turn **interrupts** when another speaker's non-backchannel
 * segment is still running at its start. Overlapped speech is what makes both visible; a track
 * with one speaker per frame shows it only where the speakers touch without a pause.
 */
export function groupTurns(segments: readonly SpeechSegment[]): Span[] {
  const sorted = [...segments].sort((a, b) => a.start - b.start || a.end - b.end);
  const speakers = sorted.reduce((n, seg) => Math.max(n, seg.speaker + 1), 0);
  const all = SpeakerReach.bySpeaker(sorted, speakers);
  const isBackchannel = backchannels(sorted, all);
  const floor = sorted.filter((_, k) => !isBackchannel[k]);
  const interrupted = new FloorReach(floor);
  const spans: Span[] = [];
  let current: Span | null = null;
  sorted.forEach((seg, k) => {
    if (isBackchannel[k]) {
      spans.push({ speaker: seg.speaker, start: seg.start, end: seg.end, backchannel: true, interrupts: false });
      return;
    }
    const interrupts = interrupted.advance(seg);
    if (current && current.speaker === seg.speaker && seg.start - current.end <= TURN_MERGE_GAP_SEC) {
      current.end = Math.max(current.end, seg.end);
      return;
    }
    current = { speaker: seg.speaker, start: seg.start, end: seg.end, backchannel: false, interrupts };
    spans.push(current);
  });
  return spans.sort((a, b) => a.start - b.start);
}

/** A speaker number that SpeakerReach.bySpeaker gives a list (others are nobody's speech). */
const isSpeaker = (w: number): boolean => Number.isInteger(w) && w >= 0;

/**
 * Which segments (sorted by start) are backchannels. A speaker runs through a short segment
 * exactly when one of its runs (its segments chained as runsThrough chains them: each starting
 * at or before the latest end so far plus TOUCH_SEC) starts by the segment's start and reaches
 * its end: so each segment asks a RunIndex for a run of another speaker with a longer segment,
 * and runsThrough confirms it. This was a sweep over the speakers of the segments live at its
 * start, quadratic where a transcript gives thousands of names at the same moment.
 */
function backchannels(sorted: readonly SpeechSegment[], all: readonly SpeakerReach[]): boolean[] {
  const ranThrough = (seg: SpeechSegment, w: number): boolean => w !== seg.speaker && all[w]!.longest > seg.end - seg.start && all[w]!.runsThrough(seg.start, seg.end);
  // The runs need starts that do not pass their ends; anything else is checked as before.
  if (!sorted.every((seg) => seg.end >= seg.start)) return sorted.map((seg) => seg.end - seg.start <= BACKCHANNEL_MAX_SEC && all.some((_, w) => ranThrough(seg, w)));
  const index = new RunIndex(speakerRuns(sorted, all));
  return sorted.map((seg) => {
    const length = seg.end - seg.start;
    if (length > BACKCHANNEL_MAX_SEC) return false;
    // The first moment runsThrough looks at, and the end it must reach, computed as it does (the
    // rounding must agree).
    index.admit(seg.start - TOUCH_SEC + TOUCH_SEC);
    return index.some(seg.end - TOUCH_SEC, length, seg.speaker, (w) => ranThrough(seg, w));
  });
}

/** Each speaker's runs, by start: segments joined while each starts at or before the latest end of the run so far plus TOUCH_SEC. */
function speakerRuns(sorted: readonly SpeechSegment[], all: readonly SpeakerReach[]): SpeakerRun[] {
  const runs: SpeakerRun[] = [];
  const open = new Map<number, SpeakerRun>();
  for (const seg of sorted) {
    const w = seg.speaker;
    if (!isSpeaker(w) || !all[w]) continue;
    const run = open.get(w);
    if (run && seg.start <= run.end + TOUCH_SEC) run.end = Math.max(run.end, seg.end);
    else {
      const next = { start: seg.start, end: seg.end, speaker: w, weight: all[w].longest };
      open.set(w, next);
      runs.push(next);
    }
  }
  return runs;
}

/**
 * Whether another speaker's floor (non-backchannel) segment that started earlier is still
 * running: the latest end of what started before, kept for the two speakers with the latest
 * ends (the latest of anyone but `speaker` is one of them), as a sweep in start order.
 */
class FloorReach {
  private next = 0;
  private best = { speaker: Number.NaN, end: -Infinity };
  /** The latest end among speakers other than best.speaker. */
  private second = -Infinity;

  private readonly floor: readonly SpeechSegment[];

  constructor(floor: readonly SpeechSegment[]) {
    this.floor = floor;
  }

  /** Whether a turn starting with `seg` (the floor's segments in order, none skipped) interrupts. */
  advance(seg: SpeechSegment): boolean {
    for (; this.next < this.floor.length && this.floor[this.next]!.start < seg.start; this.next++) {
      const { speaker, end } = this.floor[this.next]!;
      if (!isSpeaker(speaker)) continue;
      if (speaker === this.best.speaker) this.best.end = Math.max(this.best.end, end);
      else if (end > this.best.end) {
        this.second = this.best.end;
        this.best = { speaker, end };
      } else this.second = Math.max(this.second, end);
    }
    const latest = this.best.speaker === seg.speaker ? this.second : this.best.end;
    return latest > seg.start + TOUCH_SEC;
  }
}

/**
 * One speaker's segments in start order with the latest end of each prefix, so that how far
 * their speech runs from a moment is a binary search: groupTurns asks it for every short
 * segment, and scanning every segment for each was cubic in the segments of a long recording.
 */
export class SpeakerReach {
  private readonly starts: Float64Array;
  /** reach[i]: the latest end among segments 0..i. */
  private readonly reach: Float64Array;
  /** The longest segment's length (0 without any). */
  readonly longest: number;

  private constructor(segments: readonly { start: number; end: number }[]) {
    this.starts = Float64Array.from(segments, (s) => s.start);
    this.reach = new Float64Array(segments.length);
    let latest = -Infinity;
    let longest = 0;
    segments.forEach((s, i) => {
      latest = Math.max(latest, s.end);
      this.reach[i] = latest;
      longest = Math.max(longest, s.end - s.start);
    });
    this.longest = longest;
  }

  /** Of spans sorted by start (any speaker's, or none in particular). */
  static of(sorted: readonly { start: number; end: number }[]): SpeakerReach {
    return new SpeakerReach(sorted);
  }

  /** One per speaker 0..speakers-1, from segments sorted by start. */
  static bySpeaker(sorted: readonly SpeechSegment[], speakers: number): SpeakerReach[] {
    // Grouped in one pass: a filter per speaker is quadratic with a name per cue.
    const own = Array.from({ length: speakers }, (): SpeechSegment[] => []);
    for (const s of sorted) own[s.speaker]?.push(s);
    return own.map((list) => new SpeakerReach(list));
  }

  /** The latest end among segments starting before `t` (at or before, when inclusive); -Infinity for none. */
  latestEnd(t: number, inclusive: boolean): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (inclusive ? this.starts[mid]! <= t : this.starts[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? this.reach[lo - 1]! : -Infinity;
  }

  /** Whether this speaker talks from `from` to `to` without a pause (segments touching or overlapping end to start). */
  runsThrough(from: number, to: number): boolean {
    let reached = from - TOUCH_SEC;
    for (;;) {
      const next = this.latestEnd(reached + TOUCH_SEC, true);
      if (next >= to - TOUCH_SEC) return true;
      if (next <= reached) return false;
      reached = next;
    }
  }
}

function medianPitchSt(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number, from: number, to: number): number | null {
  const st: number[] = [];
  for (let i = Math.max(0, from); i < Math.min(f.frames, to); i++)
    if (frameSpeaker[i] === speaker && f.pitchHz[i]! > 0) st.push(hzToSemitones(f.pitchHz[i]!));
  return st.length >= MIN_VOICED_FRAMES ? quantile(st, 0.5) : null;
}

function meanLoudness(f: FrameFeatures, frameSpeaker: Int16Array, speaker: number, from: number, to: number): number {
  // Mean of the levels in dB of the speaker's frames (falls back to all frames of the span).
  let s = 0;
  let n = 0;
  for (let i = Math.max(0, from); i < Math.min(f.frames, to); i++)
    if (frameSpeaker[i] === speaker) {
      s += f.energyDb[i]!;
      n++;
    }
  if (n === 0) for (let i = Math.max(0, from); i < Math.min(f.frames, to); i++, n++) s += f.energyDb[i]!;
  return n ? Math.round((s / n) * 100) / 100 : -120;
}

export function buildTurns(segments: SpeechSegment[], f: FrameFeatures, frameSpeaker: Int16Array, nuclei: number[]): Turn[] {
  const spans = groupTurns(segments);
  const isNucleus = new Uint8Array(f.frames);
  for (const p of nuclei) isNucleus[p] = 1;
  return spans.map((span): Turn => {
    const a = Math.round(span.start / FRAME_SEC);
    const b = Math.round(span.end / FRAME_SEC);
    let speechFrames = 0;
    let syl = 0;
    for (let i = a; i < b; i++)
      if (frameSpeaker[i] === span.speaker) {
        speechFrames++;
        syl += isNucleus[i]!;
      }
    const speechSec = speechFrames * FRAME_SEC;
    const second = Math.round(1 / FRAME_SEC);
    return {
      speaker: span.speaker,
      start: span.start,
      end: span.end,
      pitchSt: medianPitchSt(f, frameSpeaker, span.speaker, a, b),
      loudnessDb: meanLoudness(f, frameSpeaker, span.speaker, a, b),
      rateSylPerSec: speechSec >= MIN_RATE_SEC ? syl / speechSec : null,
      initialPitchSt: medianPitchSt(f, frameSpeaker, span.speaker, a, a + second),
      finalPitchSt: medianPitchSt(f, frameSpeaker, span.speaker, b - second, b),
      initialLoudnessDb: meanLoudness(f, frameSpeaker, span.speaker, a, a + second),
      finalLoudnessDb: meanLoudness(f, frameSpeaker, span.speaker, b - second, b),
      interrupts: span.interrupts,
      backchannel: span.backchannel,
    };
  });
}

export function acousticStats(speakers: number, f: FrameFeatures, frameSpeaker: Int16Array, nuclei: number[]): AcousticStats[] {
  const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 100) / 100);
  return Array.from({ length: speakers }, (_, s): AcousticStats => {
    const st: number[] = [];
    const db: number[] = [];
    for (let i = 0; i < f.frames; i++) {
      if (frameSpeaker[i] !== s) continue;
      db.push(f.energyDb[i]!);
      if (f.pitchHz[i]! > 0) st.push(hzToSemitones(f.pitchHz[i]!));
    }
    const enough = st.length >= MIN_VOICED_FRAMES;
    const p95 = quantile(st, 0.95);
    const p5 = quantile(st, 0.05);
    return {
      speaker: s,
      pitchMedianSt: enough ? round(quantile(st, 0.5)) : null,
      pitchRangeSt: enough && p95 !== null && p5 !== null ? round(p95 - p5) : null,
      pitchVariabilitySt: enough ? round(std(st)) : null,
      loudnessMeanDb: round(mean(db)),
      loudnessVariabilityDb: round(std(db)),
      syllables: nuclei.filter((p) => frameSpeaker[p] === s).length,
      phonationSec: Math.round(db.length * FRAME_SEC * 100) / 100,
      voicedSec: Math.round(st.length * FRAME_SEC * 100) / 100,
    };
  });
}
