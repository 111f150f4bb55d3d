// Each speaker's overlapped speech in one sweep over every segment's start and end. It was
// intersectionLength(own union, union of everyone else's segments) per speaker, which sorts all
// the other segments once for each speaker: O(speakers × segments log segments), and a
// transcript may name a new speaker in each of its 20,000 cues.
import type { SpeechSegment } from '../types.ts';

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
