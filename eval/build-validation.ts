// Speaker-disjoint validation sets: conversations built from the voices of one fold of the
// training corpus (training/speaker-data.sh), in the dev set's format (WAV + RTTM + utterance
// JSON + manifest.json), so that `npm run eval -- --dataset DIR` scores them as it scores the dev
// set. A model trained for fold k leaves fold k's voices out (training/folds.ts); its figures on
// fold k's set are figures on voices it never heard.
//
//   node eval/build-validation.ts --corpus /work/spk-train --out /work/val [--folds 3] [--per-fold 14]
//
// Each fold gets per-fold conversations (OUT/fold-K/), deterministic from the seed: 2 to 6
// speakers, 1 to 30 minutes, conditions drawn from the list below, the same voices in several
// conversations (identity). The conversation is drawn as turns of one speaker's clips, with
// log-normal gaps, some interruptions (overlap) and backchannels; RTTM segments are each clip's
// speech (energy rule as the dev set's). Conditions: clean; telephone (8 kHz, 300-3,400 Hz, GSM
// full-rate codec through sox); pink noise at 10-20 dB SNR; reverberation (sox reverb); one
// speaker 10 dB quieter; similar-pitch voices (the fold's voices nearest in median F0).
import { parseArgs } from 'node:util';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { pcm16WavHeader } from '../packages/analysis/src/audio/wav.ts';
import { throughSox } from '../training/sessions.ts';
import { foldOf, loadCorpus, speechSpans, type CorpusVoice, type VoiceClip } from './validation-corpus.ts';

const SR = 16000;
type Condition = 'clean' | 'telephone' | 'noise' | 'reverb' | 'quiet-speaker' | 'similar-pitch';
const CONDITIONS: Condition[] = ['clean', 'telephone', 'noise', 'reverb', 'quiet-speaker', 'similar-pitch'];

interface Placed {
  speaker: string;
  start: number; // seconds
  clip: VoiceClip;
  gainDb: number;
  kind: 'turn' | 'backchannel';
}

interface Plan {
  name: string;
  speakers: CorpusVoice[];
  durationSec: number;
  conditions: Condition[];
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

/** Conversations of one fold: speaker count, length and conditions spread over the list. */
function planFold(fold: number, voices: CorpusVoice[], count: number, rand: () => number): Plan[] {
  const plans: Plan[] = [];
  const byPitch = [...voices].sort((a, b) => a.medianF0 - b.medianF0);
  for (let i = 0; i < count; i++) {
    const condition = CONDITIONS[i % CONDITIONS.length]!;
    // Mostly 2-4 speakers, as conversations are; every fifth has 5 or 6.
    const n = Math.min(voices.length, i % 5 === 4 ? 5 + (i % 2) : 2 + (i % 3));
    // Mostly 1-4 minutes; one long conversation per fold (30, 10 and 20 minutes).
    const durationSec = i === 1 ? [1800, 600, 1200][fold % 3]! : 60 + Math.floor(rand() * 180);
    let chosen: CorpusVoice[];
    if (condition === 'similar-pitch') {
      const at = Math.floor(rand() * (byPitch.length - n + 1));
      chosen = byPitch.slice(at, at + n);
    } else {
      const pool = [...voices];
      chosen = [];
      while (chosen.length < n) chosen.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]!);
    }
    plans.push({ name: `f${fold}c${String(i + 1).padStart(2, '0')}`, speakers: chosen, durationSec, conditions: [condition] });
  }
  return plans;
}

/** Turns drawn until the target duration: who speaks, which clips, the gaps and overlaps. */
function drawConversation(plan: Plan, rand: () => number): Placed[] {
  const placed: Placed[] = [];
  const n = plan.speakers.length;
  // Some speakers talk more than others (a dominant one now and then).
  const weight = plan.speakers.map(() => 0.4 + rand());
  const gain = plan.speakers.map((_, k) => (plan.conditions.includes('quiet-speaker') && k === n - 1 ? -10 : 0));
  let t = 0.3 + rand();
  let prev = -1;
  let introduced = 0;
  let lastEnd = 0;
  while (t < plan.durationSec - 3) {
    let s: number;
    if (introduced < n && (prev === -1 || rand() < 0.6)) s = introduced++;
    else {
      do s = pickWeighted(weight, rand);
      while (s === prev && n > 1);
      introduced = Math.max(introduced, s + 1);
    }
    const voice = plan.speakers[s]!;
    // Gap before the turn: log-normal around 0.35 s, sometimes a long pause, sometimes an interruption.
    const r = rand();
    let start: number;
    if (prev !== -1 && r < 0.12) start = Math.max(0, lastEnd - (0.2 + rand() * 0.8));
    else if (r > 0.92) start = lastEnd + 1 + rand() * 2;
    else start = lastEnd + Math.min(1.2, Math.max(0.08, Math.exp(Math.log(0.35) + 0.5 * gaussian(rand))));
    const clips = 1 + Math.floor(rand() * 4);
    let at = start;
    for (let c = 0; c < clips; c++) {
      const clip = pick(rand, voice.clips);
      placed.push({ speaker: voice.id, start: at, clip, gainDb: gain[s]! + (rand() * 2 - 1), kind: 'turn' });
      at += clip.samples.length / SR + 0.15 + rand() * 0.45;
    }
    const end = at - 0.15;
    // A backchannel from another speaker inside a long turn.
    const shortClips = plan.speakers.flatMap((v, k) => (k === s ? [] : v.clips.filter((c) => c.samples.length / SR <= 1).map((clip) => ({ v, clip }))));
    if (end - start > 2.5 && shortClips.length > 0 && rand() < 0.25) {
      const b = pick(rand, shortClips);
      placed.push({ speaker: b.v.id, start: start + 1 + rand() * (end - start - 2), clip: b.clip, gainDb: gain[plan.speakers.indexOf(b.v)]!, kind: 'backchannel' });
    }
    lastEnd = Math.max(lastEnd, end);
    t = lastEnd;
    prev = s;
  }
  return placed.filter((p) => p.start + p.clip.samples.length / SR <= plan.durationSec);
}

