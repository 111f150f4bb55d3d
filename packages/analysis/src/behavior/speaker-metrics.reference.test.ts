// The per-speaker metrics were rewritten from scans to sorts and binary searches (a transcript of
// 20,000 cues took seconds): each fast function must answer exactly what the scan it replaced
// answered, the same values in the same order, ties included. The scans are kept here, as they
// were, and both run on many random turn sets (seeded) laid on a coarse grid, so that equal
// starts, touching turns and turns nested in others are common; a few edges are -0 or NaN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeSpeakerMetrics, floorTransfers, interruptions, pausesInsideTurns, type SpeakerMetricsInput } from './speaker-metrics.ts';
import { intersectionLength, median, seededRandom, totalLength, unionIntervals, type Interval } from './stats.ts';
import { acousticFor, turn } from './fixtures.testkit.ts';
import { nameKey, overlapSeconds } from '../language/align.ts';
import { computeLanguageMetrics } from '../language/text-metrics.ts';
import { lexiconLanguage } from '../language/lexicon-language.ts';
import type { SpeakerMetrics, SpeechSegment, Transcript, TranscriptCue, Turn } from '../types.ts';

const RUNS = 3000;

/** The scan interruptions() was: for each interrupting turn, every other speaker's running turn, the latest started. */
function referenceInterruptions(turns: readonly Turn[]): { by: number; of: number; at: number }[] {
  const main = turns.filter((t) => !t.backchannel);
  const out: { by: number; of: number; at: number }[] = [];
  for (const t of main) {
    if (!t.interrupts) continue;
    const running = main
      .filter((o) => o.speaker !== t.speaker && o.start < t.start && o.end > t.start)
      .sort((a, b) => b.start - a.start)[0];
    if (running) out.push({ by: t.speaker, of: running.speaker, at: t.start });
  }
  return out;
}

/** The scan pausesInsideTurns() was: each silence against every turn. */
function referencePauses(own: readonly Interval[], turns: readonly Turn[]): number[] {
  const pauses: number[] = [];
  for (let k = 1; k < own.length; k += 1) {
    const gapStart = (own[k - 1] as Interval).end;
    const gapEnd = (own[k] as Interval).start;
    if (turns.some((t) => t.start <= gapStart && t.end >= gapEnd)) pauses.push(gapEnd - gapStart);
  }
  return pauses;
}

/** A time on a grid of `step` up to `span`: equal and touching edges are frequent. Rarely -0 or NaN. */
function gridTime(random: () => number, span: number, step: number, odd: boolean): number {
  if (odd) {
    const r = random();
    if (r < 0.01) return Number.NaN;
    if (r < 0.03) return -0;
  }
  return Math.floor(random() * (span / step + 1)) * step;
}

/** Random turns: 1-5 speakers, some backchannels, some interrupting, some nested, starts often equal. */
function randomTurns(random: () => number, odd = true): Turn[] {
  const speakers = 1 + Math.floor(random() * 5);
  const count = Math.floor(random() * 40);
  const step = random() < 0.5 ? 0.5 : 0.1;
  const span = 2 + random() * 30;
  return Array.from({ length: count }, () => {
    const start = gridTime(random, span, step, odd);
    const length = random() < 0.1 ? 0 : gridTime(random, random() < 0.3 ? 10 : 3, step, odd);
    return turn(Math.floor(random() * speakers), start, start + length, { backchannel: random() < 0.15, interrupts: random() < 0.6 });
  });
}

test('interruptions: the same answers as the scan, in the same order, on random turn sets with ties', () => {
  const random = seededRandom(41);
  let found = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const turns = randomTurns(random);
    const expected = referenceInterruptions(turns);
    found += expected.length;
    assert.deepEqual(interruptions(turns), expected, `run ${run}: ${JSON.stringify(turns.map((t) => [t.speaker, t.start, t.end, t.backchannel, t.interrupts]))}`);
  }
  // The sets must hold interruptions for the comparison to mean anything.
  assert.ok(found > RUNS, `${found} interruptions in ${RUNS} sets`);
});

