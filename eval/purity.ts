// How much of each hypothesis speaker's speech is one reference voice: its purity. Issue 40 §1
// calibrates a figure's confidence against it (a speaker "the diarization got right" has purity
// >= 0.9). Time where the reference has no speaker counts against purity (it is nobody's voice);
// time where the reference has several counts for each of them.
import type { Seg } from './der.ts';

/** Seconds two sorted-or-not segment lists share. */
function sharedSec(a: Seg[], b: Seg[]): number {
  let total = 0;
  for (const x of a) for (const y of b) total += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
  return total;
}

/**
 * Per hypothesis speaker (the keys of `speakers`, in that order): the largest share of its speech
 * heard from one reference voice, and that voice; purity 0 and voice null for a speaker with no
 * speech.
 */
export function speakerPurity(ref: Seg[], hyp: Seg[], speakers: string[]): { purity: number; voice: string | null }[] {
  const voices = [...new Set(ref.map((r) => r.speaker))];
  return speakers.map((h) => {
    const mine = hyp.filter((s) => s.speaker === h);
    const total = mine.reduce((x, s) => x + Math.max(0, s.end - s.start), 0);
    if (total <= 0) return { purity: 0, voice: null };
    let best = 0;
    let voice: string | null = null;
    for (const v of voices) {
      const shared = sharedSec(mine, ref.filter((r) => r.speaker === v));
      if (shared > best) {
        best = shared;
        voice = v;
      }
    }
    return { purity: Math.min(1, best / total), voice };
  });
}
