// Speaker verification on unheard voices: how well the window speaker embedding tells one
// person from another, fold by fold, on the voices of the real-voice corpus that the fold's
// model never heard (eval/validation-corpus.ts: foldOf).
//
//   node eval/window-eer.ts --corpus /work/rv-corpus [--models DIR [--model-name fold-{k}.json]] [--folds 3] [--group 4] [--same-corpus]
//                           [--mismatch telephone,room] [--min-speaker-sec 20] [--max-speaker-sec 60] [--windows 150,300] [--json OUT]
//
// For each fold K (with DIR/fold-K.json when --models is given, which parseEmbeddingModel reads,
// or DIR/fold-K.onnx with --model-name fold-{k}.onnx, a deployment's own network and its description;
// without it the shipped DEFAULT_EMBEDDING for every fold, which no corpus voice trained): each
// of the fold's speakers with at least --min-speaker-sec of audio has their files joined in
// order (up to --max-speaker-sec), and --group such speakers, 1 s apart, make one recording,
// analysed as the engine analyses a recording (analyzeFrames, VAD, modelling mask, cepstra
// standardised over the recording, as training/sessions.ts does). Windows of 150 and 300 frames
// (1.5 and 3 s), hop half a window, inside one source file, with at least a third of their frames
// modelled, at most 30 per speaker, are embedded. Same-speaker trials pair windows of different
// source files (window-trials.ts); different-speaker trials pair two speakers of one recording
// (--group 1: any two speakers). The equal error rate of the cosine score (eval/eer.ts) is given
// per fold, with the mean and the worst fold.
//
// Why several speakers to a recording by default: the cepstra are standardised over the
// recording, so in a recording of one voice every window is centred on that voice's own mean,
// and the window statistics the LDA reads lose what sets the voice apart. With --group 1 the
// shipped model reads 51 % EER, chance (2026-11-28); in a recording of several voices, as in
// diarization, the mean of the voices is removed instead and each keeps its offset from it.
//
// Channel mismatch: the same recordings through a GSM telephone codec (8 kHz, 300-3,400 Hz) or
// a real room (one of the corpus's _rir responses), analysed as recordings of their own; every
// trial then pairs a clean window with a window through the channel.
import { parseArgs } from 'node:util';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { analyzeFrames } from '../packages/analysis/src/speech/features.ts';
import { detectSpeech, regionsToMask } from '../packages/analysis/src/speech/vad.ts';
import { modellingMask, standardisedCepstra } from '../packages/analysis/src/speech/diarization/speaker-frames.ts';
import { parseEmbeddingModel, rangeEmbedder, type WindowEmbeddingModel } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { DEFAULT_EMBEDDING } from '../packages/analysis/src/speech/diarization/default-embedding.ts';
import { loadOnnxEmbedding } from '../packages/analysis/src/speech/diarization/onnx-embedding.ts';
import { FbankAnalyzer } from '../packages/analysis/src/speech/fbank.ts';
import { cosineSimilarity } from '../packages/analysis/src/speech/stats.ts';
import { throughSox } from '../training/sessions.ts';
import { loadAugmentation, reverberate } from '../training/augment.ts';
import { foldOf, loadCorpusIndex } from './validation-corpus.ts';
import { equalErrorRate } from './eer.ts';
import { sampleTrials, speakerWindows, type Piece, type WindowRef } from './window-trials.ts';

const SR = 16000;
const HOP = 160;
const DIMS = 20;

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    models: { type: 'string' },
    'model-name': { type: 'string', default: 'fold-{k}.json' },
    folds: { type: 'string', default: '3' },
    mismatch: { type: 'string', default: 'telephone,room' },
    group: { type: 'string', default: '4' },
    'same-corpus': { type: 'boolean', default: false },
    'min-speaker-sec': { type: 'string', default: '20' },
    'max-speaker-sec': { type: 'string', default: '60' },
    'min-modelled': { type: 'string', default: '0.33' },
    'windows-per-speaker': { type: 'string', default: '30' },
    'same-per-speaker': { type: 'string', default: '30' },
    different: { type: 'string', default: '6000' },
    seed: { type: 'string', default: 'rapport-eer-v1' },
    json: { type: 'string' },
    // Window lengths in frames (10 ms); longer ones tell how much speech a voice needs to be judged.
    windows: { type: 'string', default: '150,300' },
  },
});
const WINDOWS = values.windows!.split(',').map(Number);
if (!values.corpus) {
  console.error('usage: node eval/window-eer.ts --corpus DIR [--models DIR] [--folds 3] [--mismatch telephone,room] [--json OUT]');
  process.exit(2);
}
const corpus = values.corpus;
const folds = Number(values.folds);
const channels = values.mismatch!.split(',').filter((c) => c === 'telephone' || c === 'room');
const minSec = Number(values['min-speaker-sec']);
const maxSec = Number(values['max-speaker-sec']);
const minModelled = Number(values['min-modelled']);
const cap = Number(values['windows-per-speaker']);
const group = Math.max(1, Number(values.group));
const rooms = channels.includes('room') ? (await loadAugmentation(corpus)).rirs : [];
if (channels.includes('room') && rooms.length === 0) console.error(`no ${corpus}/_rir: the room variant is left out`);
const conditions = ['clean', ...channels.filter((c) => c !== 'room' || rooms.length > 0)];