test('interruptions: of equal starts, the running turn listed first is the one interrupted', () => {
  // Ann and Ben both start at 0 and run past 2; Cid interrupts at 2. The scan's stable sort kept
  // the first listed of the latest starts: Ben here, Ann when listed the other way round.
  const ben = turn(1, 0, 5);
  const ann = turn(0, 0, 6);
  const cid = turn(2, 2, 4, { interrupts: true });
  assert.deepEqual(interruptions([ben, ann, cid]), [{ by: 2, of: 1, at: 2 }]);
  assert.deepEqual(interruptions([ann, ben, cid]), [{ by: 2, of: 0, at: 2 }]);
  // A turn that ends where the interruption starts, or starts with it, was not running.
  assert.deepEqual(interruptions([turn(0, 0, 2), turn(1, 2, 3), turn(2, 2, 4, { interrupts: true })]), []);
  // The speaker's own running turn is not interrupted, another speaker's earlier one is.
  assert.deepEqual(interruptions([turn(1, 0, 9), turn(0, 1, 9), turn(0, 2, 4, { interrupts: true })]), [{ by: 0, of: 1, at: 2 }]);
});

test('pausesInsideTurns: the same silences as the scan, in the same order, on random speech and turns', () => {
  const random = seededRandom(42);
  let found = 0;
  let gaps = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const turns = randomTurns(random);
    // Speech of one speaker: a union, as the metrics give it (unionIntervals drops NaN and empty ones).
    const own = unionIntervals(randomTurns(random));
    const expected = referencePauses(own, turns);
    found += expected.length;
    gaps += Math.max(0, own.length - 1);
    assert.deepEqual(pausesInsideTurns(own, turns), expected, `run ${run}`);
  }
  // Both answers must be common: silences inside a turn and silences outside every turn.
  assert.ok(found > RUNS / 4 && gaps - found > RUNS / 4, `${found} of ${gaps} silences inside a turn`);
});

test('pausesInsideTurns: a silence counts inside a turn that touches both of its edges, not one that misses one', () => {
  const own = [{ start: 0, end: 1 }, { start: 2, end: 3 }, { start: 5, end: 6 }];
  assert.deepEqual(pausesInsideTurns(own, [turn(0, 1, 2)]), [1]);
  assert.deepEqual(pausesInsideTurns(own, [turn(0, 1.5, 6), turn(0, 0, 1.9)]), [2]);
  assert.deepEqual(pausesInsideTurns(own, [turn(0, Number.NaN, 9), turn(0, 0, Number.NaN)]), []);
});

/** The scan cuesBySpeaker() was: each unnamed cue against every interval of every speaker. */
function referenceCuesBySpeaker(transcript: Transcript, labels: readonly (string | null)[], unions: readonly Interval[][]): TranscriptCue[][] {
  const out = unions.map((): TranscriptCue[] => []);
  const byName = new Map<string, number>();
  labels.forEach((l, i) => {
    if (l !== null) byName.set(nameKey(l), i);
  });
  for (const cue of transcript.cues) {
    if (cue.speaker !== null) {
      const idx = byName.get(nameKey(cue.speaker));
      if (idx !== undefined) out[idx]?.push(cue);
      continue;
    }
    const duration = cue.end - cue.start;
    if (!(duration > 0)) continue;
    let best = -1;
    let bestOverlap = 0;
    unions.forEach((ivs, i) => {
      const o = ivs.reduce((sum, iv) => sum + overlapSeconds(cue.start, cue.end, iv.start, iv.end), 0);
      if (o > bestOverlap) {
        bestOverlap = o;
        best = i;
      }
    });
    if (best >= 0 && bestOverlap >= 0.5 * duration) out[best]?.push(cue);
  }
  return out;
}

