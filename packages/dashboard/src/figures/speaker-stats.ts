// A diarization's segments as the timeline draws them, and the loudness envelope under it. The
// per-speaker figures are not computed here: the dashboard once derived its own "mean turn" and
// "pause before a turn" from these segments, which disagreed with the engine's median turn and
// median gap (issue 40 item 5); it now shows the API's measurements (figures/measures.tsx).
export interface Segment {
  speaker: number;
  start: number;
  end: number;
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
