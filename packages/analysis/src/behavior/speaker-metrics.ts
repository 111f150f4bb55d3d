// Per-speaker behavior of one media (issue 3 item 3) and its aggregation over an entity's media.
// Definitions follow the dev set's (talk share over the sum of speakers' speech, turns without
// backchannels, an interruption is a turn started inside another's turn); docs/analysis.md
// gives every formula and unit.
import type { AcousticStats, LanguageMetrics, MediaAnalysis, SpeakerMetrics, SpeechSegment, Transcript, TranscriptCue, Turn } from '../types.ts';
import { nameKey, overlapSeconds } from '../language/align.ts';
import { computeLanguageMetrics } from '../language/text-metrics.ts';
import { lexiconLanguage } from '../language/lexicon-language.ts';
import { median, totalLength, unionIntervals } from './stats.ts';
import type { Interval } from './stats.ts';
import { GUIDED_METHOD_PREFIX } from '../method-names.ts';
import { IntervalIndex, type SpeakerInterval } from './interval-index.ts';
import { overlapWithOthers } from './speaker-overlap.ts';
import { SpeakerReach } from '../speech/turns.ts';

/** Below this much time a rate is noise, not a measurement. */
const MIN_RATE_SECONDS = 1;

export interface SpeakerMetricsInput {
  durationSec: number;
  segments: SpeechSegment[];
  turns: Turn[];
  acoustic: AcousticStats[];
  transcript: Transcript | null;
  labels: (string | null)[];
  /**
   * Whether the segments show overlapped speech that can be counted (a guiding transcript's
   * overlapping cues, when overlapCounting allows). Without it interruptions, backchannels and
   * overlap are not measured (null): a track with one speaker per frame would report zero of
   * each, loose cue edges false interruptions (docs/analysis.md).
   */
  overlapMeasured?: boolean;
}

export interface FloorTransfer {
  from: number;
  to: number;
  /** Start of the new turn minus end of the previous one; negative when they overlap. */
  gapSec: number;
  /** The turn that took the floor and the one before it. */
  turn: Turn;
  previous: Turn;
}

/** Consecutive turns (backchannels excluded, ordered by start) that change speaker. */
export function floorTransfers(turns: readonly Turn[]): FloorTransfer[] {
  const main = turns.filter((t) => !t.backchannel).sort((a, b) => a.start - b.start);
  const out: FloorTransfer[] = [];
  for (let k = 1; k < main.length; k += 1) {
    const prev = main[k - 1] as Turn;
    const cur = main[k] as Turn;
    if (prev.speaker !== cur.speaker) out.push({ from: prev.speaker, to: cur.speaker, gapSec: cur.start - prev.end, turn: cur, previous: prev });
  }
  return out;
}

/**
 * Who each interrupting turn interrupted: the other speaker whose turn was running at its start
 * (started before it, ending after it; the one that started latest, and among equal starts the
 * first listed). Found in an index of the turns (interval-index.ts): a scan of every turn for each
 * interrupting one was quadratic, a second of CPU for a transcript of 20,000 cues.
 */
export function interruptions(turns: readonly Turn[]): { by: number; of: number; at: number }[] {
  const main = turns.filter((t) => !t.backchannel);
  const index = new IntervalIndex(main);
  const out: { by: number; of: number; at: number }[] = [];
  for (const t of main) {
    if (!t.interrupts) continue;
    const k = index.latestRunning(t.start, t.speaker);
    const running = k >= 0 ? main[k] : undefined;
    if (running) out.push({ by: t.speaker, of: running.speaker, at: t.start });
  }
  return out;
}

function speakerCountOf(input: SpeakerMetricsInput): number {
  let n = input.labels.length;
  for (const s of input.segments) n = Math.max(n, s.speaker + 1);
  for (const t of input.turns) n = Math.max(n, t.speaker + 1);
  for (const a of input.acoustic) n = Math.max(n, a.speaker + 1);
  return n;
}

/**
 * Transcript cues of each speaker: by its aligned name, and unnamed cues by time overlap. `unions`
 * are each speaker's sorted union of speech (unionIntervals). An unnamed cue is weighed against
 * the intervals that overlap it only, found in an index of them all (interval-index.ts): summing
 * every speaker's every interval for each cue was O(cues × intervals). The sums are the same:
 * the intervals left out added exactly 0, and the others are added in the same order.
 */
