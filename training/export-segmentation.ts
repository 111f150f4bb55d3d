// Training data for the speaker segmentation network (train-segmentation.py): simulated
// conversations of the real-voice corpus (training/real-voices-corpus.sh), each drawn from the
// voices of one leave-voices-out fold, written as the engine's fbank (speech/fbank.ts, the
// features the network reads at run time, computed by the same code) and, per 10 ms frame, which
// of the conversation's voices speak (a bit per voice, overlap included).
//
//   node training/export-segmentation.ts --corpus /work/rv-corpus --out /work/seg-export \
//     [--conversations 3000] [--shard 0 --shards 2] [--seed rapport-seg-v1] [--overlap default|meeting]
//     [--levels default|wide] [--speeds default|wide] [--extra-corpus DIR --extra-share 0.5]
//     [--same-channel 0.5]
//
// A conversation (Landini et al. 2022, as eval/conversation-plan.ts draws them) has 1-4 voices and
// lasts 40-90 s, with overlap drawn by --overlap (OVERLAP_STYLES below): `default`, 20-70 % of
// turns start early by up to 4 s and in 20-80 % of turns a listener says something of 0.2-0.8 s
// (14.8 % of the speech frames overlapped in 2,000 conversations); `meeting`, more of both (20.5 %),
// against 21.7 % in the shared AMI excerpts and 4.6 % in the validation sets. Every voice has its own
// channel (band limits, an EQ bump) and level (--levels, LEVEL_STYLES below: `default`, within
// ±4 dB and a quiet speaker 10 dB down in one conversation in ten), a speed (--speeds, SPEED_STYLES below:
// `default`, a third of the voices played 0.9 or 1.1 times as fast), and 30 % of conversations draw
// their voices from one sex and age group. Conditions: clean, a real room, recorded noise at 0-25
// dB SNR, both, or a GSM telephone codec. Conversation c is drawn from its own seed, so shards
// (--shard K of --shards N: the conversations c = K mod N) give the same data however many run.
// --extra-corpus names a second corpus of training-only voices (training/speaker-data.sh: the
// studio prompts and acted game voices of Debian packages, a kind of recording the real-voice
// corpus lacks); with --extra-share S, that share of the conversations draws all its voices from
// it (the voices of the conversation's fold there), decided by a draw of its own, so the other
// conversations are those of the same export without it. --same-channel S: that share of the
// conversations (also by a draw of its own) takes all its voices from one source corpus of the
// real-voice corpus (LibriSpeech, speechocean762, ...) and plays them through one channel, so that
// a voice cannot be told from the others by its recording instead of by the voice: elsewhere every
// voice has its own channel, and in a meeting's mix or a studio's prompts all voices share one.
// Writes OUT/shard-K/{fbank.i16, active.u8, meta.json}; the data stays outside the repository.
import { parseArgs } from 'node:util';
import { mkdirSync, openSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { resample } from '../packages/analysis/src/audio/resample.ts';
import { FbankAnalyzer, type FbankOptions } from '../packages/analysis/src/speech/fbank.ts';
import { SEGMENTATION_FBANK } from '../packages/analysis/src/speech/segmentation/features.ts';
import { foldOf, loadCorpusIndex, loadVoiceClips, type VoiceClip, type VoiceEntry } from '../eval/validation-corpus.ts';
import { drawConversation, voiceGroup, type ConversationStyle, type ConversationVoice, type Placed } from '../eval/conversation-plan.ts';
import { addNoise, loadAugmentation, reverberate, type Augmentation } from './augment.ts';
import { biquad, throughSox } from './sessions.ts';

const SR = 16000;
const HOP = 160;
const CONDITIONS = ['clean', 'room', 'noise', 'room-noise', 'telephone'] as const;
const CONDITION_WEIGHTS = [0.25, 0.25, 0.25, 0.1, 0.15];
type Condition = (typeof CONDITIONS)[number];

interface ConversationMeta {
  index: number;
  fold: number;
  voices: string[];
  /** Its voices are the --extra-corpus's. */
  extra?: boolean;
  /** Its voices are of one source corpus and share one channel (--same-channel). */
  sameChannel?: boolean;
  condition: string;
  /** First frame in the shard's files, and frame count. */
  offset: number;
  frames: number;
}

function pick<T>(xs: readonly T[], rand: () => number): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

function sample<T>(xs: readonly T[], k: number, rand: () => number): T[] {
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < k && pool.length > 0) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]!);
  return out;
}

