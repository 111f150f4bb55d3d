// Trains the window speaker embedding's LDA (packages/analysis/src/speech/window-embedding.ts)
// on the corpus that training/speaker-data.sh builds from Debian packages (real recorded voices,
// none of them in the dev set):
//   node training/train-speaker-lda.ts --data /work/spk-train \
//     --out packages/analysis/src/speech/speaker-lda.model.ts --sessions 200
// Each training "session" is what the engine sees in a recording: two to four speakers' clips
// joined into one signal, each speaker through its own random channel (band limits, an EQ bump,
// level, sometimes noise), analysed exactly as analyze.ts does (VAD, modelling frames,
// cepstra standardised over the session). Windows of 1.5 s (hop 0.75 s) that one speaker fills
// are the LDA's samples; a speaker's windows from many sessions (so many channels and contexts)
// are its class.
import { parseArgs } from 'node:util';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { analyzeFrames } from '../packages/analysis/src/speech/features.ts';
import { detectSpeech, regionsToMask } from '../packages/analysis/src/speech/vad.ts';
import { modellingMask, standardisedCepstra } from '../packages/analysis/src/speech/speaker-frames.ts';
import { windowStats } from '../packages/analysis/src/speech/window-embedding.ts';
import { fitLda } from '../packages/analysis/src/speech/lda.ts';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    out: { type: 'string' },
    sessions: { type: 'string' },
    keep: { type: 'string' },
    augment: { type: 'string' },
    seed: { type: 'string' },
    exclude: { type: 'string' },
    win: { type: 'string' },
  },
});
if (!values.data || !values.out) {
  console.error('usage: node training/train-speaker-lda.ts --data DIR --out FILE(.ts|.json) [--sessions 200] [--keep 24] [--seed 1] [--augment 0|1] [--win 150] [--exclude id,id]');
  process.exit(2);
}
const SR = 16000;
const rand = seededRandom(Number(values.seed ?? 1));
const augment = values.augment !== '0';
const exclude = new Set((values.exclude ?? '').split(',').filter(Boolean));
interface Speaker {
  id: string;
  files: string[];
}
const speakers: Speaker[] = (JSON.parse(readFileSync(join(values.data, 'speakers.json'), 'utf8')) as { id: string }[])
  .filter((s) => !exclude.has(s.id))
  .map((s) => ({ id: s.id, files: readdirSync(join(values.data!, s.id)).filter((n) => n.endsWith('.wav')).sort().map((n) => join(values.data!, s.id, n)) }))
  .filter((s) => s.files.length > 0);
console.error(`${speakers.length} speakers`);

/** A second-order filter (RBJ cookbook low-pass, high-pass or peaking EQ), applied in place. */
function biquad(x: Float32Array, kind: 'lp' | 'hp' | 'peak', f0: number, q: number, gainDb = 0): void {
  const w = (2 * Math.PI * f0) / SR;
  const cw = Math.cos(w);
  const alpha = Math.sin(w) / (2 * q);
  const amp = 10 ** (gainDb / 40);
  const [b0, b1, b2, a0, a1, a2] =
    kind === 'lp'
      ? [(1 - cw) / 2, 1 - cw, (1 - cw) / 2, 1 + alpha, -2 * cw, 1 - alpha]
      : kind === 'hp'
        ? [(1 + cw) / 2, -(1 + cw), (1 + cw) / 2, 1 + alpha, -2 * cw, 1 - alpha]
        : [1 + alpha * amp, -2 * cw, 1 - alpha * amp, 1 + alpha / amp, -2 * cw, 1 - alpha / amp];
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const y = (b0 * x[i]! + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2) / a0;
    x2 = x1;
    x1 = x[i]!;
    y2 = y1;
    y1 = y;
    x[i] = y;
  }
}

/** A random channel for one voice in one session: band limits, an EQ bump, a level change. */
function channel(x: Float32Array): void {
  if (!augment) return;
  if (rand() < 0.5) biquad(x, 'hp', 80 + rand() * 320, 0.707);
  if (rand() < 0.5) {
    // Two poles more: a steeper band edge, as a telephone or radio channel has.
    biquad(x, 'lp', 3000 + rand() * 4000, 0.707);
    biquad(x, 'lp', 3000 + rand() * 4000, 0.707);
  }
  if (rand() < 0.7) biquad(x, 'peak', 300 * 2 ** (rand() * 4), 1, (rand() * 2 - 1) * 8);
  const gain = 10 ** (((rand() * 2 - 1) * 8) / 20);
  for (let i = 0; i < x.length; i++) x[i] = x[i]! * gain;
}

