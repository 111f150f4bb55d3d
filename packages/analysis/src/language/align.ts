// Which transcript name each diarized speaker is: by the time the speaker's segments overlap each
// name's cues. One-to-one (a name labels one speaker at most) and confident only: a label is
// given when the pair holds most of both the name's matched time and the speaker's matched time,
// so a speaker that diarization split or merged stays unlabelled rather than mislabelled.
import type { SpeechSegment, Transcript } from '../types.ts';
import { IntervalIndex } from '../behavior/interval-index.ts';

/** Share of a name's overlapped time (and of the speaker's) that the pair must hold. */
const MIN_NAME_SHARE = 0.6;
const MIN_SPEAKER_SHARE = 0.6;
/** Minimum overlapped seconds for a label (short coincidences prove nothing). */
const MIN_OVERLAP_SEC = 0.5;

export function overlapSeconds(aStart: number, aEnd: number, bStart: number, bEnd: number): number {
  return Math.max(0, Math.min(aEnd, bEnd) - Math.max(aStart, bStart));
}

/** Key used to compare names: case and spacing do not matter. */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function alignTranscript(segments: SpeechSegment[], transcript: Transcript): { labels: (string | null)[] } {
  const speakerCount = segments.reduce((n, s) => Math.max(n, s.speaker + 1), 0);
  const labels: (string | null)[] = Array.from({ length: speakerCount }, () => null);
  // name key → display name (first spelling seen) and its overlap seconds with each speaker it
  // meets. Sparse: with a name per cue, a names x speakers table is quadratic. A speaker a name
  // never meets would add zeros, which change no sum, so the sums are those of a full table.
  const names = new Map<string, { display: string; overlap: Map<number, number> }>();
  const meets = overlapping(segments.filter((seg) => Number.isInteger(seg.speaker) && seg.speaker >= 0));
  for (const cue of transcript.cues) {
    if (cue.speaker === null || !(cue.end > cue.start)) continue;
    const key = nameKey(cue.speaker);
    let entry = names.get(key);
    if (!entry) {
      entry = { display: cue.speaker, overlap: new Map() };
      names.set(key, entry);
    }
    // Each speaker's segments in input order, added one by one, as the full scan added them.
    for (const seg of meets(cue.start, cue.end)) entry.overlap.set(seg.speaker, (entry.overlap.get(seg.speaker) ?? 0) + overlapSeconds(cue.start, cue.end, seg.start, seg.end));
  }
  const speakerTotals = Array.from({ length: speakerCount }, () => 0);
  for (const n of names.values()) for (const [s, overlap] of n.overlap) speakerTotals[s] = speakerTotals[s]! + overlap;
  const candidates: { key: string; speaker: number; overlap: number }[] = [];
  for (const [key, entry] of names) {
    const bySpeaker = [...entry.overlap].sort((a, b) => a[0] - b[0]);
    const nameTotal = bySpeaker.reduce((a, [, b]) => a + b, 0);
    for (const [speaker, overlap] of bySpeaker) {
      if (overlap < MIN_OVERLAP_SEC) continue;
      const speakerTotal = speakerTotals[speaker] ?? 0;
      if (overlap / nameTotal >= MIN_NAME_SHARE && overlap / speakerTotal >= MIN_SPEAKER_SHARE) {
        candidates.push({ key, speaker, overlap });
      }
    }
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

/**
 * The segments that overlap a span (start < to, end > from: a positive overlapSeconds), in input
 * order, from an index of them (behavior/interval-index.ts) rather than every cue scanning every
 * segment.
 */
function overlapping(segments: readonly SpeechSegment[]): (from: number, to: number) => SpeechSegment[] {
  const index = new IntervalIndex(segments);
  return (from, to) =>
    index
      .overlapping(from, to)
      .sort((a, b) => a - b)
      .map((i) => segments[i]!)
      .filter((seg) => overlapSeconds(from, to, seg.start, seg.end) > 0);
}