function pickWeighted(w: number[], rand: () => number): number {
  let r = rand() * w.reduce((a, b) => a + b, 0);
  for (let i = 0; i < w.length; i++) if ((r -= w[i]!) <= 0) return i;
  return w.length - 1;
}

function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** Pink noise (Paul Kellet's filter) from the seeded source. */
function pinkNoise(len: number, rand: () => number): Float32Array {
  const out = new Float32Array(len);
  let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0;
  for (let i = 0; i < len; i++) {
    const w = rand() * 2 - 1;
    b0 = 0.99886 * b0 + w * 0.0555179;
    b1 = 0.99332 * b1 + w * 0.0750759;
    b2 = 0.969 * b2 + w * 0.153852;
    b3 = 0.8665 * b3 + w * 0.3104856;
    b4 = 0.55 * b4 + w * 0.5329522;
    b5 = -0.7616 * b5 - w * 0.016898;
    out[i] = (b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362) * 0.11;
    b6 = w * 0.115926;
  }
  return out;
}

function rms(x: Float32Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s / Math.max(1, x.length));
}

/** The mix through a telephone codec (GSM at 8 kHz, 300-3,400 Hz) or sox reverberation. */
function channel(x: Float32Array, effect: 'telephone' | 'reverb', rand: () => number): Float32Array<ArrayBuffer> {
  if (effect === 'telephone') return throughSox(x, ['-t', 'gsm', '-r', '8000'], ['sinc', '300-3400', 'rate', '8000']);
  const reverberance = String(Math.round(30 + rand() * 50));
  const room = String(Math.round(40 + rand() * 60));
  return throughSox(x, null, ['reverb', reverberance, '50', room]);
}

function render(plan: Plan, placed: Placed[], rand: () => number): Float32Array<ArrayBuffer> {
  let mix: Float32Array<ArrayBuffer> = new Float32Array(Math.ceil(plan.durationSec * SR));
  for (const p of placed) {
    const g = 10 ** (p.gainDb / 20);
    const at = Math.round(p.start * SR);
    const x = p.clip.samples;
    for (let i = 0; i < x.length && at + i < mix.length; i++) mix[at + i] = mix[at + i]! + g * x[i]!;
  }
  if (plan.conditions.includes('reverb')) mix = channel(mix, 'reverb', rand);
  if (plan.conditions.includes('noise')) {
    const speech = rms(mix) * Math.sqrt(mix.length / Math.max(1, placed.reduce((a, p) => a + p.clip.samples.length, 0)));
    const snr = 10 + rand() * 10;
    const noise = pinkNoise(mix.length, rand);
    const g = (speech / rms(noise)) * 10 ** (-snr / 20);
    for (let i = 0; i < mix.length; i++) mix[i] = mix[i]! + g * noise[i]!;
    plan.conditions = [`noise-${snr.toFixed(1)}dB` as Condition];
  }
  if (plan.conditions.includes('telephone')) mix = channel(mix, 'telephone', rand);
  // A faint room tone everywhere, as a real recording has; scaled down only if it would clip.
  const tone = pinkNoise(mix.length, rand);
  for (let i = 0; i < mix.length; i++) mix[i] = mix[i]! + 10 ** (-72 / 20) * tone[i]!;
  let peak = 0;
  for (let i = 0; i < mix.length; i++) peak = Math.max(peak, Math.abs(mix[i]!));
  if (peak > 0.9) for (let i = 0; i < mix.length; i++) mix[i] = (mix[i]! * 0.9) / peak;
  return mix;
}

function wavBytes(x: Float32Array): Buffer {
  const pcm = Buffer.alloc(x.length * 2);
  for (let i = 0; i < x.length; i++) pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(x[i]! * 32767))), i * 2);
  return Buffer.concat([pcm16WavHeader(pcm.length, SR), pcm]);
}

