// How well the window speaker embedding (packages/analysis/src/speech/diarization/window-embedding.ts) tells
// voices apart on a dataset with reference labels, without the diarization around it:
//   node eval/embedding-eer.ts --dataset DIR [--model FILE.json] [--win 150]
// - the equal error rate of a cosine threshold between two windows of one file (windows that
//   one reference speaker fills, hop half a window): same voice against different voices;
// - per file, the distance between each pair of speakers' mean embeddings (embeddingDistance,
//   in units of one voice's spread: two halves of one voice give about 0.3-1.6), and the
//   smallest such distance, which is what a merge veto or a reassignment check has to work with.
// --model reads a projection written by training/train-speaker-lda.ts --out x.json; the default
// is the one the engine ships.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { analyzeFrames } from '../packages/analysis/src/speech/features.ts';
import { detectSpeech, regionsToMask } from '../packages/analysis/src/speech/vad.ts';
import { modellingMask, standardisedCepstra } from '../packages/analysis/src/speech/diarization/speaker-frames.ts';
import { embeddingDistance, parseEmbeddingModel, rangeEmbedder, type EmbeddingSum, type WindowEmbeddingModel } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { cosineSimilarity } from '../packages/analysis/src/speech/stats.ts';
import { SPEAKER_LDA } from '../packages/analysis/src/speech/diarization/speaker-lda.model.ts';
import { readManifest, readRttm } from './dataset.ts';
import { equalErrorRate } from './eer.ts';

const { values } = parseArgs({ options: { dataset: { type: 'string' }, model: { type: 'string' }, win: { type: 'string' } } });
if (!values.dataset) {
  console.error('usage: node eval/embedding-eer.ts --dataset DIR [--model FILE.json] [--win FRAMES]');
  process.exit(2);
}
const emb: WindowEmbeddingModel = values.model ? parseEmbeddingModel(JSON.parse(readFileSync(values.model, 'utf8'))) : SPEAKER_LDA;
const win = Number(values.win ?? emb.windowFrames);
const dims = 20;

interface Window {
  speaker: string;
  v: Float64Array;
}

const same: number[] = [];
const diff: number[] = [];
const closest: { file: string; pair: string; d: number }[] = [];
for (const file of readManifest(values.dataset).files) {
  const x = await decodeAudioToArray(join(values.dataset, file.wav));
  const f = analyzeFrames(x);
  const model = modellingMask(f, regionsToMask(detectSpeech(f), f.frames));
  const cep = standardisedCepstra(f, model);
  const embedder = rangeEmbedder(emb, cep, dims, model)!;
  const owner: (string | null)[] = new Array<string | null>(f.frames).fill(null);
  for (const s of readRttm(join(values.dataset, file.rttm))) {
    for (let i = Math.floor(s.start * 100); i < Math.min(f.frames, Math.ceil(s.end * 100)); i++) owner[i] = owner[i] === null || owner[i] === s.speaker ? s.speaker : '*overlap*';
  }
  const windows: Window[] = [];
  for (let w = 0; w + win <= f.frames; w += win >> 1) {
    const o = owner[w];
    if (!o || o === '*overlap*') continue;
    let pure = true;
    for (let i = w; i < w + win && pure; i++) if (model[i] && owner[i] !== o) pure = false;
    const v = pure ? embedder.embed(w, w + win) : null;
    if (v) windows.push({ speaker: o, v });
  }
  for (let a = 0; a < windows.length; a++)
    for (let b = a + 1; b < windows.length; b++) (windows[a]!.speaker === windows[b]!.speaker ? same : diff).push(cosineSimilarity(windows[a]!.v, windows[b]!.v));
  const sums = new Map<string, EmbeddingSum>();
  for (const w of windows) {
    const s = sums.get(w.speaker) ?? { sum: new Float64Array(w.v.length), n: 0 };
    for (let d = 0; d < w.v.length; d++) s.sum[d] = s.sum[d]! + w.v[d]!;
    s.n++;
    sums.set(w.speaker, s);
  }
  const names = [...sums.keys()].sort();
  const pairs: string[] = [];
  for (let a = 0; a < names.length; a++)
    for (let b = a + 1; b < names.length; b++) {
      const d = embeddingDistance(sums.get(names[a]!)!, sums.get(names[b]!)!);
      if (d === null) continue;
      pairs.push(`${names[a]} ~ ${names[b]}: ${d.toFixed(1)}`);
      closest.push({ file: file.name, pair: `${names[a]} ~ ${names[b]}`, d });
    }
  console.log(`${file.name}: ${windows.length} windows; ${pairs.join('; ') || 'one speaker'}`);
}
closest.sort((a, b) => a.d - b.d);
console.log(`\nwindow pairs: ${same.length} same voice, ${diff.length} different; equal error rate ${(100 * equalErrorRate(same, diff)).toFixed(1)} %`);
console.log(`closest different-voice pairs: ${closest.slice(0, 6).map((c) => `${c.file} ${c.pair} ${c.d.toFixed(1)}`).join('; ')}`);
console.log(`different-voice pairs above 6: ${closest.filter((c) => c.d > 6).length} of ${closest.length}`);
