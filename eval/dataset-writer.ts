// Writing an evaluation folder in the dev set's format (read by eval/dataset.ts): one WAV, one
// RTTM and one utterance JSON per file, and the manifest entry with counts, talk shares and the
// selectors' expected answers. Shared by the validation builder (build-validation.ts) and the
// AMI converter (ami-set.ts), so that both sets are scored by the same rules as the dev set.
import { pcm16WavHeader } from '../packages/analysis/src/audio/wav.ts';

const SR = 16000;

export interface RefSeg {
  speaker: string;
  start: number;
  end: number;
}

/** Seconds covered by the union of the segments (overlapping speech of one speaker counted once). */
export function unionSec(segs: { start: number; end: number }[]): number {
  const s = [...segs].sort((a, b) => a.start - b.start);
  let total = 0;
  let cs = -Infinity;
  let ce = -Infinity;
  for (const g of s) {
    if (g.start > ce) {
      if (ce > cs) total += ce - cs;
      cs = g.start;
      ce = g.end;
    } else ce = Math.max(ce, g.end);
  }
  if (ce > cs) total += ce - cs;
  return total;
}

/** 16-bit PCM WAV at 16 kHz, clipped to full scale. */
export function wavBytes(x: Float32Array): Buffer {
  const pcm = Buffer.alloc(x.length * 2);
  for (let i = 0; i < x.length; i++) pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(x[i]! * 32767))), i * 2);
  return Buffer.concat([pcm16WavHeader(pcm.length, SR), pcm]);
}

export function rttmText(name: string, segs: RefSeg[]): string {
  return segs.map((r) => `SPEAKER ${name} 1 ${r.start.toFixed(3)} ${(r.end - r.start).toFixed(3)} <NA> <NA> ${r.speaker} <NA> <NA>`).join('\n') + '\n';
}

/**
 * The manifest entry: speakers in order of first speech, their speech and talk shares, and the
 * selectors with their expected answers by the dev set's rules (dominant unambiguous at 1.2x the
 * runner-up; up to three 20 s ranges whose winner has >= 2 s and twice the runner-up's speech).
 */
export function manifestEntry(name: string, durationSec: number, conditions: string[], rttm: RefSeg[], sha256: string): Record<string, unknown> {
  const order = [...new Set([...rttm].sort((a, b) => a.start - b.start).map((r) => r.speaker))];
  const speechS: Record<string, number> = {};
  for (const id of order) speechS[id] = unionSec(rttm.filter((r) => r.speaker === id));
  const total = Object.values(speechS).reduce((a, b) => a + b, 0);
  const talkShare: Record<string, number> = {};
  for (const id of order) talkShare[id] = Math.round((speechS[id]! / total) * 1000) / 1000;
  const ranked = [...order].sort((a, b) => speechS[b]! - speechS[a]!);
  const dominant = ranked[0] ?? null;
  const timerange: { start_seconds: number; end_seconds: number; expected: string }[] = [];
  for (let t = 0; t + 20 <= durationSec && timerange.length < 3; t += Math.max(20, durationSec / 4)) {
    const inRange = order
      .map((id) => ({ id, s: unionSec(rttm.filter((r) => r.speaker === id).map((r) => ({ start: Math.max(t, r.start), end: Math.min(t + 20, r.end) })).filter((r) => r.end > r.start)) }))
      .sort((a, b) => b.s - a.s);
    const [w, r] = inRange;
    if (w && w.s >= 2 && w.s >= 2 * (r?.s ?? 0)) timerange.push({ start_seconds: t, end_seconds: t + 20, expected: w.id });
  }
  return {
    name,
    wav: `${name}.wav`,
    rttm: `${name}.rttm`,
    utterances: `${name}.json`,
    sha256,
    conditions,
    duration_s: durationSec,
    num_speakers: order.length,
    speakers: order,
    speech_s: speechS,
    talk_share: talkShare,
    dominant,
    selectors: {
      dominant: { expected: dominant, unambiguous: ranked.length < 2 || speechS[ranked[0]!]! >= 1.2 * speechS[ranked[1]!]! },
      speaker_index: [...order.map((id, i) => ({ speaker_index: i, expected: id })), { speaker_index: order.length, expected: null }],
      timerange,
    },
  };
}