export interface Truth {
  rttm: { speaker: string; start: number; end: number }[];
  utterances: { speaker: string; start: number; end: number; kind: string }[];
}

/** RTTM segments (each clip's speech spans) and utterances (each placed clip). */
function truthOf(placed: Placed[]): Truth {
  const rttm: Truth['rttm'] = [];
  const utterances: Truth['utterances'] = [];
  for (const p of placed) {
    const spans = speechSpans(p.clip);
    if (spans.length === 0) continue;
    for (const s of spans) rttm.push({ speaker: p.speaker, start: p.start + s.start, end: p.start + s.end });
    utterances.push({ speaker: p.speaker, start: p.start + spans[0]!.start, end: p.start + spans[spans.length - 1]!.end, kind: p.kind });
  }
  rttm.sort((a, b) => a.start - b.start);
  utterances.sort((a, b) => a.start - b.start);
  return { rttm, utterances };
}

function unionSec(segs: { start: number; end: number }[]): number {
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

/** The manifest entry: counts, shares, selectors with their expected answers (dev-set rules). */
function manifestEntry(plan: Plan, truth: Truth, sha256: string): Record<string, unknown> {
  const order = [...new Set(truth.rttm.map((r) => r.speaker))];
  const speechS: Record<string, number> = {};
  for (const id of order) speechS[id] = unionSec(truth.rttm.filter((r) => r.speaker === id));
  const total = Object.values(speechS).reduce((a, b) => a + b, 0);
  const talkShare: Record<string, number> = {};
  for (const id of order) talkShare[id] = Math.round((speechS[id]! / total) * 1000) / 1000;
  const ranked = [...order].sort((a, b) => speechS[b]! - speechS[a]!);
  const dominant = ranked[0] ?? null;
  const timerange: { start_seconds: number; end_seconds: number; expected: string }[] = [];
  for (let t = 0; t + 20 <= plan.durationSec && timerange.length < 3; t += Math.max(20, plan.durationSec / 4)) {
    const inRange = order.map((id) => ({ id, s: unionSec(truth.rttm.filter((r) => r.speaker === id).map((r) => ({ start: Math.max(t, r.start), end: Math.min(t + 20, r.end) })).filter((r) => r.end > r.start)) })).sort((a, b) => b.s - a.s);
    const [w, r] = inRange;
    if (w && w.s >= 2 && w.s >= 2 * (r?.s ?? 0)) timerange.push({ start_seconds: t, end_seconds: t + 20, expected: w.id });
  }
  return {
    name: plan.name,
    wav: `${plan.name}.wav`,
    rttm: `${plan.name}.rttm`,
    utterances: `${plan.name}.json`,
    sha256,
    conditions: plan.conditions,
    duration_s: plan.durationSec,
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

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { corpus: { type: 'string', default: '/work/spk-train' }, out: { type: 'string', default: '/work/val' }, folds: { type: 'string', default: '3' }, 'per-fold': { type: 'string', default: '14' }, seed: { type: 'string', default: 'rapport-val-v1' } } });
  const folds = Number(values.folds);
  const perFold = Number(values['per-fold']);
  const voices = await loadCorpus(values.corpus!);
  for (let fold = 0; fold < folds; fold++) {
    const own = voices.filter((v) => foldOf(v.id, folds) === fold);
    const dir = join(values.out!, `fold-${fold}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const seed = createHash('sha256').update(`${values.seed}/${fold}`).digest().readUInt32LE(0);
    const rand = seededRandom(seed);
    const files = [];
    for (const plan of planFold(fold, own, perFold, rand)) {
      const placed = drawConversation(plan, rand);
      const truth = truthOf(placed);
      const wav = wavBytes(render(plan, placed, rand));
      writeFileSync(join(dir, `${plan.name}.wav`), wav);
      writeFileSync(join(dir, `${plan.name}.rttm`), truth.rttm.map((r) => `SPEAKER ${plan.name} 1 ${r.start.toFixed(3)} ${(r.end - r.start).toFixed(3)} <NA> <NA> ${r.speaker} <NA> <NA>`).join('\n') + '\n');
      writeFileSync(join(dir, `${plan.name}.json`), JSON.stringify({ name: plan.name, duration_s: plan.durationSec, segments: truth.utterances }));
      files.push(manifestEntry(plan, truth, createHash('sha256').update(wav).digest('hex')));
      process.stderr.write(`${plan.name}: ${plan.speakers.length} speakers, ${plan.durationSec} s, ${plan.conditions.join(',')}\n`);
    }
    const used = new Set(files.flatMap((f) => f.speakers as string[]));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ fold, folds, seed: values.seed, voices: own.map((v) => ({ id: v.id, median_f0_hz: Math.round(v.medianF0), seconds: Math.round(v.seconds), used: used.has(v.id) })), files }, null, 1));
  }
}

if (import.meta.main) await main();
