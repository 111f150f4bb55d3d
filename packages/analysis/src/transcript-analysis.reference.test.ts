// The speaker scans as they were before they became sweeps (groupTurns, the transcript's overlap
// check and per-speaker lists, alignTranscript), kept verbatim as the reference: the new code must
// give exactly the same outputs on seeded random tracks and transcripts with ties, touching and
// overlapping segments, and few or many speakers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaAnalysis, SpeakerAnalysis, SpeechSegment, Transcript, Turn } from './types.ts';
import { ENGINE_VERSION } from './types.ts';
import { computeSpeakerMetrics } from './behavior/speaker-metrics.ts';
import { intersectionLength, unionIntervals } from './behavior/stats.ts';
import { alignTranscript, nameKey, overlapSeconds } from './language/align.ts';
import { MIN_OVERLAP_SEC } from './language/transcript-guide.ts';
import { BACKCHANNEL_MAX_SEC, groupTurns, TOUCH_SEC, TURN_MERGE_GAP_SEC, unionPerSpeaker } from './speech/turns.ts';
import { analyzeTranscript, CUES_ONLY_METHOD, NO_AUDIO_MEASURES, NO_AUDIO_REASON } from './transcript-analysis.ts';

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const MIN_NAME_SHARE = 0.6;
const MIN_SPEAKER_SHARE = 0.6;
const ALIGN_MIN_OVERLAP_SEC = 0.5;

interface Span { speaker: number; start: number; end: number; backchannel: boolean; interrupts: boolean }