function drawCondition(rand: () => number): Condition {
  let r = rand();
  for (let i = 0; i < CONDITIONS.length; i++) if ((r -= CONDITION_WEIGHTS[i]!) <= 0) return CONDITIONS[i]!;
  return 'clean';
}

/** 1 to 4 voices of one fold: mostly 2-4, as the local speakers of a meeting's 8 s window are. */
function drawVoiceCount(rand: () => number): number {
  const r = rand();
  return r < 0.05 ? 1 : r < 0.4 ? 2 : r < 0.7 ? 3 : 4;
}

function chooseVoices(pool: VoiceEntry[], n: number, rand: () => number): VoiceEntry[] {
  if (rand() < 0.3) {
    const groups = new Map<string, VoiceEntry[]>();
    for (const v of pool) {
      const g = voiceGroup(v);
      if (g) groups.set(g, [...(groups.get(g) ?? []), v]);
    }
    const names = [...groups.keys()].filter((g) => groups.get(g)!.length >= n).sort();
    if (names.length > 0) return sample(groups.get(pick(names, rand))!, n, rand);
  }
  return sample(pool, n, rand);
}

/** The voices of one source corpus (drawn by its number of voices) of those that have `n`; all of them if none has. */
function oneSource(pool: VoiceEntry[], n: number, rand: () => number): VoiceEntry[] {
  const bySource = new Map<string, VoiceEntry[]>();
  for (const v of pool) bySource.set(v.package, [...(bySource.get(v.package) ?? []), v]);
  const big = [...bySource.keys()].filter((k) => bySource.get(k)!.length >= n).sort();
  const total = big.reduce((a, k) => a + bySource.get(k)!.length, 0);
  let r = rand() * total;
  for (const k of big) if ((r -= bySource.get(k)!.length) <= 0) return bySource.get(k)!;
  return pool;
}

/**
 * How fast each voice of a conversation is played, drawn per voice from one number. `default` (the
 * shipped networks' data): a third of the voices at 0.9 or 1.1, the rest as recorded. `wide`:
 * every voice at its own speed, uniform in 0.85-1.15, so that no conversation hears a voice
 * quite as recorded: resampling moves its pitch and formants together (a shorter or longer vocal
 * tract), the pseudo-speakers that speaker recognition trains on (Ko et al. 2015), here without
 * end instead of three per voice.
 */
const SPEED_STYLES: Record<string, (r: number) => number> = {
  default: (r) => (r < 0.17 ? 0.9 : r < 0.34 ? 1.1 : 1),
  wide: (r) => 0.85 + 0.3 * r,
};

interface Channel {
  hp: number;
  lp: number;
  peak: { f: number; g: number } | null;
}

/** A recording channel: a high-pass, a low-pass and an EQ bump, each or none. */
function drawChannel(rand: () => number): Channel {
  const hp = rand() < 0.5 ? 80 + rand() * 320 : 0;
  const lp = rand() < 0.4 ? 3000 + rand() * 4000 : 0;
  const peak = rand() < 0.7 ? { f: 300 * 2 ** (rand() * 4), g: (rand() * 2 - 1) * 8 } : null;
  return { hp, lp, peak };
}

/**
 * A voice as one conversation plays it: up to 12 of its clips, its own speed and channel (or the
 * conversation's `shared` one; its own is drawn all the same, so the draws that follow do not move).
 */
