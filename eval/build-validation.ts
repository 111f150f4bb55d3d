// Speaker-disjoint validation sets: simulated conversations of one fold's voices of a training
// corpus (the real-voice corpus of training/real-voices-corpus.sh, or the older one of
// training/speaker-data.sh), in the dev set's format (WAV + RTTM + utterance JSON +
// manifest.json), so that `npm run eval -- --dataset DIR` scores them as it scores the dev set. A
// model trained for fold k leaves fold k's voices out; its figures on fold k's set are figures
// on voices it never heard.
//
//   node eval/build-validation.ts --corpus /work/rv-corpus --out /work/val-rv [--folds 3] [--per-fold 14]
//                                 [--cast 24] [--min-voice-sec 20] [--seed rapport-val-v1]
//
// Each fold draws a cast of voices (--cast, among those with at least --min-voice-sec of audio,
// since a conversation of minutes cannot be made of one sentence) and only the cast's audio is
// read: a 716-voice corpus does not fit in memory whole. Its per-fold conversations
// (OUT/fold-K/) are deterministic from the seed: 2 to 6 speakers, mostly 1 to 5 minutes with one
// of 10-15 and one of 6-8 minutes, the cast's voices recurring across files (identity), turns
// drawn as conversation-plan.ts says (Landini et al., 2022). RTTM segments are each clip's speech
// (the dev set's energy rule), overlap included. Conditions, one per file in turn: clean;
// telephone (8 kHz, 300-3,400 Hz, GSM full-rate codec through sox); recorded noise at 5-20 dB SNR
// (the corpus's _noise; synthetic pink noise at 10-20 dB where it has none); a real room
// (the whole mix convolved with one of the corpus's _rir responses; sox reverb where it has none);
// one speaker 10 dB quieter; voices of one sex and age group (child under 16 or adult, from
// speakers.json; where the corpus has no such labels, the voices nearest in median F0).
import { parseArgs } from 'node:util';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { throughSox } from '../training/sessions.ts';
import { addNoise, loadAugmentation, reverberate, type Augmentation } from '../training/augment.ts';
import { foldOf, loadCorpusIndex, loadVoice, speechSpans, type CorpusVoice, type VoiceEntry } from './validation-corpus.ts';
import { drawConversation, sameGroupVoices, type Placed } from './conversation-plan.ts';
import { manifestEntry, rttmText, wavBytes, type RefSeg } from './dataset-writer.ts';

const SR = 16000;
const CONDITIONS = ['clean', 'telephone', 'noise', 'room', 'quiet-speaker', 'same-group'] as const;
type Condition = (typeof CONDITIONS)[number];

/** A cast voice: its audio and what speakers.json says of it. */
type CastVoice = CorpusVoice & VoiceEntry;

interface Plan {
  name: string;
  speakers: CastVoice[];
  durationSec: number;
  condition: Condition;
  /** What the rendered file went through, as written in the manifest (e.g. noise-running_tap-7.2dB). */
  conditions: string[];
}

/** A random sample of k of the list (all of it when shorter). */
function sample<T>(xs: readonly T[], k: number, rand: () => number): T[] {
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < k && pool.length > 0) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]!);
  return out;
}

