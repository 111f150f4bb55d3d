// Compares voiceprint variants for cross-recording identity on a dev folder:
//   node eval/compare-voiceprints.ts --dataset DIR
// The engine runs once per file with an extractor that returns every candidate statistic; each
// variant is a weighted subset of them. For each variant: AUC of same- vs different-voice pairs
// of appearances in different files, identity P/R/F1 with centre, scale and threshold fitted on
// the whole set, and a half-split check (fit on files 1-6, score 7-12, and the reverse).
import { parseArgs } from 'node:util';
import { NUM_CEPS, type FrameFeatures } from '../packages/analysis/src/speech/features.ts';
import { hzToSemitones } from '../packages/analysis/src/speech/pitch.ts';
import { cosineSimilarity, quantile } from '../packages/analysis/src/speech/stats.ts';
import type { VoiceprintExtractor } from '../packages/analysis/src/speech/voiceprint.ts';
import { readManifest } from './dataset.ts';
import { evaluateFile, linkAcrossFiles } from './run.ts';
import { pairwiseIdentity } from './identity.ts';

const C = NUM_CEPS - 1;
// Layout of the full statistic vector.
const B = { mean: 0, sd: C, cmn: 2 * C, pitch: 3 * C, dsd: 3 * C + 3, level: 3 * C + 3 + C } as const;
const FULL = 4 * C + 3 + 2;

function fullStats(f: FrameFeatures, track: Int16Array, speaker: number): number[] {
  const sum = new Float64Array(C);
  const sq = new Float64Array(C);
  const rec = new Float64Array(C);
  const dsq = new Float64Array(C);
  let n = 0;
  let nRec = 0;
  let nd = 0;
  const st: number[] = [];
  const per: number[] = [];
  const cep = (i: number, d: number): number => f.mfcc[i * NUM_CEPS + d + 1]!;
  for (let i = 0; i < f.frames; i++) {
    if (track[i]! < 0 || !(f.pitchHz[i]! > 0)) continue;
    nRec++;
    for (let d = 0; d < C; d++) rec[d] = rec[d]! + cep(i, d);
    if (track[i] !== speaker) continue;
    n++;
    st.push(hzToSemitones(f.pitchHz[i]!));
    per.push(f.periodicity[i]!);
    for (let d = 0; d < C; d++) {
      sum[d] = sum[d]! + cep(i, d);
      sq[d] = sq[d]! + cep(i, d) ** 2;
    }
    if (i >= 2 && i + 2 < f.frames && track[i - 2] === speaker && track[i + 2] === speaker) {
      nd++;
      for (let d = 0; d < C; d++) dsq[d] = dsq[d]! + ((cep(i + 2, d) - cep(i - 2, d)) / 4) ** 2;
    }
  }
  if (n === 0) return [];
  const mean = Array.from(sum, (v) => v / n);
  const sd = Array.from(sq, (v, d) => Math.sqrt(Math.max(0, v / n - mean[d]! ** 2)));
  const cmn = mean.map((v, d) => v - rec[d]! / nRec);
  const pitch = [0.1, 0.5, 0.9].map((q) => quantile(st, q)!);
  const dsd = Array.from(dsq, (v) => Math.sqrt(v / Math.max(1, nd)));
  return [...mean, ...sd, ...cmn, ...pitch, ...dsd, quantile(per, 0.5)!, (quantile(st, 0.9)! - quantile(st, 0.1)!)];
}

const extractor: VoiceprintExtractor = { name: 'full-stats', dimensions: FULL, extract: (f, t, s) => fullStats(f, t, s) };

type Variant = { name: string; parts: { from: number; len: number; weight: number }[] };
const part = (from: number, len: number, weight = 1): Variant['parts'][number] => ({ from, len, weight });
const VARIANTS: Variant[] = [
  { name: 'current: mean + pitch x3', parts: [part(B.mean, C), part(B.pitch, 3, 3)] },
  { name: 'pitch only', parts: [part(B.pitch, 3)] },
  { name: 'mean + pitch x2', parts: [part(B.mean, C), part(B.pitch, 3, 2)] },
  { name: 'mean + pitch x4', parts: [part(B.mean, C), part(B.pitch, 3, 4)] },
  { name: 'mean + sd + pitch x3', parts: [part(B.mean, C), part(B.sd, C), part(B.pitch, 3, 3)] },
  { name: 'mean + sd + pitch x4', parts: [part(B.mean, C), part(B.sd, C), part(B.pitch, 3, 4)] },
  { name: 'sd + pitch x3', parts: [part(B.sd, C), part(B.pitch, 3, 3)] },
  { name: 'cmn + pitch x3', parts: [part(B.cmn, C), part(B.pitch, 3, 3)] },
  { name: 'mean + dsd + pitch x3', parts: [part(B.mean, C), part(B.dsd, C), part(B.pitch, 3, 3)] },
  { name: 'mean + sd + dsd + pitch x4', parts: [part(B.mean, C), part(B.sd, C), part(B.dsd, C), part(B.pitch, 3, 4)] },
  { name: 'mean + pitch x3 + per/range', parts: [part(B.mean, C), part(B.pitch, 3, 3), part(B.level, 2, 2)] },
  { name: 'mean c1-12 + pitch x3', parts: [part(B.mean, 12), part(B.pitch, 3, 3)] },
];