function conversationVoice(id: string, clips: VoiceClip[], rand: () => number, speedOf: (r: number) => number, shared: Channel | null = null): ConversationVoice {
  const speed = speedOf(rand());
  const own = drawChannel(rand);
  const { hp, lp, peak } = shared ?? own;
  const chosen = sample(clips, 12, rand).map((c) => {
    const x = speed === 1 ? c.samples.slice() : resample(c.samples, Math.round(SR * speed), SR);
    if (hp) biquad(x, 'hp', hp, 0.707);
    if (lp) {
      biquad(x, 'lp', lp, 0.707);
      biquad(x, 'lp', lp, 0.707);
    }
    if (peak) biquad(x, 'peak', peak.f, 1, peak.g);
    return { samples: x, spans: c.spans.map((s) => ({ start: s.start / speed, end: s.end / speed })) };
  });
  return { id, clips: chosen };
}

function mixOf(placed: Placed[], samples: number): Float32Array {
  const mix = new Float32Array(samples);
  for (const p of placed) {
    const g = 10 ** (p.gainDb / 20);
    const at = Math.round(p.start * SR);
    const x = p.clip.samples;
    for (let i = 0; i < x.length && at + i < mix.length; i++) mix[at + i] = mix[at + i]! + g * x[i]!;
  }
  return mix;
}

function applyCondition(mix: Float32Array, condition: Condition, real: Augmentation, rand: () => number): { x: Float32Array; name: string } {
  let x = mix;
  const names: string[] = [];
  if ((condition === 'room' || condition === 'room-noise') && real.rirs.length > 0) {
    const rir = pick(real.rirs, rand);
    x = reverberate(x, rir.x);
    names.push(`room-${rir.name}`);
  }
  if ((condition === 'noise' || condition === 'room-noise') && real.noises.length > 0) {
    const noise = pick(real.noises, rand);
    const snr = rand() * 25;
    addNoise(x, noise.x, snr, rand);
    names.push(`noise-${noise.name}-${snr.toFixed(0)}dB`);
  }
  if (condition === 'telephone') {
    x = throughSox(x, ['-t', 'gsm', '-r', '8000'], ['sinc', '300-3400', 'rate', '8000']);
    names.push('telephone');
  }
  const name = names.length > 0 ? names.join('+') : 'clean';
  // An overall level from -30 to 0 dB re the corpus's -26 dBFS speech, and a faint floor.
  const g = 10 ** ((-30 * rand() + 6) / 20);
  let peak = 0;
  for (let i = 0; i < x.length; i++) {
    x[i] = x[i]! * g + 1e-5 * (rand() * 2 - 1);
    peak = Math.max(peak, Math.abs(x[i]!));
  }
  if (peak > 0.99) for (let i = 0; i < x.length; i++) x[i] = (x[i]! * 0.99) / peak;
  return { x, name };
}

/** Per frame, a bit per voice (in `ids` order) that speaks there: each placed clip's speech spans. */
function activity(placed: Placed[], ids: string[], frames: number): Uint8Array {
  const out = new Uint8Array(frames);
  for (const p of placed) {
    const bit = 1 << ids.indexOf(p.speaker);
    for (const s of p.clip.spans) {
      const a = Math.max(0, Math.round((p.start + s.start) * 100));
      const b = Math.min(frames, Math.round((p.start + s.end) * 100));
      for (let i = a; i < b; i++) out[i] = out[i]! | bit;
    }
  }
  return out;
}

function fbankOf(x: Float32Array, options: FbankOptions): Int16Array {
  const a = new FbankAnalyzer(options, x.length);
  a.push(x);
  return a.finish().data;
}

