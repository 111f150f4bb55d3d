// Trains the window embedding's LDA (as train-speaker-lda.ts does) from sessions already exported
// for the network (export-sessions.ts), so that both models learn from the same simulated
// sessions of the same voices, and a fold's LDA from the other folds' sessions only:
//   node training/train-lda-export.ts --data EXPORT_DIR --out FILE(.ts|.json) [--exclude-fold K] [--keep 24] [--win 150] [--shrink 0.05]
// A window is WIN frames of a session (hop WIN / 2) whose modelled frames all belong to one
// class (a voice at one speed); its 40 numbers are windowStats of those frames, as the engine
// computes them (at least 10 modelled frames).
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { windowStats } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { fitLda, project, type LinearProjection } from '../packages/analysis/src/speech/diarization/lda.ts';
import { writeLdaModel } from './lda-model-file.ts';
import type { SpeakerSpace } from '../packages/analysis/src/speech/diarization/clustering.ts';

const { values } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' }, 'exclude-fold': { type: 'string', default: '-1' }, keep: { type: 'string', default: '24' }, win: { type: 'string', default: '150' }, shrink: { type: 'string', default: '0.05' } } });
if (!values.data || !values.out) {
  console.error('usage: node training/train-lda-export.ts --data EXPORT_DIR --out FILE(.ts|.json) [--exclude-fold K] [--keep 24] [--win 150] [--shrink 0.05]');
  process.exit(2);
}
const meta = JSON.parse(readFileSync(join(values.data, 'meta.json'), 'utf8')) as { dims: number; folds: number; voices: string[]; voiceFolds: number[]; speeds: number[]; sessions: number };
const read = (name: string): Buffer => readFileSync(join(values.data!, name));
const asF32 = (b: Buffer): Float32Array => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
const cep = asF32(read('cep.f32'));
const clsBuf = read('cls.i16');
const cls = new Int16Array(clsBuf.buffer, clsBuf.byteOffset, clsBuf.byteLength / 2);
const frameBuf = read('frame.i32');
const frame = new Int32Array(frameBuf.buffer, frameBuf.byteOffset, frameBuf.byteLength / 4);
const sessBuf = read('session.i32');
const session = new Int32Array(sessBuf.buffer, sessBuf.byteOffset, sessBuf.byteLength / 4);
const D = meta.dims;
const WIN = Number(values.win);
const excluded = Number(values['exclude-fold']);

const vectors: Float64Array[] = [];
const labels: number[] = [];
// One session at a time: its modelled frames laid back on the session's own frame grid.
for (let a = 0; a < session.length; ) {
  let b = a;
  while (b < session.length && session[b] === session[a]) b++;
  const s = session[a]!;
  if (excluded < 0 || s % meta.folds !== excluded) {
    const frames = frame[b - 1]! + 1;
    const grid = new Float32Array(frames * D);
    const model = new Uint8Array(frames);
    const owner = new Int16Array(frames).fill(-1);
    for (let i = a; i < b; i++) {
      const t = frame[i]!;
      grid.set(cep.subarray(i * D, (i + 1) * D), t * D);
      model[t] = 1;
      owner[t] = cls[i]!;
    }
    for (let w = 0; w + WIN <= frames; w += WIN >> 1) {
      let o = -1;
      let mixed = false;
      for (let t = w; t < w + WIN && !mixed; t++) {
        if (!model[t]) continue;
        if (o < 0) o = owner[t]!;
        else if (owner[t] !== o) mixed = true;
      }
      if (o < 0 || mixed) continue;
      const v = windowStats(grid, D, model, w, w + WIN);
      if (!v) continue;
      vectors.push(v);
      labels.push(o);
    }
  }
  a = b;
}
const keep = Number(values.keep);
const lda = fitLda(vectors, labels, keep, Number(values.shrink));
const voices = meta.voices.filter((_, i) => excluded < 0 || meta.voiceFolds[i] !== excluded);
const trained = `${voices.length} real voices x ${meta.speeds.length} speeds (the sessions of training/train-real-voices.sh, ${excluded < 0 ? 'all of them' : `those of the other folds than ${excluded}`}), ${vectors.length} windows of ${new Set(labels).size} classes`;
writeLdaModel(values.out, 'window-stats-lda-v2', WIN, lda, trained, 'training/train-lda-export.ts', speakerSpace(lda, vectors, labels));
console.error(`wrote ${values.out}: ${vectors.length} windows, ${new Set(labels).size} classes, ${keep} dims`);

/** Per output dimension: the variance of the voices' means and the mean variance within a voice. */
function speakerSpace(p: LinearProjection, vs: Float64Array[], ls: number[]): SpeakerSpace {
  const K = p.rows.length;
  const by = new Map<number, Float64Array[]>();
  vs.forEach((v, i) => {
    const list = by.get(ls[i]!) ?? [];
    list.push(project(p, v));
    by.set(ls[i]!, list);
  });
  const within = new Array<number>(K).fill(0);
  const means: Float64Array[] = [];
  let n = 0;
  for (const list of by.values()) {
    const m = new Float64Array(K);
    for (const e of list) for (let d = 0; d < K; d++) m[d] = m[d]! + e[d]! / list.length;
    for (const e of list) for (let d = 0; d < K; d++) within[d] = within[d]! + (e[d]! - m[d]!) ** 2;
    n += list.length;
    means.push(m);
  }
  const grand = new Float64Array(K);
  for (const m of means) for (let d = 0; d < K; d++) grand[d] = grand[d]! + m[d]! / means.length;
  const between = new Array<number>(K).fill(0);
  for (const m of means) for (let d = 0; d < K; d++) between[d] = between[d]! + (m[d]! - grand[d]!) ** 2 / (means.length - 1);
  return { within: within.map((x) => x / (n - means.length)), between };
}