export function cuesBySpeaker(
  transcript: Transcript,
  labels: readonly (string | null)[],
  unions: readonly Interval[][],
): TranscriptCue[][] {
  const out = unions.map((): TranscriptCue[] => []);
  const byName = new Map<string, number>();
  labels.forEach((l, i) => {
    if (l !== null) byName.set(nameKey(l), i);
  });
  // Speaker by speaker, each in time order: the positions the index answers sort into that order.
  const all: SpeakerInterval[] = unions.flatMap((ivs, speaker) => ivs.map((iv) => ({ start: iv.start, end: iv.end, speaker })));
  let index: IntervalIndex | null = null;
  for (const cue of transcript.cues) {
    if (cue.speaker !== null) {
      const idx = byName.get(nameKey(cue.speaker));
      if (idx !== undefined) out[idx]?.push(cue);
      continue;
    }
    const duration = cue.end - cue.start;
    if (!(duration > 0)) continue;
    index ??= new IntervalIndex(all);
    const near = index.overlapping(cue.start, cue.end).sort((a, b) => a - b).map((k) => all[k] as SpeakerInterval);
    let best = -1;
    let bestOverlap = 0;
    let k = 0;
    while (k < near.length) {
      const speaker = (near[k] as SpeakerInterval).speaker;
      let o = 0;
      for (; k < near.length && (near[k] as SpeakerInterval).speaker === speaker; k += 1) {
        const iv = near[k] as SpeakerInterval;
        o += overlapSeconds(cue.start, cue.end, iv.start, iv.end);
      }
      // Speakers in index order, a later one only when strictly more: the first of equals wins.
      if (o > bestOverlap) {
        bestOverlap = o;
        best = speaker;
      }
    }
    // An unnamed cue belongs to a speaker only when that speaker covers most of it.
    if (best >= 0 && bestOverlap >= 0.5 * duration) out[best]?.push(cue);
  }
  return out;
}

/**
 * Whether an analysis's track can show overlapped speech: only a guiding transcript's overlapping
 * cues add a second speaker, and only when overlapCounting allows (method.overlapMeasured).
 * Analyses cached before that was recorded are judged from the diarization method, so that those
 * cached before the metrics said null are judged the same way.
 */
export function overlapMeasured(analysis: Pick<MediaAnalysis, 'method'>): boolean {
  return analysis.method.overlapMeasured ?? analysis.method.diarization.startsWith(GUIDED_METHOD_PREFIX);
}

/**
 * Items of each speaker, in their order, in one pass: a filter per speaker was O(speakers ×
 * items), and a transcript may name a new speaker in each of its cues. Keys as `===` tells
 * speakers apart (a Map's: 0 and -0 are one, and a NaN speaker is no speaker i).
 */
