// Puts two window embeddings side by side (window-embedding.ts, FusedEmbeddingModel) and measures
// their joint speaker space on the windows of exported sessions, as train-lda-export.ts does for
// the LDA alone, so that VBx reads the fused embedding as it reads the LDA:
//   node training/fuse-embeddings.ts --data EXPORT_DIR --lda LDA.json --net NET.json --out FILE.json [--exclude-fold K] [--weight 0.5,0.7,1] [--every 3]
// (one file per weight: --out holds {w})
// A window is 150 frames of a session (hop 75) whose modelled frames all belong to one class,
// in every --every-th session.
import { parseArgs } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEmbeddingModel, rangeEmbedder, type FusedEmbeddingModel, type LdaEmbeddingModel } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import type { SpeakerNet } from '../packages/analysis/src/speech/diarization/speaker-net.ts';
import type { SpeakerSpace } from '../packages/analysis/src/speech/diarization/clustering.ts';

const { values } = parseArgs({ options: { data: { type: 'string' }, lda: { type: 'string' }, net: { type: 'string' }, out: { type: 'string' }, 'exclude-fold': { type: 'string', default: '-1' }, weight: { type: 'string', default: '1' }, every: { type: 'string', default: '3' } } });
if (!values.data || !values.lda || !values.net || !values.out) throw new Error('usage: node training/fuse-embeddings.ts --data EXPORT_DIR --lda LDA.json --net NET.json --out FILE.json [--exclude-fold K] [--weight 1]');
const ldaJson = JSON.parse(readFileSync(values.lda, 'utf8')) as unknown;
const netJson = JSON.parse(readFileSync(values.net, 'utf8')) as unknown;
const parts: [{ model: LdaEmbeddingModel; weight: number }, { model: SpeakerNet; weight: number }] = [
  { model: parseEmbeddingModel(ldaJson) as LdaEmbeddingModel, weight: 1 },
  { model: parseEmbeddingModel(netJson) as SpeakerNet, weight: 1 },
];
const fused: FusedEmbeddingModel = { kind: 'fused', name: `fused(${parts.map((p) => p.model.name).join(', ')})`, windowFrames: 150, parts };
const meta = JSON.parse(readFileSync(join(values.data, 'meta.json'), 'utf8')) as { dims: number; folds: number };
const read = (name: string): Buffer => readFileSync(join(values.data!, name));
const view = <T>(b: Buffer, C: new (buf: ArrayBufferLike, off: number, len: number) => T, size: number): T => new C(b.buffer, b.byteOffset, b.byteLength / size);
const cep = view(read('cep.f32'), Float32Array, 4);
const cls = view(read('cls.i16'), Int16Array, 2);
const frame = view(read('frame.i32'), Int32Array, 4);
const session = view(read('session.i32'), Int32Array, 4);
const D = meta.dims;
const WIN = 150;
const excluded = Number(values['exclude-fold']);
const every = Number(values.every);
const vectors: Float64Array[] = [];
const labels: number[] = [];
for (let a = 0; a < session.length; ) {
  let b = a;
  while (b < session.length && session[b] === session[a]) b++;
  const s = session[a]!;
  if ((excluded < 0 || s % meta.folds !== excluded) && Math.floor(s / meta.folds) % every === 0) {
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
    const emb = rangeEmbedder(fused, grid, D, model)!;
    for (let w = 0; w + WIN <= frames; w += WIN >> 1) {
      let o = -1;
      let mixed = false;
      for (let t = w; t < w + WIN && !mixed; t++) {
        if (!model[t]) continue;
        if (o < 0) o = owner[t]!;
        else if (owner[t] !== o) mixed = true;
      }
      if (o < 0 || mixed) continue;
      const v = emb.embed(w, w + WIN);
      if (!v) continue;
      vectors.push(v);
      labels.push(o);
    }
  }
  a = b;
}
const space = speakerSpace(vectors, labels);
// The net's part of the space scales with the square of its weight: one measurement serves every weight.
const L = parts[0]!.model.rows.length;
for (const w of values.weight.split(',').map(Number)) {
  const scale = (x: number, d: number): number => (d < L ? x : x * w * w);
  const out = values.out.replace('{w}', String(w));
  writeFileSync(out, JSON.stringify({ name: fused.name, parts: [{ model: ldaJson, weight: 1 }, { model: netJson, weight: w }], space: { within: space.within.map(scale), between: space.between.map(scale) } }));
  console.error(`wrote ${out}`);
}
console.error(`wrote ${values.out}: ${vectors.length} windows, ${new Set(labels).size} classes, ${vectors[0]?.length} dims`);

/** Per dimension: the variance of the voices' means and the mean variance within a voice. */
function speakerSpace(vs: Float64Array[], ls: number[]): SpeakerSpace {
  const K = vs[0]!.length;
  const by = new Map<number, Float64Array[]>();
  vs.forEach((v, i) => by.set(ls[i]!, [...(by.get(ls[i]!) ?? []), v]));
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