/**
 * How much the voices of a conversation overlap, drawn per conversation. `default` (the base
 * network's data): 20-70 % of turns start early by up to 4 s, backchannels in 20-80 % of turns,
 * 14.8 % of speech frames overlapped. `meeting`: 30-80 % early by up to 5 s, backchannels in
 * 30-90 %, 20.5 %: near the 21.7 % of the shared AMI excerpts (the rate real meetings have).
 */
const OVERLAP_STYLES: Record<string, (rand: () => number) => ConversationStyle> = {
  default: (rand) => ({ overlapShare: 0.2 + rand() * 0.5, overlapSec: [0.3, 4], backchannelShare: 0.2 + rand() * 0.6 }),
  meeting: (rand) => ({ overlapShare: 0.3 + rand() * 0.5, overlapSec: [0.4, 5], backchannelShare: 0.3 + rand() * 0.6 }),
};

/**
 * Each voice's level in dB, drawn per conversation. `default` (the first three networks' data):
 * within ±4 dB, and in one conversation in ten the last voice 10 dB down. `wide`: within ±6 dB,
 * and in one conversation in three one voice 6-15 dB down: in a meeting's mix the listener who
 * says "mm" or starts early is often the quieter one, so much of its overlap is a faint second
 * voice under a loud first.
 */
const LEVEL_STYLES: Record<string, (voices: number, rand: () => number) => number[]> = {
  default: (voices, rand) => {
    const gains = Array.from({ length: voices }, () => (rand() * 2 - 1) * 4);
    if (voices > 1 && rand() < 0.1) gains[voices - 1] = -10;
    return gains;
  },
  wide: (voices, rand) => {
    const gains = Array.from({ length: voices }, () => (rand() * 2 - 1) * 6);
    if (voices > 1 && rand() < 1 / 3) gains[Math.floor(rand() * voices)] = -6 - rand() * 9;
    return gains;
  },
};

/** A random source seeded from a key: each conversation, and each of its own draws, has one. */
function seededFrom(key: string): () => number {
  return seededRandom(createHash('sha256').update(key).digest().readUInt32LE(0));
}

interface VoicePool {
  clips: Map<string, VoiceClip[]>;
  byFold: VoiceEntry[][];
}