/** A speaker's files joined into one recording (0.3 s of silence between), and where each file lies in frames. */
async function joinedRecording(id: string): Promise<{ x: Float32Array; pieces: Piece[]; files: number } | null> {
  const names = readdirSync(join(corpus, id)).filter((n) => n.endsWith('.wav')).sort();
  const parts: Float32Array[] = [];
  let total = 0;
  for (const n of names) {
    if (total >= maxSec * SR) break;
    const x = await decodeAudioToArray(join(corpus, id, n));
    parts.push(x);
    total += x.length + 0.3 * SR;
  }
  if (total < minSec * SR) return null;
  const x = new Float32Array(total);
  const pieces: Piece[] = [];
  let at = 0;
  parts.forEach((p, file) => {
    x.set(p, at);
    pieces.push({ file, start: Math.ceil(at / HOP), end: Math.floor((at + p.length) / HOP) });
    at += p.length + 0.3 * SR;
  });
  return { x, pieces, files: parts.length };
}

/** The recording analysed as analyze.ts does, bound to the model: the embedding of any frame range. */
function embedderFor(emb: WindowEmbeddingModel, x: Float32Array): { model: Uint8Array; embed: (s: number, e: number) => Float64Array | null } {
  const f = analyzeFrames(x);
  const regions = detectSpeech(f);
  const speech = regionsToMask(regions, f.frames);
  const model = modellingMask(f, speech);
  const cep = standardisedCepstra(f, model);
  let fbank = null;
  if (emb.kind === 'onnx' && emb.fbank) {
    const a = new FbankAnalyzer(emb.fbank, x.length);
    a.push(x);
    fbank = a.finish();
  }
  const bound = rangeEmbedder(emb, cep, DIMS, model, { speech, fbank, regions });
  if (!bound) throw new Error(`the model ${emb.name} does not read ${DIMS}-dimensional features`);
  return { model, embed: (s, e) => bound.embed(s, e) };
}

interface Embedded {
  refs: WindowRef[];
  vecs: Float64Array[];
}

interface Cell {
  eer: number;
  same: number;
  different: number;
}

interface FoldRow {
  fold: number;
  model: string;
  speakers: number;
  cells: Record<string, Cell>;
}

const key = (condition: string, win: number): string => `${condition}@${win}`;

