// The per-speaker metrics were rewritten from scans to sorts and binary searches (a transcript of
// 20,000 cues took seconds): each fast function must answer exactly what the scan it replaced
// answered, the same values in the same order, ties included. The scans are kept here, as they
// were, and both run on many random turn sets (seeded) laid on a coarse grid, so that equal
// starts, touching turns and turns nested in others are common; a few edges are -0 or NaN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interruptions, pausesInsideTurns } from './speaker-metrics.ts';
import { seededRandom, unionIntervals, type Interval } from './stats.ts';
import { turn } from './fixtures.testkit.ts';
import type { Turn } from '../types.ts';

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