/** computeSpeakerMetrics() as it was: a filter per speaker, the others' union per speaker, and the scans above. */
function referenceMetrics(input: SpeakerMetricsInput): SpeakerMetrics[] {
  let n = input.labels.length;
  for (const x of [...input.segments, ...input.turns, ...input.acoustic]) n = Math.max(n, x.speaker + 1);
  const unions = Array.from({ length: n }, (_, i) => unionIntervals(input.segments.filter((s) => s.speaker === i)));
  const speech = unions.map(totalLength);
  const totalSpeech = speech.reduce((a, b) => a + b, 0);
  const transfers = floorTransfers(input.turns);
  const interrupts = referenceInterruptions(input.turns);
  const cues = input.transcript ? referenceCuesBySpeaker(input.transcript, input.labels, unions) : null;
  const overlap = input.overlapMeasured ?? true;
  const lexicon = input.transcript ? lexiconLanguage(input.transcript.cues.map((c) => c.text)) : null;
  return Array.from({ length: n }, (_, i): SpeakerMetrics => {
    const own = unions[i] ?? [];
    const speechSec = speech[i] ?? 0;
    const turnsAll = input.turns.filter((t) => t.speaker === i);
    const mainTurns = turnsAll.filter((t) => !t.backchannel);
    const turnDurations = mainTurns.map((t) => t.end - t.start);
    const pauses = referencePauses(own, turnsAll);
    const acoustic = input.acoustic.find((a) => a.speaker === i);
    const turnTime = totalLength(unionIntervals(turnsAll)) || speechSec;
    const phonation = acoustic && acoustic.phonationSec > 0 ? acoustic.phonationSec : speechSec;
    const syllables = acoustic?.syllables ?? 0;
    const others = unionIntervals(input.segments.filter((s) => s.speaker !== i));
    return {
      speechSec,
      talkShare: totalSpeech > 0 ? speechSec / totalSpeech : 0,
      turns: mainTurns.length,
      medianTurnSec: median(turnDurations),
      longestTurnSec: turnDurations.length > 0 ? Math.max(...turnDurations) : null,
      pausesPerMin: speechSec >= 1 ? pauses.length / (speechSec / 60) : null,
      medianPauseSec: median(pauses),
      speakingRateSylPerSec: syllables > 0 && turnTime >= 1 ? syllables / turnTime : null,
      articulationRateSylPerSec: syllables > 0 && phonation >= 1 ? syllables / phonation : null,
      pitchMedianSt: acoustic?.pitchMedianSt ?? null,
      pitchRangeSt: acoustic?.pitchRangeSt ?? null,
      pitchVariabilitySt: acoustic?.pitchVariabilitySt ?? null,
      loudnessMeanDb: acoustic?.loudnessMeanDb ?? null,
      loudnessVariabilityDb: acoustic?.loudnessVariabilityDb ?? null,
      medianGapBeforeTurnSec: median(transfers.filter((t) => t.to === i).map((t) => t.gapSec)),
      interruptionsMade: overlap ? interrupts.filter((x) => x.by === i).length : null,
      interruptionsReceived: overlap ? interrupts.filter((x) => x.of === i).length : null,
      backchannels: overlap ? turnsAll.filter((t) => t.backchannel).length : null,
      overlapSec: overlap ? intersectionLength(own, others) : null,
      language: cues ? computeLanguageMetrics(cues[i] ?? [], lexicon) : null,
    };
  });
}

const WORDS = ['I', 'think', 'we', 'maybe', 'should', 'go', 'yes', 'no', 'really?', 'great', 'sort of', 'okay'];
const NAMES = ['Ann', 'ann', 'Ben', 'Cid', 'Dee'];

/** A random conversation: segments (a stray speaker -1 at times), turns, repeated acoustic stats, a transcript of named and unnamed cues on the same grid. */
function randomInput(random: () => number): SpeakerMetricsInput {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const segments: SpeechSegment[] = randomTurns(random).map((t) => ({ speaker: random() < 0.03 ? -1 : t.speaker, start: t.start, end: t.end }));
  const turns = randomTurns(random, false);
  const acoustic = Array.from({ length: Math.floor(random() * 6) }, (_, k) => acousticFor(Math.floor(random() * 4), { syllables: k * 7, phonationSec: random() < 0.3 ? 0 : 1 + k }));
  const labels = Array.from({ length: Math.floor(random() * 5) }, () => (random() < 0.3 ? null : pick(NAMES)));
  const transcript: Transcript | null = random() < 0.2 ? null : {
    format: 'webvtt',
    cues: randomTurns(random, false).map((t) => ({
      speaker: random() < 0.5 ? null : pick(NAMES),
      start: t.start,
      end: t.end,
      text: Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(WORDS)).join(' '),
    })),
  };
  const overlapMeasured = random() < 0.15 ? false : random() < 0.5 ? true : undefined;
  return { durationSec: 40, segments, turns, acoustic, transcript, labels, ...(overlapMeasured === undefined ? {} : { overlapMeasured }) };
}

test('computeSpeakerMetrics: every figure of every speaker as before (Object.is, so 0 and -0 too), on random conversations', () => {
  const random = seededRandom(43);
  let overlapped = 0;
  let byTime = 0;
  for (let run = 0; run < 1500; run += 1) {
    const input = randomInput(random);
    const expected = referenceMetrics(input);
    overlapped += expected.filter((m) => (m.overlapSec ?? 0) > 0).length;
    byTime += input.transcript?.cues.filter((c) => c.speaker === null).length ?? 0;
    assert.deepEqual(computeSpeakerMetrics(input), expected, `run ${run}`);
  }
  assert.ok(overlapped > 1000 && byTime > 1000, `${overlapped} speakers with overlap, ${byTime} unnamed cues`);
});
