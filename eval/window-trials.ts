// Speaker-verification trials over window embeddings (eval/window-eer.ts): which windows of a
// speaker's recording to embed, and which pairs of them to score. Pure, so it is tested without
// audio.
//
// A same-speaker trial must not compare a source file with itself where the speaker has more
// than one file: two windows of one file share its words, microphone and session, and would
// read as more alike than the same person on another day does.

/** A source file's frames within the recording it was joined into. */
export interface Piece {
  file: number;
  start: number;
  end: number;
}

export interface WindowRef {
  speaker: number;
  /** The recording the speaker's files were joined into (with other speakers' or alone). */
  rec: number;
  file: number;
  start: number;
  end: number;
}

/**
 * Windows of `win` frames, hop win/2, each inside one source file's frames, that hold at least
 * `minModelled` modelled frames; at most `cap` of them per speaker, spread evenly over their
 * order (a speaker with 90 s does not outweigh one with 20 s).
 */
export function speakerWindows(speaker: number, rec: number, pieces: Piece[], model: Uint8Array, win: number, minModelled: number, cap: number): WindowRef[] {
  const all: WindowRef[] = [];
  for (const p of pieces)
    for (let s = p.start; s + win <= p.end; s += win >> 1) {
      let n = 0;
      for (let i = s; i < s + win; i++) n += model[i] ? 1 : 0;
      if (n >= minModelled) all.push({ speaker, rec, file: p.file, start: s, end: s + win });
    }
  if (all.length <= cap) return all;
  return Array.from({ length: cap }, (_, k) => all[Math.floor((k * all.length) / cap)]!);
}

/** Whether two windows may form a same-speaker trial (see the header). */
export function sameSpeakerAllowed(a: WindowRef, b: WindowRef, speakerFiles: number): boolean {
  if (a.speaker !== b.speaker) return false;
  if (speakerFiles > 1) return a.file !== b.file;
  return a.end <= b.start || b.end <= a.start;
}

export interface Trials {
  same: [number, number][];
  different: [number, number][];
}

/**
 * Pairs (index into left, index into right): up to `perSpeaker` same-speaker pairs for every
 * speaker, and `different` pairs of two different speakers, each drawn speaker first and window
 * second so that every speaker weighs alike; `withinRecording`: both speakers of one recording,
 * as diarization compares them. Left and right may be the same list (matched channel) or the
 * same recordings through another channel. Deterministic for a given source of randomness.
 */
export function sampleTrials(left: WindowRef[], right: WindowRef[], filesOf: (speaker: number) => number, perSpeaker: number, different: number, withinRecording: boolean, rand: () => number): Trials {
  const bySpeaker = (ws: WindowRef[]): Map<number, number[]> => {
    const m = new Map<number, number[]>();
    ws.forEach((w, i) => m.set(w.speaker, [...(m.get(w.speaker) ?? []), i]));
    return m;
  };
  const L = bySpeaker(left);
  const R = bySpeaker(right);
  const speakers = [...L.keys()].filter((s) => R.has(s)).sort((a, b) => a - b);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const same: [number, number][] = [];
  for (const s of speakers) {
    const seen = new Set<string>();
    const li = L.get(s)!;
    const ri = R.get(s)!;
    for (let attempt = 0; attempt < perSpeaker * 6 && seen.size < perSpeaker; attempt++) {
      const i = pick(li);
      const j = pick(ri);
      const key = left === right && j < i ? `${j}:${i}` : `${i}:${j}`;
      if (seen.has(key) || !sameSpeakerAllowed(left[i]!, right[j]!, filesOf(s))) continue;
      seen.add(key);
      same.push([i, j]);
    }
  }
  // The groups different-speaker pairs are drawn in: each recording's speakers, or everyone.
  const groups = new Map<number, number[]>();
  for (const s of speakers) {
    const g = withinRecording ? left[L.get(s)![0]!]!.rec : 0;
    groups.set(g, [...(groups.get(g) ?? []), s]);
  }
  const usable = [...groups.values()].filter((g) => g.length >= 2);
  const diff: [number, number][] = [];
  if (usable.length > 0)
    for (let k = 0; k < different; k++) {
      const g = pick(usable);
      const a = pick(g);
      let b = pick(g);
      while (b === a) b = pick(g);
      diff.push([pick(L.get(a)!), pick(R.get(b)!)]);
    }
  return { same, different: diff };
}
