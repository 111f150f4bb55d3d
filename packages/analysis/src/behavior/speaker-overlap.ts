// Each speaker's overlapped speech in one sweep over every segment's start and end. It was
// intersectionLength(own union, union of everyone else's segments) per speaker, which sorts all
// the other segments once for each speaker: O(speakers × segments log segments), and a
// transcript may name a new speaker in each of its 20,000 cues.
import type { SpeechSegment } from '../types.ts';
import { IntervalIndex } from './interval-index.ts';
import type { Interval } from './stats.ts';

interface Edge {
  at: number;
  id: number;
  delta: 1 | -1;
}

/**
 * For each speaker 0..n-1: intersectionLength(unionIntervals(its segments), unionIntervals(the
 * other segments)), the same number to the last bit. Why it is: each positive piece that sum adds
 * is own component ∩ others' component, which is a maximal stretch where the speaker talks and
 * somebody else too, bounded by two segment edges; the sweep finds those stretches in time order
 * and adds end - start, the same two numbers subtracted and added in the same order. Touching
 * segments join here as unionIntervals joins them (all the edges at one moment are applied
 * before the state after it is read).
 */
export function overlapWithOthers(segments: readonly SpeechSegment[], n: number): number[] {
  // Dense ids for the speakers as `===` tells them apart (a Map's keys: 0 and -0 are one).
  const ids = new Map<number, number>();
  const edges: Edge[] = [];
  for (const s of segments) {
    // unionIntervals keeps only end > start (NaN never is).
    if (!(s.end > s.start)) continue;
    let id = ids.get(s.speaker);
    if (id === undefined) {
      id = ids.size;
      ids.set(s.speaker, id);
    }
    edges.push({ at: s.start, id, delta: 1 }, { at: s.end, id, delta: -1 });
  }
  edges.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const k = ids.size;
  const open = new Int32Array(k);
  const seenAt = new Int32Array(k).fill(-1);
  const wasTalking = new Uint8Array(k);
  const runStart = new Float64Array(k);
  const overlap = new Float64Array(k);
  // Speakers talking, and the sum of their ids: with one talking, that sum is who.
  let talking = 0;
  let talkingIds = 0;
  let e = 0;
  for (let group = 0; e < edges.length; group += 1) {
    const at = (edges[e] as Edge).at;
    const talkingBefore = talking;
    const aloneBefore = talking === 1 ? talkingIds : -1;
    const touched: number[] = [];
    for (; e < edges.length && (edges[e] as Edge).at === at; e += 1) {
      const { id, delta } = edges[e] as Edge;
      if (seenAt[id] !== group) {
        seenAt[id] = group;
        wasTalking[id] = (open[id] as number) > 0 ? 1 : 0;
        touched.push(id);
      }
      const before = open[id] as number;
      open[id] = before + delta;
      if (before === 0) {
        talking += 1;
        talkingIds += id;
      } else if (before === 1 && delta === -1) {
        talking -= 1;
        talkingIds -= id;
      }
    }
    const aloneAfter = talking === 1 ? talkingIds : -1;
    // A speaker's "talking while someone else does" changes only if its own edges are here, or if
    // the count of speakers crossed 2 while it talked throughout: then it was, or is, alone.
    const settle = (id: number, talkedBefore: boolean): void => {
      const bothBefore = talkedBefore && talkingBefore >= 2;
      const bothAfter = (open[id] as number) > 0 && talking >= 2;
      if (!bothBefore && bothAfter) runStart[id] = at;
      else if (bothBefore && !bothAfter) overlap[id] = (overlap[id] as number) + (at - (runStart[id] as number));
    };
    for (const id of touched) settle(id, wasTalking[id] === 1);
    for (const id of [aloneBefore, aloneAfter]) {
      if (id < 0 || seenAt[id] === group) continue;
      seenAt[id] = group;
      settle(id, (open[id] as number) > 0);
    }
  }
  return Array.from({ length: n }, (_, i) => {
    const id = ids.get(i);
    return id === undefined ? 0 : (overlap[id] as number);
  });
}

/**
 * Whether some two speakers' speech meets for at least `minSec` in all: for `unions[s]`, speaker
 * s's speech as disjoint intervals by start (unionIntervals), whether intersectionLength(unions[a],
 * unions[b]) >= minSec for some a, b, the same answer to the last bit. It was that test for every
 * pair of speakers that meet: thousands of names talking at once made millions of pairs (20,000
 * overflowed the Set that held them). Here each speaker's sums with the others are made in one
 * walk of its pieces over an index of everyone's: intersectionLength adds the same pieces in the
 * same order (by time), so each running sum is its partial sum, and as the pieces are never
 * negative the answer is yes as soon as one reaches `minSec`. Speakers whose speech meets no one
 * else's for `minSec` are left out first (overlapWithOthers, one sweep), so that a crowd of short
 * cues at one moment costs nothing. What is left is the pieces of the speakers kept that overlap,
 * each met twice: a definition of pairs this is, and no sweep answers it for every input in less.
 */
export function someTwoOverlap(unions: readonly (readonly Interval[])[], minSec: number): boolean {
  const segments = unions.flatMap((u, speaker) => u.map((iv) => ({ speaker, start: iv.start, end: iv.end })));
  const withOthers = overlapWithOthers(segments, unions.length);
  // intersectionLength(a, b) is at most a's overlap with everyone else but for rounding, which is
  // relative (each piece is one subtraction, each sum of positive terms), far under 1e-9.
  const kept = unions.map((_u, s) => (withOthers[s] as number) * (1 + 1e-9) >= minSec);
  const pieces = segments.filter((g) => kept[g.speaker]);
  const index = new IntervalIndex(pieces);
  const sums = new Float64Array(unions.length);
  const met: number[] = [];
  for (const [a, own] of unions.entries()) {
    if (!kept[a]) continue;
    for (const x of own) {
      // Every piece of a later speaker over x, by start: the order intersectionLength meets them.
      for (const k of index.overlapping(x.start, x.end)) {
        const y = pieces[k] as (typeof pieces)[number];
        if (y.speaker <= a) continue;
        if (sums[y.speaker] === 0) met.push(y.speaker);
        const sum = (sums[y.speaker] as number) + (Math.min(x.end, y.end) - Math.max(x.start, y.start));
        if (sum >= minSec) return true;
        sums[y.speaker] = sum;
      }
    }
    for (const b of met) sums[b] = 0;
    met.length = 0;
  }
  return false;
}