function project(v: number[], variant: Variant, center: number[], scale: number[]): number[] {
  if (v.length === 0) return [];
  return variant.parts.flatMap((p) => Array.from({ length: p.len }, (_, i) => ((v[p.from + i]! - center[p.from + i]!) / (scale[p.from + i] || 1)) * p.weight));
}

const { values } = parseArgs({ options: { dataset: { type: 'string' } } });
if (!values.dataset) throw new Error('usage: node eval/compare-voiceprints.ts --dataset DIR');
const manifest = readManifest(values.dataset);
const results = [];
for (const file of manifest.files) results.push(await evaluateFile(values.dataset, file, { voiceprint: extractor }));
type R = (typeof results)[number];
const raw = new Map<R, number[][]>(results.map((r) => [r, r.analysis.speakers.map((s) => s.voiceprint)]));

function fit(rs: R[]): { center: number[]; scale: number[] } {
  const vs = rs.flatMap((r) => raw.get(r)!).filter((v) => v.length > 0);
  const center = Array.from({ length: FULL }, (_, d) => vs.reduce((a, v) => a + v[d]!, 0) / Math.max(1, vs.length));
  const scale = Array.from({ length: FULL }, (_, d) => Math.sqrt(vs.reduce((a, v) => a + (v[d]! - center[d]!) ** 2, 0) / Math.max(1, vs.length)) || 1);
  return { center, scale };
}

function withPrints(rs: R[], variant: Variant, cs: { center: number[]; scale: number[] }): R[] {
  return rs.map((r) => ({ ...r, analysis: { ...r.analysis, speakers: r.analysis.speakers.map((s, i) => ({ ...s, voiceprint: project(raw.get(r)![i]!, variant, cs.center, cs.scale) })) } }));
}

function bestThreshold(rs: R[]): { t: number; f1: number } {
  let best = { t: 0.99, f1: -1 };
  for (let t = 0.3; t <= 0.995; t += 0.01) {
    const f1 = pairwiseIdentity(linkAcrossFiles(rs, t)).f1 ?? 0;
    if (f1 > best.f1) best = { t: Math.round(t * 100) / 100, f1 };
  }
  return best;
}

/** AUC of cosine similarity, same reference voice vs different, over appearances in different files. */
function auc(rs: R[]): number {
  const apps = rs.flatMap((r) => r.analysis.speakers.map((s, i) => ({ file: r.file.name, ref: r.toRef.get(i), v: s.voiceprint }))).filter((a) => a.ref && a.v.length);
  const same: number[] = [];
  const diff: number[] = [];
  for (let i = 0; i < apps.length; i++)
    for (let j = i + 1; j < apps.length; j++) {
      if (apps[i]!.file === apps[j]!.file) continue;
      (apps[i]!.ref === apps[j]!.ref ? same : diff).push(cosineSimilarity(apps[i]!.v, apps[j]!.v));
    }
  let wins = 0;
  for (const s of same) for (const d of diff) wins += s > d ? 1 : s === d ? 0.5 : 0;
  return wins / Math.max(1, same.length * diff.length);
}

const half = Math.ceil(results.length / 2);
const A = results.slice(0, half);
const Bh = results.slice(half);
const fmt = (x: number | null): string => (x === null ? '-' : x.toFixed(3));
console.log('| variant | AUC | fitted t | P / R / F1 (all, fitted on all) | F1 on 7-12 (fit 1-6) | F1 on 1-6 (fit 7-12) |');
console.log('|---|---|---|---|---|---|');
for (const variant of VARIANTS) {
  const all = withPrints(results, variant, fit(results));
  const t = bestThreshold(all);
  const id = pairwiseIdentity(linkAcrossFiles(all, t.t));
  const cross = (train: R[], test: R[]): string => {
    const cs = fit(train);
    const tt = bestThreshold(withPrints(train, variant, cs));
    const r = pairwiseIdentity(linkAcrossFiles(withPrints(test, variant, cs), tt.t));
    return `${fmt(r.f1)} (t ${tt.t}, P ${fmt(r.precision)} R ${fmt(r.recall)})`;
  };
  console.log(`| ${variant.name} | ${auc(all).toFixed(3)} | ${t.t} | ${fmt(id.precision)} / ${fmt(id.recall)} / ${fmt(id.f1)} | ${cross(A, Bh)} | ${cross(Bh, A)} |`);
}