function bySpeaker<T>(items: readonly T[], speakerOf: (item: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const key = speakerOf(item);
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}

/** How many items each speaker has (by === as bySpeaker). */
function countBy<T>(items: readonly T[], speakerOf: (item: T) => number): Map<number, number> {
  const out = new Map<number, number>();
  for (const item of items) {
    const key = speakerOf(item);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

export function computeSpeakerMetrics(input: SpeakerMetricsInput): SpeakerMetrics[] {
  const n = speakerCountOf(input);
  const segmentsOf = bySpeaker(input.segments, (s) => s.speaker);
  const unions = Array.from({ length: n }, (_, i) => unionIntervals(segmentsOf.get(i) ?? []));
  const speech = unions.map(totalLength);
  const totalSpeech = speech.reduce((a, b) => a + b, 0);
  const transfersTo = bySpeaker(floorTransfers(input.turns), (t) => t.to);
  const interrupts = interruptions(input.turns);
  const made = countBy(interrupts, (x) => x.by);
  const received = countBy(interrupts, (x) => x.of);
  const turnsOf = bySpeaker(input.turns, (t) => t.speaker);
  const acousticOf = new Map<number, AcousticStats>();
  // The first stats of each speaker, as find() took.
  for (const a of input.acoustic) if (!acousticOf.has(a.speaker)) acousticOf.set(a.speaker, a);
  const cues = input.transcript ? cuesBySpeaker(input.transcript, input.labels, unions) : null;
  const overlap = input.overlapMeasured ?? true;
  const overlapSec = overlap ? overlapWithOthers(input.segments, n) : [];
  // One language for the whole transcript: a speaker with few words is judged with the others.
  const lexicon = input.transcript ? lexiconLanguage(input.transcript.cues.map((c) => c.text)) : null;

  return Array.from({ length: n }, (_, i): SpeakerMetrics => {
    const own = unions[i] ?? [];
    const speechSec = speech[i] ?? 0;
    const turnsAll = turnsOf.get(i) ?? [];
    const mainTurns = turnsAll.filter((t) => !t.backchannel);
    const turnDurations = mainTurns.map((t) => t.end - t.start);
    const pauses = pausesInsideTurns(own, turnsAll);
    const acoustic = acousticOf.get(i);
    const turnTime = totalLength(unionIntervals(turnsAll)) || speechSec;
    const phonation = acoustic && acoustic.phonationSec > 0 ? acoustic.phonationSec : speechSec;
    const syllables = acoustic?.syllables ?? 0;
    const speakerCues = cues?.[i] ?? [];
    return {
      speechSec,
      talkShare: totalSpeech > 0 ? speechSec / totalSpeech : 0,
      turns: mainTurns.length,
      medianTurnSec: median(turnDurations),
      // A loop, not Math.max(...): a spread of a long recording's turns can overflow the stack.
      longestTurnSec: turnDurations.length > 0 ? turnDurations.reduce((m, d) => Math.max(m, d), -Infinity) : null,
      pausesPerMin: speechSec >= MIN_RATE_SECONDS ? pauses.length / (speechSec / 60) : null,
      medianPauseSec: median(pauses),
      speakingRateSylPerSec: syllables > 0 && turnTime >= MIN_RATE_SECONDS ? syllables / turnTime : null,
      articulationRateSylPerSec: syllables > 0 && phonation >= MIN_RATE_SECONDS ? syllables / phonation : null,
      pitchMedianSt: acoustic?.pitchMedianSt ?? null,
      pitchRangeSt: acoustic?.pitchRangeSt ?? null,
      pitchVariabilitySt: acoustic?.pitchVariabilitySt ?? null,
      loudnessMeanDb: acoustic?.loudnessMeanDb ?? null,
      loudnessVariabilityDb: acoustic?.loudnessVariabilityDb ?? null,
      medianGapBeforeTurnSec: median((transfersTo.get(i) ?? []).map((t) => t.gapSec)),
      interruptionsMade: overlap ? (made.get(i) ?? 0) : null,
      interruptionsReceived: overlap ? (received.get(i) ?? 0) : null,
      backchannels: overlap ? turnsAll.filter((t) => t.backchannel).length : null,
      overlapSec: overlap ? (overlapSec[i] ?? 0) : null,
      language: cues ? computeLanguageMetrics(speakerCues, lexicon) : null,
    };
  });
}

/**
 * Silences between a speaker's own speech intervals (sorted, as unionIntervals gives them) that
 * fall inside one of their turns (start <= the silence's start, end >= its end): the turns in
 * start order with the latest end of each prefix (SpeakerReach), so each silence is a binary
 * search: asking every turn for each silence was quadratic in a long recording's turns.
 */
export function pausesInsideTurns(own: readonly Interval[], turns: readonly Turn[]): number[] {
  // A turn with a NaN edge contains no silence (no comparison with NaN holds).
  const sorted = turns.filter((t) => !Number.isNaN(t.start) && !Number.isNaN(t.end)).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const reach = SpeakerReach.of(sorted);
  const pauses: number[] = [];
  for (let k = 1; k < own.length; k += 1) {
    const gapStart = (own[k - 1] as Interval).end;
    const gapEnd = (own[k] as Interval).start;
    // The turns starting at or before the silence: their latest end must reach its end.
    if (reach.latestEnd(gapStart, true) >= gapEnd) pauses.push(gapEnd - gapStart);
  }
  return pauses;
}

type NumericKey = {
  [K in keyof SpeakerMetrics]: SpeakerMetrics[K] extends number | null ? K : never;
}[keyof SpeakerMetrics];

/** Summed over media: counts and times. */
const SUMMED: NumericKey[] = ['speechSec', 'turns', 'interruptionsMade', 'interruptionsReceived', 'backchannels', 'overlapSec'];
/** Speech-time-weighted means over the media where the value exists. */
const WEIGHTED: NumericKey[] = [
  'talkShare', 'medianTurnSec', 'pausesPerMin', 'medianPauseSec', 'speakingRateSylPerSec', 'articulationRateSylPerSec',
  'pitchMedianSt', 'pitchRangeSt', 'pitchVariabilitySt', 'loudnessMeanDb', 'loudnessVariabilityDb', 'medianGapBeforeTurnSec',
];

/**
 * An entity's profile over several media: counts and times are summed, the longest turn is the
 * maximum, every other measure is the mean of the per-media values weighted by the speech seconds
 * they rest on (a median of medians would need the raw turns, which the cache does not keep).
 * Language measures are weighted by words.
 */
export function aggregateMetrics(items: { metrics: SpeakerMetrics }[]): SpeakerMetrics {
  const ms = items.map((i) => i.metrics);
  const out = {} as Record<NumericKey, number | null>;
  for (const key of SUMMED) {
    // Summed over the media where measured; null when none measured it.
    const values = ms.map((m) => m[key]).filter((v): v is number => v !== null);
    out[key] = values.length > 0 ? values.reduce((s, v) => s + v, 0) : null;
  }
  for (const key of WEIGHTED) {
    let sum = 0;
    let weight = 0;
    for (const m of ms) {
      const v = m[key];
      if (v === null) continue;
      // A media with a value but no speech time still counts, with a tiny weight.
      const w = Math.max(m.speechSec, 1e-6);
      sum += v * w;
      weight += w;
    }
    out[key] = weight > 0 ? sum / weight : null;
  }
  // A fold, not Math.max(...): a person's media are not bounded, a spread's arguments are.
  out.longestTurnSec = ms.reduce<number | null>((m, x) => (x.longestTurnSec === null ? m : Math.max(m ?? -Infinity, x.longestTurnSec)), null);
  // talkShare is never null in SpeakerMetrics: no media means no share of any talk.
  out.talkShare = out.talkShare ?? 0;
  return { ...(out as Omit<SpeakerMetrics, 'language'>), language: aggregateLanguage(ms.map((m) => m.language)) };
}

export function aggregateLanguage(items: (LanguageMetrics | null)[]): LanguageMetrics | null {
  const present = items.filter((l): l is LanguageMetrics => l !== null);
  if (present.length === 0) return null;
  const words = present.reduce((s, l) => s + l.words, 0);
  const w = (l: LanguageMetrics, of: readonly LanguageMetrics[]): number => {
    const total = of.reduce((s, x) => s + x.words, 0);
    return total > 0 ? l.words / total : 1 / of.length;
  };
  const avg = (f: (l: LanguageMetrics) => number): number => present.reduce((s, l) => s + f(l) * w(l, present), 0);
  // The lexical measures over the appearances measured in English only (lexicon-language.ts).
  const english = present.filter((l) => l.lexicon !== null && l.hedgeRate !== null);
  const lex = (f: (l: LanguageMetrics) => number | null): number | null => (english.length ? english.reduce((s, l) => s + (f(l) ?? 0) * w(l, english), 0) : null);
  const wpm = present.filter((l) => l.wordsPerMinute !== null);
  const wpmWords = wpm.reduce((s, l) => s + l.words, 0);
  let functionWords: Record<string, number> | null = null;
  if (english.length) {
    functionWords = {};
    for (const key of Object.keys(english[0]?.functionWords ?? {})) functionWords[key] = lex((l) => l.functionWords?.[key] ?? 0) ?? 0;
  }
  return {
    words,
    wordsPerMinute: wpm.length === 0 ? null : wpm.reduce((s, l) => s + (l.wordsPerMinute ?? 0) * (wpmWords > 0 ? l.words / wpmWords : 1 / wpm.length), 0),
    questionRate: avg((l) => l.questionRate),
    lexicon: english.length ? 'en' : null,
    hedgeRate: lex((l) => l.hedgeRate),
    firstPersonSingularRate: lex((l) => l.firstPersonSingularRate),
    firstPersonPluralRate: lex((l) => l.firstPersonPluralRate),
    sentiment: lex((l) => l.sentiment),
    functionWords,
  };
}