/** Conversations of one fold: speaker count, length and condition spread over the list. */
function planFold(fold: number, cast: CastVoice[], count: number, rand: () => number): Plan[] {
  const plans: Plan[] = [];
  const byPitch = [...cast].sort((a, b) => a.medianF0 - b.medianF0);
  const byMaterial = [...cast].sort((a, b) => b.seconds - a.seconds);
  for (let i = 0; i < count; i++) {
    const condition = CONDITIONS[i % CONDITIONS.length]!;
    // Mostly 2-4 speakers, as conversations are; every fifth has 5 or 6; the longest has 5.
    const n = Math.min(cast.length, i === 1 ? 5 : i % 5 === 4 ? 5 + (i % 2) : 2 + (i % 3));
    // Mostly 1-5 minutes; one of 10-15 minutes and one of 6-8 minutes per fold.
    const long = i === 1 || i === 9;
    const durationSec = Math.round(i === 1 ? 600 + rand() * 300 : i === 9 ? 360 + rand() * 120 : 60 + rand() * 240);
    let chosen: CastVoice[];
    const conditions: string[] = [condition];
    if (condition === 'same-group') {
      const g = sameGroupVoices(cast, n, rand);
      if (g) {
        chosen = g.voices;
        conditions[0] = `same-group-${g.group}`;
      } else {
        const at = Math.floor(rand() * (byPitch.length - n + 1));
        chosen = byPitch.slice(at, at + n);
        conditions[0] = 'similar-pitch';
      }
    } else if (long) {
      // Long files take voices with the most material, so that clips repeat as little as they can.
      chosen = sample(byMaterial.slice(0, Math.max(n, 2 * n)), n, rand);
    } else chosen = sample(cast, n, rand);
    plans.push({ name: `f${fold}c${String(i + 1).padStart(2, '0')}`, speakers: chosen, durationSec, condition, conditions });
  }
  return plans;
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

const telephone = (x: Float32Array): Float32Array<ArrayBuffer> => throughSox(x, ['-t', 'gsm', '-r', '8000'], ['sinc', '300-3400', 'rate', '8000']);

/** The plan's voices mixed, then through its condition. `real` is the corpus's recorded noise and rooms. */
function render(plan: Plan, placed: Placed[], real: Augmentation, rand: () => number): Float32Array {
  let mix: Float32Array = new Float32Array(Math.ceil(plan.durationSec * SR));
  for (const p of placed) {
    const g = 10 ** (p.gainDb / 20);
    const at = Math.round(p.start * SR);
    const x = p.clip.samples;
    for (let i = 0; i < x.length && at + i < mix.length; i++) mix[at + i] = mix[at + i]! + g * x[i]!;
  }
  if (plan.condition === 'room') {
    // One room for the whole conversation: the speakers sit in it together.
    if (real.rirs.length > 0) {
      const rir = real.rirs[Math.floor(rand() * real.rirs.length)]!;
      mix = reverberate(mix, rir.x);
      plan.conditions = [`room-${rir.name}`];
    } else mix = throughSox(mix, null, ['reverb', String(Math.round(30 + rand() * 50)), '50', String(Math.round(40 + rand() * 60))]);
  }
  if (plan.condition === 'noise') {
    if (real.noises.length > 0) {
      const noise = real.noises[Math.floor(rand() * real.noises.length)]!;
      const snr = 5 + rand() * 15;
      addNoise(mix, noise.x, snr, rand);
      plan.conditions = [`noise-${noise.name}-${snr.toFixed(1)}dB`];
    } else {
      const speech = rms(mix) * Math.sqrt(mix.length / Math.max(1, placed.reduce((a, p) => a + p.clip.samples.length, 0)));
      const snr = 10 + rand() * 10;
      const noise = pinkNoise(mix.length, rand);
      const g = (speech / rms(noise)) * 10 ** (-snr / 20);
      for (let i = 0; i < mix.length; i++) mix[i] = mix[i]! + g * noise[i]!;
      plan.conditions = [`noise-${snr.toFixed(1)}dB`];
    }
  }
  if (plan.condition === 'telephone') mix = telephone(mix);
  // A faint room tone everywhere, as a real recording has; scaled down only if it would clip.
  const tone = pinkNoise(mix.length, rand);
  for (let i = 0; i < mix.length; i++) mix[i] = mix[i]! + 10 ** (-72 / 20) * tone[i]!;
  let peak = 0;
  for (let i = 0; i < mix.length; i++) peak = Math.max(peak, Math.abs(mix[i]!));
  if (peak > 0.9) for (let i = 0; i < mix.length; i++) mix[i] = (mix[i]! * 0.9) / peak;
  return mix;
}

export interface Truth {
  rttm: RefSeg[];
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
    utterances.push({ speaker: p.speaker, start: p.start + spans[0]!.start, end: p.start + spans[spans.length - 1]!.end, kind: 'turn' });
  }
  rttm.sort((a, b) => a.start - b.start);
  utterances.sort((a, b) => a.start - b.start);
  return { rttm, utterances };
}