// ---- speech/turns.ts before ----
function oldGroupTurns(segments: readonly SpeechSegment[]): Span[] {
  const sorted = [...segments].sort((a, b) => a.start - b.start || a.end - b.end);
  const speakers = sorted.reduce((n, seg) => Math.max(n, seg.speaker + 1), 0);
  const all = OldSpeakerReach.bySpeaker(sorted, speakers);
  const isBackchannel = sorted.map((seg) => {
    const length = seg.end - seg.start;
    return length <= BACKCHANNEL_MAX_SEC && all.some((other, w) => w !== seg.speaker && other.longest > length && other.runsThrough(seg.start, seg.end));
  });
  const floor = OldSpeakerReach.bySpeaker(sorted.filter((_, k) => !isBackchannel[k]), speakers);
  const spans: Span[] = [];
  let current: Span | null = null;
  sorted.forEach((seg, k) => {
    if (isBackchannel[k]) {
      spans.push({ speaker: seg.speaker, start: seg.start, end: seg.end, backchannel: true, interrupts: false });
      return;
    }
    if (current && current.speaker === seg.speaker && seg.start - current.end <= TURN_MERGE_GAP_SEC) {
      current.end = Math.max(current.end, seg.end);
      return;
    }
    const interrupts = floor.some((other, w) => w !== seg.speaker && other.latestEnd(seg.start, false) > seg.start + TOUCH_SEC);
    current = { speaker: seg.speaker, start: seg.start, end: seg.end, backchannel: false, interrupts };
    spans.push(current);
  });
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * One speaker's segments in start order with the latest end of each prefix, so that how far
 * their speech runs from a moment is a binary search: groupTurns asks it for every short
 * segment, and scanning every segment for each was cubic in the segments of a long recording.
 */
class OldSpeakerReach {
  private readonly starts: Float64Array;
  /** reach[i]: the latest end among segments 0..i. */
  private readonly reach: Float64Array;
  /** The longest segment's length (0 without any). */
  readonly longest: number;

  private constructor(segments: readonly SpeechSegment[]) {
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

  /** One per speaker 0..speakers-1, from segments sorted by start. */
  static bySpeaker(sorted: readonly SpeechSegment[], speakers: number): OldSpeakerReach[] {
    return Array.from({ length: speakers }, (_, w) => new OldSpeakerReach(sorted.filter((s) => s.speaker === w)));
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

// ---- transcript-analysis.ts before ----
function oldSpeakersOf(transcript: Transcript): { labels: (string | null)[]; cueSpeaker: number[] } {
  const labels: (string | null)[] = [];
  const seen = new Map<string | null, number>();
  const cueSpeaker = transcript.cues.map((c) => {
    const key = c.speaker === null ? null : nameKey(c.speaker);
    const at = seen.get(key);
    if (at !== undefined) return at;
    seen.set(key, labels.length);
    labels.push(c.speaker);
    return labels.length - 1;
  });
  return { labels, cueSpeaker };
}

/**
 * Whether the cues show two speakers at once anywhere (at least MIN_OVERLAP_SEC between two
 * speakers, as a guiding transcript's overlaps are found). Captions that never overlap say
 * nothing about overlapped speech: there, interruptions, backchannels and overlap are not
 * measured rather than zero (the rule of overlapCounting, language/cue-timing.ts).
 */
function oldCuesOverlap(segments: readonly SpeechSegment[], speakers: number): boolean {
  const unions = Array.from({ length: speakers }, (_, s) => unionIntervals(segments.filter((g) => g.speaker === s)));
  for (let a = 0; a < speakers; a++) for (let b = a + 1; b < speakers; b++) if (intersectionLength(unions[a]!, unions[b]!) >= MIN_OVERLAP_SEC) return true;
  return false;
}

/** Turns from the cue track: the same grouping as from audio (groupTurns), with no prosody. */
function oldTurnsOf(segments: readonly SpeechSegment[]): Turn[] {
  return oldGroupTurns(segments).map((span): Turn => ({
    speaker: span.speaker,
    start: span.start,
    end: span.end,
    pitchSt: null,
    loudnessDb: null,
    rateSylPerSec: null,
    initialPitchSt: null,
    finalPitchSt: null,
    initialLoudnessDb: null,
    finalLoudnessDb: null,
    interrupts: span.interrupts,
    backchannel: span.backchannel,
  }));
}

function oldAnalyzeTranscript(transcript: Transcript): MediaAnalysis {
  const { labels, cueSpeaker } = oldSpeakersOf(transcript);
  const timed = transcript.cues.flatMap((c, k): SpeechSegment[] => (c.end > c.start ? [{ speaker: cueSpeaker[k]!, start: round3(c.start), end: round3(c.end) }] : []));
  // Each speaker's cues joined where they touch or overlap: one speaker's speech is counted once.
  const segments = unionPerSpeaker(timed);
  const durationSec = round3(transcript.cues.reduce((m, c) => Math.max(m, c.end), 0));
  const overlapMeasured = oldCuesOverlap(segments, labels.length);
  const turns = oldTurnsOf(segments);
  const metrics = computeSpeakerMetrics({ durationSec, segments, turns, acoustic: [], transcript, labels, overlapMeasured });
  const speakers: SpeakerAnalysis[] = labels.map((label, s) => {
    const own = segments.filter((g) => g.speaker === s);
    return {
      index: s,
      speechSec: round3(own.reduce((a, g) => a + g.end - g.start, 0)),
      firstSpeechSec: own[0]?.start ?? 0,
      label,
      // No voice: nothing to link across recordings (decisions §19).
      voiceprint: [],
      metrics: metrics[s]!,
    };
  });
  const overlaps = overlapMeasured
    ? 'overlapping cues are overlapped speech'
    : 'no two cues overlap, so the transcript cannot show overlapped speech: interruptions, backchannels and overlapped time are not measured';
  return {
    version: 1,
    engineVersion: ENGINE_VERSION,
    durationSec,
    segments,
    speakers,
    turns,
    transcript,
    method: {
      vad: 'none (no audio): speech is where the cues are',
      diarization: `${CUES_ONLY_METHOD}; ${overlaps}`,
      voiceprint: 'none (no audio: speakers are not linked across recordings by voice)',
      realTimeFactor: null,
      overlapMeasured,
      notMeasured: { measures: [...NO_AUDIO_MEASURES], reason: NO_AUDIO_REASON },
    },
  };
}

// ---- language/align.ts before ----
function oldAlignTranscript(segments: SpeechSegment[], transcript: Transcript): { labels: (string | null)[] } {
  const speakerCount = segments.reduce((n, s) => Math.max(n, s.speaker + 1), 0);
  const labels: (string | null)[] = Array.from({ length: speakerCount }, () => null);
  // name key → display name (first spelling seen) and per-speaker overlap seconds.
  const names = new Map<string, { display: string; overlap: number[] }>();
  const bySpeaker: SpeechSegment[][] = Array.from({ length: speakerCount }, () => []);
  for (const seg of segments) bySpeaker[seg.speaker]?.push(seg);
  for (const cue of transcript.cues) {
    if (cue.speaker === null || !(cue.end > cue.start)) continue;
    const key = nameKey(cue.speaker);
    let entry = names.get(key);
    if (!entry) {
      entry = { display: cue.speaker, overlap: Array.from({ length: speakerCount }, () => 0) };
      names.set(key, entry);
    }
    for (let s = 0; s < speakerCount; s += 1) {
      for (const seg of bySpeaker[s] ?? []) entry.overlap[s] = (entry.overlap[s] ?? 0) + overlapSeconds(cue.start, cue.end, seg.start, seg.end);
    }
  }
  const speakerTotals = Array.from({ length: speakerCount }, (_, s) =>
    [...names.values()].reduce((sum, n) => sum + (n.overlap[s] ?? 0), 0),
  );
  const candidates: { key: string; speaker: number; overlap: number }[] = [];
  for (const [key, entry] of names) {
    const nameTotal = entry.overlap.reduce((a, b) => a + b, 0);
    entry.overlap.forEach((overlap, speaker) => {
      if (overlap < ALIGN_MIN_OVERLAP_SEC) return;
      const speakerTotal = speakerTotals[speaker] ?? 0;
      if (overlap / nameTotal >= MIN_NAME_SHARE && overlap / speakerTotal >= MIN_SPEAKER_SHARE) {
        candidates.push({ key, speaker, overlap });
      }
    });
  }
  // Greedy on overlap is optimal here: the share thresholds above already make each name's and
  // each speaker's candidate unique (a share above one half can be held by one partner only).
  candidates.sort((a, b) => b.overlap - a.overlap);
  const usedNames = new Set<string>();
  for (const c of candidates) {
    if (usedNames.has(c.key) || labels[c.speaker] !== null) continue;
    labels[c.speaker] = names.get(c.key)?.display ?? null;
    usedNames.add(c.key);
  }
  return { labels };
}

// ---- the comparison ----

/** mulberry32: the same tracks every run, so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Times on a coarse grid (ties, touching at 0, 0.01 and 0.02, exactly one second), lengths from
 * 0.01 s (short: backchannels) to several seconds, gaps and overlaps; few speakers or a name for
 * nearly every cue.
 */
function randomCues(seed: number): Transcript {
  const r = random(seed);
  const n = 1 + Math.floor(r() * 60);
  const speakers = r() < 0.5 ? 1 + Math.floor(r() * 4) : 1 + Math.floor(r() * n);
  const grid = [0.01, 0.1, 0.5][Math.floor(r() * 3)]!;
  const cues: Transcript['cues'] = [];
  let t = 0;
  for (let k = 0; k < n; k++) {
    const pick = r();
    const length = pick < 0.4 ? Math.ceil((r() * BACKCHANNEL_MAX_SEC) / grid) * grid : pick < 0.5 ? 1 : r() * 6;
    const step = [-1, -0.3, 0, 0.01, 0.02, 0.03, 0.5, TURN_MERGE_GAP_SEC, 4][Math.floor(r() * 9)]!;
    const start = Math.max(0, Math.round((r() < 0.2 ? t - r() * 8 : t + step) / grid) * grid);
    const end = start + (r() < 0.05 ? 0 : Math.round(length / grid) * grid || grid);
    const s = Math.floor(r() * speakers);
    cues.push({ speaker: r() < 0.05 ? null : r() < 0.1 ? ` speaker ${s} ` : `Speaker ${s}`, start, end, text: r() < 0.5 ? 'yes, I think we could?' : 'mhm' });
    t = Math.max(t, end);
  }
  return { format: 'webvtt', cues };
}

/** Segments as a diarizer gives them: one speaker's may overlap or touch (groupTurns is not given unions only). */
function randomSegments(seed: number): SpeechSegment[] {
  const r = random(seed);
  return randomCues(seed).cues.map((c, k) => ({ speaker: Math.floor(r() * (1 + (k % 7))), start: round3(c.start), end: round3(c.end + TOUCH_SEC * Math.floor(r() * 3)) }));
}

const SEEDS = Array.from({ length: 600 }, (_, k) => k + 1);

test('groupTurns gives exactly what the scan over every speaker gave', () => {
  for (const seed of SEEDS) {
    const segments = randomSegments(seed);
    assert.deepEqual(groupTurns(segments), oldGroupTurns(segments), `seed ${seed}`);
    const unions = unionPerSpeaker(segments);
    assert.deepEqual(groupTurns(unions), oldGroupTurns(unions), `seed ${seed}, unions`);
  }
});

test('analyzeTranscript gives exactly what the scans over every speaker and pair of speakers gave', () => {
  let overlapping = 0;
  for (const seed of SEEDS) {
    const transcript = randomCues(seed);
    const before = oldAnalyzeTranscript(transcript);
    assert.deepEqual(analyzeTranscript(transcript), before, `seed ${seed}`);
    if (before.method.overlapMeasured) overlapping++;
  }
  // Both answers of the overlap check are exercised.
  assert.ok(overlapping > 50 && overlapping < SEEDS.length - 50, `${overlapping} overlapping`);
});

test('alignTranscript gives exactly what the scan of every cue against every segment gave', () => {
  let labelled = 0;
  for (const seed of SEEDS) {
    const transcript = randomCues(seed);
    // A diarization of the same talk: mostly the cues' speakers, some reassigned, times shifted.
    const r = random(seed + 100_000);
    const ids = new Map<string, number>();
    const segments = transcript.cues.map((c) => {
      const id = ids.get(nameKey(c.speaker ?? '')) ?? ids.size;
      ids.set(nameKey(c.speaker ?? ''), id);
      const shift = [0, 0.3, -0.3, 0.6][Math.floor(r() * 4)]!;
      return { speaker: r() < 0.2 ? Math.floor(r() * 4) : id, start: c.start + shift, end: c.end + shift * r() };
    });
    const before = oldAlignTranscript(segments, transcript);
    assert.deepEqual(alignTranscript(segments, transcript), before, `seed ${seed}`);
    labelled += before.labels.filter((l) => l !== null).length;
  }
  assert.ok(labelled > 100, `${labelled} labels`);
});