/** A corpus's voices with their clips, by fold. */
async function loadPool(corpus: string, folds: number): Promise<VoicePool> {
  const index = loadCorpusIndex(corpus);
  const clips = new Map<string, VoiceClip[]>();
  for (const v of index) {
    const c = await loadVoiceClips(corpus, v.id);
    if (c.length > 0) clips.set(v.id, c);
  }
  const byFold = Array.from({ length: folds }, (_, k) => index.filter((v) => clips.has(v.id) && foldOf(v.id, folds) === k));
  return { clips, byFold };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', default: '/work/rv-corpus' },
      out: { type: 'string', default: '/work/seg-export' },
      conversations: { type: 'string', default: '3000' },
      shard: { type: 'string', default: '0' },
      shards: { type: 'string', default: '1' },
      folds: { type: 'string', default: '3' },
      seed: { type: 'string', default: 'rapport-seg-v1' },
      overlap: { type: 'string', default: 'default' },
      levels: { type: 'string', default: 'default' },
      speeds: { type: 'string', default: 'default' },
      'extra-corpus': { type: 'string' },
      'extra-share': { type: 'string', default: '0' },
      'same-channel': { type: 'string', default: '0' },
    },
  });
  const total = Number(values.conversations);
  const shard = Number(values.shard);
  const shards = Number(values.shards);
  const folds = Number(values.folds);
  const corpus = values.corpus!;
  const overlap = OVERLAP_STYLES[values.overlap!];
  if (!overlap) throw new Error(`--overlap: one of ${Object.keys(OVERLAP_STYLES).join(', ')}`);
  const levels = LEVEL_STYLES[values.levels!];
  if (!levels) throw new Error(`--levels: one of ${Object.keys(LEVEL_STYLES).join(', ')}`);
  const speedOf = SPEED_STYLES[values.speeds!];
  if (!speedOf) throw new Error(`--speeds: one of ${Object.keys(SPEED_STYLES).join(', ')}`);
  const extraShare = Number(values['extra-share']);
  if (!(extraShare >= 0 && extraShare <= 1)) throw new Error('--extra-share: a number from 0 to 1');
  const sameChannelShare = Number(values['same-channel']);
  if (!(sameChannelShare >= 0 && sameChannelShare <= 1)) throw new Error('--same-channel: a number from 0 to 1');
  const aug = await loadAugmentation(corpus);
  const corpusPool = await loadPool(corpus, folds);
  const extra = values['extra-corpus'] ? await loadPool(values['extra-corpus'], folds) : null;
  for (const [name, pool] of [['corpus', corpusPool], ['extra', extra]] as const)
    if (pool) process.stderr.write(`shard ${shard}/${shards}, ${name}: ${pool.clips.size} voices (${pool.byFold.map((f) => f.length).join(' / ')} by fold)\n`);
  const dir = join(values.out!, `shard-${shard}`);
  mkdirSync(dir, { recursive: true });
  const fb = openSync(join(dir, 'fbank.i16'), 'w');
  const act = openSync(join(dir, 'active.u8'), 'w');
  const metas: ConversationMeta[] = [];
  let offset = 0;
  const started = Date.now();
  for (let c = shard; c < total; c += shards) {
    const rand = seededFrom(`${values.seed}/${c}`);
    const fold = c % folds;
    const fromExtra = extra !== null && extra.byFold[fold]!.length >= 2 && seededFrom(`${values.seed}/${c}/extra`)() < extraShare;
    const pool = fromExtra ? extra : corpusPool;
    const channelRand = seededFrom(`${values.seed}/${c}/channel`);
    const sameChannel = !fromExtra && channelRand() < sameChannelShare;
    const count = drawVoiceCount(rand);
    const chosen = chooseVoices(sameChannel ? oneSource(pool.byFold[fold]!, count, channelRand) : pool.byFold[fold]!, count, rand);
    const shared = sameChannel ? drawChannel(channelRand) : null;
    const voices = chosen.map((v) => conversationVoice(v.id, pool.clips.get(v.id)!, rand, speedOf, shared));
    const durationSec = 40 + rand() * 50;
    const gains = levels(voices.length, rand);
    const style = overlap(rand);
    const placed = drawConversation(voices, durationSec, gains, rand, style);
    const samples = Math.ceil(durationSec * SR);
    const { x, name } = applyCondition(mixOf(placed, samples), drawCondition(rand), aug, rand);
    const features = fbankOf(x, SEGMENTATION_FBANK);
    const frames = Math.floor(features.length / SEGMENTATION_FBANK.bins);
    const ids = voices.map((v) => v.id);
    writeSync(fb, features.subarray(0, frames * SEGMENTATION_FBANK.bins));
    writeSync(act, activity(placed, ids, frames));
    metas.push({ index: c, fold, voices: ids, condition: name, offset, frames, ...(fromExtra ? { extra: true } : {}), ...(sameChannel ? { sameChannel: true } : {}) });
    offset += frames;
    if (metas.length % 50 === 0) process.stderr.write(`shard ${shard}: ${metas.length} conversations, ${(offset / 360000).toFixed(1)} h, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  closeSync(fb);
  closeSync(act);
  const meta = { seed: values.seed, overlap: values.overlap, levels: values.levels, speeds: values.speeds, extraCorpus: values['extra-corpus'] ?? null, extraShare, sameChannelShare, folds, fbank: SEGMENTATION_FBANK, hopSamples: HOP, frames: offset, conversations: metas };
  writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta));
  process.stderr.write(`shard ${shard}: ${metas.length} conversations, ${(offset / 360000).toFixed(2)} h in ${dir}\n`);
}

if (import.meta.main) await main();
