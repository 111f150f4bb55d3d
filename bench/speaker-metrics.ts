// The per-speaker metrics of a transcript (computeSpeakerMetrics on the track of its cues, as
// analyzeTranscript runs them) at N cues and at 4N cues, and the whole transcript analysis
// likewise: the figure is the ratio of the two CPU times, measured in the same run, so the host's
// load cancels. Linear work gives about 4 (n log n a little more); the scans these metrics were
// (interruptions, pauses inside turns, unnamed cues, each speaker's overlap) gave about 16 at the
// cue cap, MAX_TRANSCRIPT_CUES = 20,000 = 4N. The format allows a name per cue, so the last figure
// is a transcript where every cue has its own speaker: turns, overlap and per-speaker lists that
// looked at every speaker for each segment (or each pair of speakers) gave about 16 there too.
// Run alone: node_modules/.bin/node bench/speaker-metrics.ts   (BENCH_QUICK=1: N = 1,000)
import { analyzeTranscript } from '../packages/analysis/src/transcript-analysis.ts';
import { computeSpeakerMetrics } from '../packages/analysis/src/behavior/speaker-metrics.ts';
import type { Transcript } from '../packages/analysis/src/types.ts';
import { cpuSec } from './cpu-time.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const N = QUICK ? 1000 : 5000;

/**
 * `n` cues of two named speakers and some unnamed ones: each speaker says two or three cues with
 * short pauses (pauses inside a turn), and the other starts before they end (an interruption).
 */
export function benchTranscript(n: number): Transcript {
  const cues: Transcript['cues'] = [];
  let t = 0;
  for (let k = 0; cues.length < n; k++) {
    const speaker = k % 2 ? 'Bob' : 'Alice';
    const pieces = 2 + (k % 2);
    for (let p = 0; p < pieces && cues.length < n; p++) {
      const unnamed = cues.length % 10 === 9;
      cues.push({ speaker: unnamed ? null : speaker, start: t, end: t + 1.2, text: 'so we said a few words here, right?' });
      t += 1.2 + (p < pieces - 1 ? 0.4 : -0.5);
    }
  }
  return { format: 'webvtt', cues };
}

/** `n` cues, each of its own speaker, each starting 0.3 s before the last one ends (overlapped speech). */
export function oneNameCuesTranscript(n: number): Transcript {
  const cues = Array.from({ length: n }, (_, k) => ({ speaker: `Speaker ${k + 1}`, start: k, end: k + 1.3, text: 'a few words here' }));
  return { format: 'webvtt', cues };
}

/** The metrics of the cues' track: with the transcript's text (language measures, unnamed cues placed by time), or the timing alone. */
function metricsSec(n: number, withText: boolean): number {
  const transcript = benchTranscript(n);
  const a = analyzeTranscript(transcript);
  const labels = a.speakers.map((s) => s.label);
  return cpuSec(() => computeSpeakerMetrics({ durationSec: a.durationSec, segments: a.segments, turns: a.turns, acoustic: [], transcript: withText ? transcript : null, labels, overlapMeasured: true }));
}

export async function benchSpeakerMetrics(): Promise<Record<string, number | string>> {
  const rows: Record<string, number | string> = {};
  const ms = (s: number) => Math.round(s * 1000);
  const figure = (name: string, of: (n: number) => number): void => {
    const [small, large] = [of(N), of(4 * N)];
    rows[`${name}: ${N} cues, ${4 * N} cues (CPU ms)`] = `${ms(small)}, ${ms(large)}`;
    rows[`${name}: 4N ÷ N (linear: ~4)`] = Number((large / small).toFixed(2));
  };
  // The timing measures alone carry the scans (the language measures are linear, and slow).
  figure('speaker metrics, timing only', (n) => metricsSec(n, false));
  figure('speaker metrics, with the text', (n) => metricsSec(n, true));
  figure('whole transcript analysis', (n) => cpuSec(() => analyzeTranscript(benchTranscript(n))));
  figure('whole transcript analysis, one name per cue', (n) => cpuSec(() => analyzeTranscript(oneNameCuesTranscript(n))));
  return rows;
}

if (import.meta.main) console.table(await benchSpeakerMetrics());