/** The fold's cast: every voice with enough audio, or a seeded sample of --cast of them. */
function castOf(own: VoiceEntry[], size: number, minSec: number, rand: () => number): VoiceEntry[] {
  const eligible = own.filter((v) => v.seconds === null || v.seconds >= minSec);
  return eligible.length <= size ? eligible : sample(eligible, size, rand).sort((a, b) => a.id.localeCompare(b.id));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', default: '/work/spk-train' },
      out: { type: 'string', default: '/work/val' },
      folds: { type: 'string', default: '3' },
      'per-fold': { type: 'string', default: '14' },
      cast: { type: 'string', default: '24' },
      'min-voice-sec': { type: 'string', default: '20' },
      seed: { type: 'string', default: 'rapport-val-v1' },
    },
  });
  const folds = Number(values.folds);
  const perFold = Number(values['per-fold']);
  const corpus = values.corpus!;
  const index = loadCorpusIndex(corpus);
  const aug = await loadAugmentation(corpus);
  // The corpus's noise folder also holds generated pink and white noise; recorded noise is the point.
  const recorded = aug.noises.filter((n) => !/pink|white/.test(n.name));
  const real: Augmentation = { rirs: aug.rirs, noises: recorded.length > 0 ? recorded : aug.noises };
  for (let fold = 0; fold < folds; fold++) {
    const own = index.filter((v) => foldOf(v.id, folds) === fold);
    const dir = join(values.out!, `fold-${fold}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const seed = createHash('sha256').update(`${values.seed}/${fold}`).digest().readUInt32LE(0);
    const rand = seededRandom(seed);
    // Only the cast's audio is read, and it is released with the fold.
    const cast: CastVoice[] = [];
    for (const entry of castOf(own, Number(values.cast), Number(values['min-voice-sec']), rand)) {
      const v = await loadVoice(corpus, entry);
      if (v) cast.push({ ...entry, ...v });
    }
    process.stderr.write(`fold ${fold}: ${own.length} voices, cast of ${cast.length}\n`);
    const files = [];
    for (const plan of planFold(fold, cast, perFold, rand)) {
      const gain = plan.speakers.map((_, k) => (plan.condition === 'quiet-speaker' && k === plan.speakers.length - 1 ? -10 : 0));
      const placed = drawConversation(plan.speakers, plan.durationSec, gain, rand);
      const truth = truthOf(placed);
      const wav = wavBytes(render(plan, placed, real, rand));
      writeFileSync(join(dir, `${plan.name}.wav`), wav);
      writeFileSync(join(dir, `${plan.name}.rttm`), rttmText(plan.name, truth.rttm));
      writeFileSync(join(dir, `${plan.name}.json`), JSON.stringify({ name: plan.name, duration_s: plan.durationSec, segments: truth.utterances }));
      files.push(manifestEntry(plan.name, plan.durationSec, plan.conditions, truth.rttm, createHash('sha256').update(wav).digest('hex')));
      const turns = new Set(placed.map((p) => p.turn)).size;
      const overlapped = new Set(placed.filter((p) => p.overlapped).map((p) => p.turn)).size;
      process.stderr.write(`${plan.name}: ${plan.speakers.length} speakers, ${plan.durationSec} s, ${plan.conditions.join(',')}, ${turns} turns, ${overlapped} overlapping\n`);
    }
    const used = new Set(files.flatMap((f) => f.speakers as string[]));
    const voices = cast.map((v) => ({ id: v.id, package: v.package, sex: v.sex, age: v.age, median_f0_hz: Math.round(v.medianF0), seconds: Math.round(v.seconds), used: used.has(v.id) }));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ fold, folds, seed: values.seed, corpus, fold_voices: own.length, voices, files }, null, 1));
  }
}

if (import.meta.main) await main();
