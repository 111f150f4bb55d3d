// The last stage: speakers are numbered in order of first speech, always. Inside the diarization
// a speaker's first sustained run counts (a stray frame early on does not make a speaker first);
// the engine renumbers once more from its final segments (analyze.ts), so that the order a user
// reads is the order of the segments the user gets.
/**
 * Renumbers speakers 0..n-1 in order of first sustained speech (a run of at least `minRun`
 * frames; a stray frame or two early on does not make a speaker "first"), in place; returns
 * old -> new ids.
 */
export function renumberByFirstSpeech(frameSpeaker: Int16Array, minRun = 50): Map<number, number> {
  const firstSustained = new Map<number, number>();
  const firstAny = new Map<number, number>();
  let i = 0;
  while (i < frameSpeaker.length) {
    const s = frameSpeaker[i]!;
    let e = i + 1;
    while (e < frameSpeaker.length && frameSpeaker[e] === s) e++;
    if (s >= 0) {
      if (!firstAny.has(s)) firstAny.set(s, i);
      if (e - i >= minRun && !firstSustained.has(s)) firstSustained.set(s, i);
    }
    i = e;
  }
  const keys = [...firstAny.keys()].sort((a, b) => (firstSustained.get(a) ?? firstAny.get(a)! + 1e9) - (firstSustained.get(b) ?? firstAny.get(b)! + 1e9));
  const order = new Map<number, number>(keys.map((s, id) => [s, id]));
  for (let j = 0; j < frameSpeaker.length; j++) {
    const s = frameSpeaker[j]!;
    if (s >= 0) frameSpeaker[j] = order.get(s)!;
  }
  return order;
}

/** For each speaker 0..k-1, its number in the order of first speech (speakers without speech last). */
export function firstSpeechOrder(segments: readonly { speaker: number; start: number }[], k: number): number[] {
  const first = new Array<number>(k).fill(Infinity);
  for (const g of segments) if (g.speaker >= 0 && g.speaker < k) first[g.speaker] = Math.min(first[g.speaker]!, g.start);
  const byFirst = Array.from({ length: k }, (_, s) => s).sort((a, b) => first[a]! - first[b]! || a - b);
  const order = new Array<number>(k);
  byFirst.forEach((s, rank) => (order[s] = rank));
  return order;
}