async function runFold(k: number, emb: WindowEmbeddingModel): Promise<FoldRow> {
  const rand = seededRandom(createHash('sha256').update(`${values.seed}/${k}`).digest().readUInt32LE(0));
  const speakers = loadCorpusIndex(corpus)
    .filter((v) => foldOf(v.id, folds) === k && (v.seconds === null || v.seconds >= minSec))
    .sort((a, b) => a.id.localeCompare(b.id));
  // Per condition and window length: every speaker's windows and their embeddings.
  const got = new Map<string, Embedded>();
  for (const c of conditions) for (const w of WINDOWS) got.set(key(c, w), { refs: [], vecs: [] });
  const files: number[] = [];
  let used = 0;
  // Speakers in a seeded order, `group` to a recording; with --same-corpus only speakers of one
  // source corpus share a recording, so that a different-speaker trial cannot lean on the corpus's
  // microphones and language.
  const order = speakers.map((_, j) => j);
  for (let i = order.length - 1; i > 0; i--) {
    const r = Math.floor(rand() * (i + 1));
    [order[i], order[r]] = [order[r]!, order[i]!];
  }
  const buckets = new Map<string, number[]>();
  for (const j of order) {
    const b = values['same-corpus'] ? speakers[j]!.package : '';
    buckets.set(b, [...(buckets.get(b) ?? []), j]);
  }
  const recordings = [...buckets.keys()].sort().flatMap((b) => {
    const js = buckets.get(b)!;
    return Array.from({ length: Math.ceil(js.length / group) }, (_, g) => js.slice(g * group, (g + 1) * group));
  });
  for (const [g, inRecording] of recordings.entries()) {
    const members: { j: number; x: Float32Array; pieces: Piece[] }[] = [];
    for (const j of inRecording) {
      const rec = await joinedRecording(speakers[j]!.id);
      files[j] = rec?.files ?? 0;
      if (rec) members.push({ j, ...rec });
    }
    if (members.length === 0) continue;
    used += members.length;
    // The members one after another, 1 s apart, as training/sessions.ts joins a session's voices.
    // Each block padded to whole frames, so that a member's frames are its own frames shifted.
    const block = (m: { x: Float32Array }): number => Math.ceil((m.x.length + SR) / HOP) * HOP;
    const x = new Float32Array(members.reduce((a, m) => a + block(m), 0));
    let at = 0;
    const placed = members.map((m) => {
      x.set(m.x, at);
      const off = at / HOP;
      at += block(m);
      return { j: m.j, pieces: m.pieces.map((p) => ({ file: p.file, start: p.start + off, end: p.end + off })) };
    });
    for (const c of conditions) {
      const y = c === 'telephone' ? throughSox(x, ['-t', 'gsm', '-r', '8000'], ['sinc', '300-3400', 'rate', '8000']) : c === 'room' ? reverberate(x, rooms[Math.floor(rand() * rooms.length)]!.x) : x;
      const e = embedderFor(emb, y);
      for (const w of WINDOWS) {
        const out = got.get(key(c, w))!;
        for (const m of placed)
          for (const ref of speakerWindows(m.j, g, m.pieces, e.model, w, Math.ceil(minModelled * w), cap)) {
            const v = e.embed(ref.start, ref.end);
            if (!v) continue;
            out.refs.push(ref);
            out.vecs.push(v);
          }
      }
    }
    process.stderr.write(`fold ${k}: ${used} speakers analysed\r`);
  }
  process.stderr.write('\n');
  const cells: Record<string, Cell> = {};
  for (const c of conditions)
    for (const w of WINDOWS) {
      const left = got.get(key('clean', w))!;
      const right = got.get(key(c, w))!;
      const t = sampleTrials(left.refs, right.refs, (s) => files[s] ?? 0, Number(values['same-per-speaker']), Number(values.different), group > 1, rand);
      const score = ([i, j]: [number, number]): number => cosineSimilarity(left.vecs[i]!, right.vecs[j]!);
      cells[key(c, w)] = { eer: equalErrorRate(t.same.map(score), t.different.map(score)), same: t.same.length, different: t.different.length };
    }
  return { fold: k, model: emb.name, speakers: used, cells };
}

const rows: FoldRow[] = [];
for (let k = 0; k < folds; k++) {
  let emb: WindowEmbeddingModel = DEFAULT_EMBEDDING;
  if (values.models) {
    const path = join(values.models, values['model-name']!.replace('{k}', String(k)));
    if (!existsSync(path)) {
      console.error(`fold ${k}: no ${path}, skipped`);
      continue;
    }
    emb = path.endsWith('.onnx') ? loadOnnxEmbedding(path) : parseEmbeddingModel(JSON.parse(readFileSync(path, 'utf8')));
  }
  rows.push(await runFold(k, emb));
}

const label = (c: string, w: number): string => `${(w / 100).toFixed(1)} s ${c === 'clean' ? 'matched' : `clean vs ${c}`}`;
const cols = conditions.flatMap((c) => WINDOWS.map((w) => ({ c, w })));
const pct = (x: number): string => (Number.isNaN(x) ? '-' : (100 * x).toFixed(1));
const lines = [`| fold | model | speakers | ${cols.map(({ c, w }) => `${label(c, w)} EER %`).join(' | ')} |`, `|---|---|---|${cols.map(() => '---').join('|')}|`];
for (const r of rows) lines.push(`| fold-${r.fold} | ${r.model} | ${r.speakers} | ${cols.map(({ c, w }) => pct(r.cells[key(c, w)]!.eer)).join(' | ')} |`);
const stat = (f: (xs: number[]) => number): string => cols.map(({ c, w }) => pct(f(rows.map((r) => r.cells[key(c, w)]!.eer).filter((x) => !Number.isNaN(x))))).join(' | ');
lines.push(`| **mean** | | ${rows.reduce((a, r) => a + r.speakers, 0)} | ${stat((xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN))} |`);
lines.push(`| worst fold | | | ${stat((xs) => (xs.length ? Math.max(...xs) : NaN))} |`);
console.log(lines.join('\n'));
console.log(`\ntrials (same / different speaker) per fold: ${rows.map((r) => `fold-${r.fold} ${cols.map(({ c, w }) => `${r.cells[key(c, w)]!.same}/${r.cells[key(c, w)]!.different}`).join(', ')}`).join('; ')}`);
if (values.json) writeFileSync(values.json, JSON.stringify({ corpus, models: values.models ?? 'default', conditions, windows: WINDOWS, rows }, null, 1));