const sessions = Number(values.sessions ?? 200);
const WIN = Number(values.win ?? 150);
const vectors: Float64Array[] = [];
const labels: number[] = [];
const clipCache = new Map<string, Float32Array>();
/** A clip at 16 kHz mono, decoded once (sessions draw the same clips again and again). */
const clip = async (path: string): Promise<Float32Array> => {
  let c = clipCache.get(path);
  if (!c) {
    c = await decodeAudioToArray(path);
    clipCache.set(path, c);
  }
  return c;
};
for (let s = 0; s < sessions; s++) {
  const k = 2 + Math.floor(rand() * 3);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(k, speakers.length)) chosen.add(Math.floor(rand() * speakers.length));
  const blocks: { spk: number; x: Float32Array }[] = [];
  for (const si of chosen) {
    const sp = speakers[si]!;
    const target = (10 + rand() * 30) * SR;
    const parts: Float32Array[] = [];
    let n = 0;
    let guard = 0;
    while (n < target && guard++ < 400) {
      const c = await clip(sp.files[Math.floor(rand() * sp.files.length)]!);
      parts.push(c, new Float32Array(Math.round(SR * (0.05 + rand() * 0.3))));
      n += c.length;
    }
    const x = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
    let at = 0;
    for (const p of parts) {
      x.set(p, at);
      at += p.length;
    }
    channel(x);
    blocks.push({ spk: si, x });
  }
  const total = blocks.reduce((a, b) => a + b.x.length, 0) + SR * blocks.length;
  const sig = new Float32Array(total);
  const owner = new Int16Array(Math.ceil(total / 160) + 1).fill(-1);
  let at = 0;
  for (const b of blocks) {
    sig.set(b.x, at);
    owner.fill(b.spk, Math.floor(at / 160), Math.floor((at + b.x.length) / 160));
    at += b.x.length + SR;
  }
  // Sometimes a noise floor under the whole session (-50 to -35 dBFS).
  if (augment && rand() < 0.3) {
    const amp = 10 ** ((-50 + rand() * 15) / 20);
    for (let i = 0; i < sig.length; i++) sig[i] = sig[i]! + amp * (rand() * 2 - 1);
  }
  const f = analyzeFrames(sig);
  const mask = regionsToMask(detectSpeech(f), f.frames);
  const model = modellingMask(f, mask, true);
  const cep = standardisedCepstra(f, model, true);
  for (let w = 0; w + WIN <= f.frames; w += WIN >> 1) {
    const o = owner[w]!;
    if (o < 0 || owner[w + WIN - 1] !== o) continue;
    const v = windowStats(cep, 20, model, w, w + WIN);
    if (!v) continue;
    vectors.push(v);
    labels.push(o);
  }
  if (s % 50 === 0) console.error(`session ${s}: ${vectors.length} windows`);
}
const keep = Number(values.keep ?? 24);
const lda = fitLda(vectors, labels, keep);
const model = {
  name: 'window-stats-lda-v1',
  windowFrames: WIN,
  mean: lda.mean.map((x) => +x.toPrecision(6)),
  rows: lda.rows.map((r) => r.map((x) => +x.toPrecision(6))),
};
const trained = `${speakers.length} voices (${speakers.map((s) => s.id).join(', ')}); ${sessions} sessions, ${vectors.length} windows, seed ${values.seed ?? 1}, channel augmentation ${augment ? 'on' : 'off'}`;
writeFileSync(
  values.out,
  values.out.endsWith('.ts')
    ? `// Generated by training/train-speaker-lda.ts (see training/README.md); do not edit.\n// Trained on ${trained}.\nimport type { WindowEmbeddingModel } from './window-embedding.ts';\n\nexport const SPEAKER_LDA: WindowEmbeddingModel = ${JSON.stringify(model)};\n`
    : JSON.stringify({ ...model, trained }),
);
console.error(`wrote ${values.out}: ${vectors.length} windows, ${new Set(labels).size} speakers, ${keep} dims`);
