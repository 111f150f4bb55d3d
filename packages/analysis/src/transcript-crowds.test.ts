// Thousands of names speaking at once (a transcript may give each of its 20,000 cues a name of
// its own, all at the same moment): the overlap check and the backchannels against their
// definitions (every pair of speakers, every speaker) on small random crowds, and whole crowds at
// the cue cap, which the pair check could not hold (RangeError: Set maximum size exceeded) and
// the backchannels took tens of seconds over, checked by what they must answer, not by time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeTranscript } from './transcript-analysis.ts';
import { someTwoOverlap } from './behavior/speaker-overlap.ts';
import { intersectionLength, unionIntervals, type Interval } from './behavior/stats.ts';
import { BACKCHANNEL_MAX_SEC, groupTurns, SpeakerReach } from './speech/turns.ts';
import type { SpeechSegment, Transcript } from './types.ts';

/** The definition: some pair of speakers whose speech meets for at least `min` in all. */
function naiveSomeTwo(unions: readonly (readonly Interval[])[], min: number): boolean {
  for (let a = 0; a < unions.length; a++) for (let b = a + 1; b < unions.length; b++) if (intersectionLength(unions[a]!, unions[b]!) >= min) return true;
  return false;
}

/** The definition: a short segment that another speaker, with a longer segment, talks through. */
function naiveBackchannels(segments: readonly SpeechSegment[]): string[] {
  const sorted = [...segments].sort((a, b) => a.start - b.start || a.end - b.end);
  const speakers = sorted.reduce((n, s) => Math.max(n, s.speaker + 1), 0);
  const all = SpeakerReach.bySpeaker(sorted, speakers);
  return sorted
    .filter((s) => s.end - s.start <= BACKCHANNEL_MAX_SEC && all.some((r, w) => w !== s.speaker && r.longest > s.end - s.start && r.runsThrough(s.start, s.end)))
    .map((s) => `${s.speaker} ${s.start} ${s.end}`)
    .sort();
}

const backchannelsOf = (segments: readonly SpeechSegment[]) => groupTurns(segments).filter((s) => s.backchannel).map((s) => `${s.speaker} ${s.start} ${s.end}`).sort();

/** Seeded crowds: many speakers, on a millisecond grid, starts bunched so that many talk at once. */
function crowd(seed: number): SpeechSegment[] {
  let x = seed;
  const r = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const n = 1 + Math.floor(r() * 50);
  const speakers = 1 + Math.floor(r() * (r() < 0.3 ? 3 : 40));
  const moments = Array.from({ length: 1 + Math.floor(r() * 4) }, () => Math.round(r() * 5000) / 1000);
  const ms = (t: number) => Math.round(t * 1000) / 1000;
  return Array.from({ length: n }, () => {
    const start = ms((moments[Math.floor(r() * moments.length)] ?? 0) + (r() < 0.5 ? 0 : r() * 0.3));
    const length = [0.005, 0.02, 0.1, 0.19, 0.2, 0.5, 1, 1.5, 3][Math.floor(r() * 9)]! + (r() < 0.3 ? Math.round(r() * 20) / 1000 : 0);
    return { speaker: Math.floor(r() * speakers), start, end: ms(start + length) };
  });
}

test('the overlap check answers as every pair of speakers does, on random crowds', () => {
  let yes = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const segments = crowd(seed);
    const speakers = segments.reduce((n, s) => Math.max(n, s.speaker + 1), 0);
    const unions = Array.from({ length: speakers }, (_, s) => unionIntervals(segments.filter((g) => g.speaker === s)));
    for (const min of [0.2, 0.05, 1]) {
      const want = naiveSomeTwo(unions, min);
      assert.equal(someTwoOverlap(unions, min), want, `seed ${seed}, ${min} s`);
      if (want) yes++;
    }
  }
  assert.ok(yes > 1000 && yes < 8000, `${yes} yes of 9000`);
});

test('the backchannels are those of the definition, on random crowds', () => {
  let found = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const segments = crowd(seed);
    const want = naiveBackchannels(segments);
    assert.deepEqual(backchannelsOf(segments), want, `seed ${seed}`);
    found += want.length;
  }
  assert.ok(found > 1000, `${found} backchannels`);
});

const cues = (list: readonly { start: number; end: number }[], name = (k: number) => `Speaker ${k + 1}`): Transcript => ({
  format: 'json',
  cues: list.map((c, k) => ({ speaker: name(k), start: c.start, end: c.end, text: 'yes' })),
});
const N = 20_000;

test('20,000 names at once: overlapped when their cues are long, not when short; one turn each', () => {
  const long = analyzeTranscript(cues(Array.from({ length: N }, () => ({ start: 0, end: 1 }))));
  assert.equal(long.method.overlapMeasured, true);
  assert.equal(long.speakers.length, N);
  assert.equal(long.turns.length, N);
  // The same length: nobody's speech is longer, so no cue is anyone's backchannel.
  assert.equal(long.turns.filter((t) => t.backchannel).length, 0);
  // Short cues overlap by less than MIN_OVERLAP_SEC: the captions cannot show overlapped speech.
  assert.equal(analyzeTranscript(cues(Array.from({ length: N }, () => ({ start: 0, end: 0.15 })))).method.overlapMeasured, false);
});

test('20,000 names at once: a crowd inside a longer crowd are all backchannels, one that outlasts it none', () => {
  const half = N / 2;
  // Half say 0-1.5 s, half answer 0.49-0.98 s inside them: every answer is a backchannel.
  const inside = analyzeTranscript(cues(Array.from({ length: N }, (_, k) => (k < half ? { start: 0, end: 1.5 } : { start: 0.49, end: 0.98 }))));
  assert.equal(inside.turns.filter((t) => t.backchannel).length, half);
  // Half say 0-0.5 s, half 0.49-0.98 s: the answers outlast everyone who was speaking, turns all.
  const after = analyzeTranscript(cues(Array.from({ length: N }, (_, k) => (k < half ? { start: 0, end: 0.5 } : { start: 0.49, end: 0.98 }))));
  assert.equal(after.turns.filter((t) => t.backchannel).length, 0);
  assert.equal(after.turns.length, N);
});

test('10,000 names in two crowds: each pair meets twice, and the answer is their sum', () => {
  // Each pair meets for 0.15 s and then for 0.1 s: 0.25 s in all, overlapped speech, which the
  // one stretch of 0.15 s alone would not show.
  const twice = Array.from({ length: N }, (_, k) => (k % 2 ? { start: 0, end: 0.15 } : { start: 5, end: 5.1 }));
  const a = analyzeTranscript(cues(twice, (k) => `Speaker ${(k >> 1) + 1}`));
  assert.equal(a.speakers.length, N / 2);
  assert.equal(a.method.overlapMeasured, true);
});
