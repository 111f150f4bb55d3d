// The transcript's words placed on the diarization's segments (segmentTexts, what the WebVTT and
// SRT exports of a recording with a transcript attached run) at N cues on N segments and at 4N on
// 4N: the figure is the ratio of the two CPU times, measured in the same run, so the host's load
// cancels. Linear work (n log n) gives about 4; cues × segments (issue 41, finding 2) gave about
// 16, and so did the search that walked back while the latest end so far reached the cue when one
// segment ran the whole recording (the second figure). The tests count the segments weighed
// instead (diarization-export.test.ts); this is the time.
// Run alone: node_modules/.bin/node bench/segment-texts.ts   (BENCH_QUICK=1: N = 1,000)
import { segmentTexts } from '../packages/server/src/files/diarization-export.ts';
import type { Transcript } from '../packages/analysis/src/types.ts';
import { cpuSec } from './cpu-time.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const N = QUICK ? 1000 : 5000;
const DURATION = 3600;

/** `n` segments of two speakers over an hour (every seventh running into the next), and `n` cues of theirs; with `long`, one more segment of the first speaker under all the others. */
function input(n: number, long: boolean): { segments: { speaker: number; start: number; end: number }[]; transcript: Transcript } {
  const step = DURATION / n;
  const segments = Array.from({ length: n }, (_, k) => ({ speaker: k % 2, start: k * step, end: k * step + step * (k % 7 === 0 ? 1.4 : 0.9) }));
  if (long) segments.push({ speaker: 0, start: 0, end: DURATION });
  const cues = Array.from({ length: n }, (_, k) => ({ speaker: k % 2 ? 'Bob' : 'Alice', start: k * step, end: k * step + step * 0.9, text: `words of cue ${k}` }));
  return { segments, transcript: { format: 'webvtt', cues } };
}

export async function benchSegmentTexts(): Promise<Record<string, number | string>> {
  const rows: Record<string, number | string> = {};
  const ms = (s: number) => Math.round(s * 1000);
  for (const [name, long] of [['cues on segments', false], ['cues on segments, one segment the whole hour', true]] as const) {
    const [small, large] = [N, 4 * N].map((n) => {
      const { segments, transcript } = input(n, long);
      return cpuSec(() => segmentTexts(segments, transcript, ['Alice', 'Bob']));
    }) as [number, number];
    rows[`${name}: ${N}, ${4 * N} (CPU ms)`] = `${ms(small)}, ${ms(large)}`;
    rows[`${name}: 4N ÷ N (linear: ~4)`] = Number((large / small).toFixed(2));
  }
  return rows;
}

if (import.meta.main) console.table(await benchSegmentTexts());
