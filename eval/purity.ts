// How much of each hypothesis speaker's speech is one reference voice: its purity. Issue 40 §1
// calibrates a figure's confidence against it (a speaker "the diarization got right" has purity
// >= 0.9). It is of voices mixed, not of edges: time where the reference hears nobody (false
// alarm, a boundary drawn a little wide) is left out; time where it hears several counts for each.
import type { Seg } from './der.ts';

/** Seconds two sorted-or-not segment lists share. */
function sharedSec(a: Seg[], b: Seg[]): number {
  let total = 0;
  for (const x of a) for (const y of b) total += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
  return total;
}

/** The union of the reference's speech: where anyone speaks. */
function mergedSpeech(ref: Seg[]): Seg[] {
  const sorted = [...ref].sort((a, b) => a.start - b.start);
  const out: Seg[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ speaker: '*', start: r.start, end: r.end });
  }
  return out;
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
    const total = sharedSec(mine, mergedSpeech(ref));
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
