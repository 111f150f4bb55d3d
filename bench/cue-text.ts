// The transcript parser on hostile cue text, at N and at 4N: the figure is the ratio of the two
// CPU times, measured in the same run, so the host's load cancels. Linear work gives about 4; the
// regexes the voice tags and tags were read with gave about 16 on a cue of unclosed `<v` (each
// `<v` scanned ahead to a `>` that never came: 100,000 of them held the parser about a minute).
// The last figure is the analysis of a transcript of N names all speaking at once (the overlap
// check and the backchannels asked every pair, or every speaker live, of them).
// Run alone: node_modules/.bin/node bench/cue-text.ts   (BENCH_QUICK=1: 5,000 units, 1,000 names)
import { parseTranscript } from '../packages/analysis/src/language/transcripts.ts';
import { analyzeTranscript } from '../packages/analysis/src/transcript-analysis.ts';
import { cpuSec } from './cpu-time.ts';

const QUICK = process.env.BENCH_QUICK === '1';
/** Units of hostile text in a cue, and names at once (the cue cap is 20,000 = 4 × 5,000). */
const UNITS = QUICK ? 5000 : 100_000;
const NAMES = QUICK ? 1000 : 5000;

/** A WebVTT of one cue of `text` and one ordinary cue after it. */
const oneCue = (text: string) => `WEBVTT\n\n00:00.000 --> 00:01.000\n${text}\n\n00:01.000 --> 00:02.000\n<v Ann>after\n`;

export async function benchCueText(): Promise<Record<string, number | string>> {
  const rows: Record<string, number | string> = {};
  const ms = (s: number) => Math.round(s * 1000);
  const figure = (name: string, n: number, make: (n: number) => () => unknown): void => {
    const [small, large] = [cpuSec(make(n)), cpuSec(make(4 * n))];
    rows[`${name}: ${n}, ${4 * n} (CPU ms)`] = `${ms(small)}, ${ms(large)}`;
    rows[`${name}: 4N ÷ N (linear: ~4)`] = Number((large / small).toFixed(2));
  };
  const parse = (text: (n: number) => string) => (n: number) => {
    const file = oneCue(text(n));
    return () => parseTranscript(file);
  };
  figure('a cue of N unclosed "<v "', UNITS, parse((n) => '<v '.repeat(n)));
  figure('a cue of N unclosed "<v."', UNITS, parse((n) => '<v.'.repeat(n)));
  figure('a cue of N unclosed "<"', UNITS, parse((n) => '<'.repeat(n)));
  figure('a cue of N voices, each its own', UNITS, parse((n) => Array.from({ length: n }, (_, k) => `<v S${k}>w`).join(' ')));
  // Every one speaking from 0 to 1 s.
  figure('analysis of N names at once', NAMES, (n) => {
    const cues = Array.from({ length: n }, (_, k) => ({ speaker: `S${k}`, start: 0, end: 1, text: 'yes' }));
    return () => analyzeTranscript({ format: 'json', cues });
  });
  return rows;
}

if (import.meta.main) console.table(await benchCueText());
