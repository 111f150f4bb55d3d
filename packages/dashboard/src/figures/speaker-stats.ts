// Per-speaker figures computed from a diarization (who spoke when): speech time and share, turns
// (maximal runs of one speaker's segments), turn lengths, the pause before taking the floor, and
// overlaps. Everything here is derived from the segments the API returns; nothing is estimated.
export interface Segment {
  speaker: number;
  start: number;
  end: number;
}

export interface SpeakerFigures {
  speaker: number;
  speechSec: number;
  share: number;
  turns: number;
  meanTurnSec: number | null;
  longestTurnSec: number;
  /** Mean silence between the previous speaker's end and this speaker's turn start (gaps > 0 only). */
  meanPauseBeforeSec: number | null;
  /** Turns that started while another speaker was still speaking. */
  overlapsStarted: number;
}

export interface Turn {
  speaker: number;
  start: number;
  end: number;
}

export function turnsOf(segments: readonly Segment[]): Turn[] {
  const sorted = [...segments].sort((a, b) => a.start - b.start);
  const turns: Turn[] = [];
  for (const s of sorted) {
    const last = turns[turns.length - 1];
    if (last && last.speaker === s.speaker) last.end = Math.max(last.end, s.end);
    else turns.push({ speaker: s.speaker, start: s.start, end: s.end });
  }
  return turns;
}

export function speakerFigures(segments: readonly Segment[]): SpeakerFigures[] {
  const turns = turnsOf(segments);
  const speakers = [...new Set(segments.map((s) => s.speaker))].sort((a, b) => a - b);
  const total = segments.reduce((sum, s) => sum + (s.end - s.start), 0);
  return speakers.map((speaker) => {
    const own = turns.filter((t) => t.speaker === speaker);
    const speechSec = segments.filter((s) => s.speaker === speaker).reduce((sum, s) => sum + (s.end - s.start), 0);
    const pauses: number[] = [];
    let overlapsStarted = 0;
    turns.forEach((t, i) => {
      if (t.speaker !== speaker || i === 0) return;
      const prev = turns[i - 1]!;
      const gap = t.start - prev.end;
      if (gap >= 0) pauses.push(gap);
      else overlapsStarted++;
    });
    const lengths = own.map((t) => t.end - t.start);
    return {
      speaker,
      speechSec,
      share: total > 0 ? speechSec / total : 0,
      turns: own.length,
      meanTurnSec: lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length : null,
      longestTurnSec: lengths.length ? Math.max(...lengths) : 0,
      meanPauseBeforeSec: pauses.length ? pauses.reduce((a, b) => a + b, 0) / pauses.length : null,
      overlapsStarted,
    };
  });
}

/** Loudness envelope of decoded audio: RMS per bin, scaled so the loudest bin is 1. */
export function envelope(samples: Float32Array, bins: number): number[] {
  const out = new Array<number>(bins).fill(0);
  const per = Math.max(1, Math.floor(samples.length / bins));
  let max = 0;
  for (let b = 0; b < bins; b++) {
    let sum = 0;
    const from = b * per;
    const to = Math.min(samples.length, from + per);
    for (let i = from; i < to; i++) sum += (samples[i] ?? 0) ** 2;
    const rms = to > from ? Math.sqrt(sum / (to - from)) : 0;
    out[b] = rms;
    if (rms > max) max = rms;
  }
  return max > 0 ? out.map((v) => v / max) : out;
}
