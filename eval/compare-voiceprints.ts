// Compares voiceprint variants for cross-recording identity on a dev folder:
//   node eval/compare-voiceprints.ts --dataset DIR
// The engine runs once per file with an extractor that returns every candidate statistic; each
// variant is a weighted subset of them. For each variant: AUC of same- vs different-voice pairs
// of appearances in different files, identity P/R/F1 with centre, scale and threshold fitted on
// the whole set, a half-split check (fit on files 1-6, score 7-12, and the reverse) and five more
// splits pooled. The threshold is picked as eval/calibrate-voiceprint.ts picks it (pickThreshold).
import { parseArgs } from 'node:util';
import { NUM_CEPS, type FrameFeatures } from '../packages/analysis/src/speech/features.ts';
import { hzToSemitones } from '../packages/analysis/src/speech/pitch.ts';
import { cosineSimilarity, quantile } from '../packages/analysis/src/speech/stats.ts';
import { bandShapeProjection, bandsWithin, VOICE_BANDS, type VoiceprintExtractor } from '../packages/analysis/src/speech/voiceprint.ts';
import { readManifest } from './dataset.ts';
import { evaluateFile, linkAcrossFiles } from './run.ts';
import { pairwiseIdentity, pickThreshold, THRESHOLD_SWEEP } from './identity.ts';

const C = NUM_CEPS - 1;
// Shapes of the log-mel spectrum restricted to a band (bandShapeProjection): the default's band
// with 16 coefficients (variants take the first 8, 12 or 16), and a wider and a narrower band.
const TEL = bandShapeProjection(VOICE_BANDS, 16);
const WIDE = bandShapeProjection(bandsWithin(250, 3800), 12);
const NARROW = bandShapeProjection(bandsWithin(400, 3200), 12);
const TEL12 = TEL.slice(0, 12);
const project = (m: number[][], v: ArrayLike<number>): number[] => m.map((row) => row.reduce((a, w, d) => a + w * v[d]!, 0));
// Layout of the full statistic vector.
const B = {
  mean: 0, sd: C, cmn: 2 * C, pitch: 3 * C, dsd: 3 * C + 3, level: 4 * C + 3,
  tel: 4 * C + 5, telSd: 4 * C + 21, wide: 4 * C + 33, narrow: 4 * C + 45, telPer: 4 * C + 57, telLoud: 4 * C + 69,
} as const;
const FULL = 4 * C + 81;

function fullStats(f: FrameFeatures, track: Int16Array, speaker: number): number[] {
  const sum = new Float64Array(C);
  const sq = new Float64Array(C);
  const rec = new Float64Array(C);
  const dsq = new Float64Array(C);
  const telSum = new Float64Array(12);
  const telSq = new Float64Array(12);
  const perSum = new Float64Array(C);
  const loudSum = new Float64Array(C);
  let n = 0;
  let nRec = 0;
  let nd = 0;
  let nPer = 0;
  let nLoud = 0;
  let loudest = -Infinity;
  const st: number[] = [];
  const per: number[] = [];
  const cep = (i: number, d: number): number => f.mfcc[i * NUM_CEPS + d + 1]!;
  const frameCeps = new Float64Array(C);
  for (let i = 0; i < f.frames; i++) if (track[i] === speaker && f.pitchHz[i]! > 0) loudest = Math.max(loudest, f.bandDb[i]!);
  for (let i = 0; i < f.frames; i++) {
    if (track[i]! < 0 || !(f.pitchHz[i]! > 0)) continue;
    nRec++;
    for (let d = 0; d < C; d++) rec[d] = rec[d]! + cep(i, d);
    if (track[i] !== speaker) continue;
    n++;
    st.push(hzToSemitones(f.pitchHz[i]!));
    per.push(f.periodicity[i]!);
    for (let d = 0; d < C; d++) {
      frameCeps[d] = cep(i, d);
      sum[d] = sum[d]! + cep(i, d);
      sq[d] = sq[d]! + cep(i, d) ** 2;
    }
    // Frame selection candidates: strongly periodic frames; frames within 10 dB of the loudest.
    if (f.periodicity[i]! >= 0.8) {
      nPer++;
      for (let d = 0; d < C; d++) perSum[d] = perSum[d]! + cep(i, d);
    }
    if (f.bandDb[i]! >= loudest - 10) {
      nLoud++;
      for (let d = 0; d < C; d++) loudSum[d] = loudSum[d]! + cep(i, d);
    }
    project(TEL12, frameCeps).forEach((v, k) => {
      telSum[k] = telSum[k]! + v;
      telSq[k] = telSq[k]! + v * v;
    });
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
  const telSd = Array.from(telSq, (v, k) => Math.sqrt(Math.max(0, v / n - (telSum[k]! / n) ** 2)));
  const perMean = nPer ? Array.from(perSum, (v) => v / nPer) : mean;
  const loudMean = Array.from(loudSum, (v) => v / Math.max(1, nLoud));
  return [
    ...mean, ...sd, ...cmn, ...pitch, ...dsd, quantile(per, 0.5)!, (quantile(st, 0.9)! - quantile(st, 0.1)!),
    ...project(TEL, mean), ...telSd, ...project(WIDE, mean), ...project(NARROW, mean), ...project(TEL12, perMean), ...project(TEL12, loudMean),
  ];
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
  { name: 'band 300-3400 c1-8 + pitch x2', parts: [part(B.tel, 8), part(B.pitch, 3, 2)] },
  { name: 'band 300-3400 c1-8 + pitch x3', parts: [part(B.tel, 8), part(B.pitch, 3, 3)] },
  { name: 'band 300-3400 c1-12 + pitch x2 (new default)', parts: [part(B.tel, 12), part(B.pitch, 3, 2)] },
  { name: 'band 300-3400 c1-12 + pitch x3', parts: [part(B.tel, 12), part(B.pitch, 3, 3)] },
  { name: 'band 300-3400 c1-12 + pitch x4', parts: [part(B.tel, 12), part(B.pitch, 3, 4)] },
  { name: 'band 300-3400 c1-16 + pitch x2', parts: [part(B.tel, 16), part(B.pitch, 3, 2)] },
  { name: 'band 300-3400 c1-16 + pitch x3', parts: [part(B.tel, 16), part(B.pitch, 3, 3)] },
  { name: 'band 300-3400 c1-12 + sd + pitch x2', parts: [part(B.tel, 12), part(B.telSd, 12), part(B.pitch, 3, 2)] },
  { name: 'band 250-3800 c1-12 + pitch x2', parts: [part(B.wide, 12), part(B.pitch, 3, 2)] },
  { name: 'band 400-3200 c1-12 + pitch x2', parts: [part(B.narrow, 12), part(B.pitch, 3, 2)] },
  { name: 'band c1-12, periodicity >= 0.8 frames + pitch x2', parts: [part(B.telPer, 12), part(B.pitch, 3, 2)] },
  { name: 'band c1-12, frames within 10 dB of loudest + pitch x2', parts: [part(B.telLoud, 12), part(B.pitch, 3, 2)] },
  { name: 'band c1-12 + pitch x2 + per/range', parts: [part(B.tel, 12), part(B.pitch, 3, 2), part(B.level, 2, 2)] },
];

function select(v: number[], variant: Variant, center: number[], scale: number[]): number[] {
  if (v.length === 0) return [];
  return variant.parts.flatMap((p) => Array.from({ length: p.len }, (_, i) => ((v[p.from + i]! - center[p.from + i]!) / (scale[p.from + i] || 1)) * p.weight));
}

const { values } = parseArgs({ options: { dataset: { type: 'string' } } });
if (!values.dataset) throw new Error('usage: node eval/compare-voiceprints.ts --dataset DIR');
const manifest = readManifest(values.dataset);
const results: Awaited<ReturnType<typeof evaluateFile>>[] = [];
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
  return rs.map((r) => ({ ...r, analysis: { ...r.analysis, speakers: r.analysis.speakers.map((s, i) => ({ ...s, voiceprint: select(raw.get(r)![i]!, variant, cs.center, cs.scale) })) } }));
}

function bestThreshold(rs: R[]): { t: number; f1: number } {
  const picked = pickThreshold(THRESHOLD_SWEEP.map((threshold) => ({ threshold, f1: pairwiseIdentity(linkAcrossFiles(rs, threshold)).f1 ?? 0 })));
  return { t: picked.threshold, f1: picked.f1 };
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
// Five more splits, pooled, because each half above holds only 3 or 10 same-voice pairs: odd and
// even files both ways, and each third of the files (every third file) scored after fitting on
// the other two thirds.
const OTHER_SPLITS: [R[], R[]][] = [
  ...[0, 1].map((k): [R[], R[]] => [results.filter((_, i) => i % 2 === k), results.filter((_, i) => i % 2 !== k)]),
  ...[0, 1, 2].map((k): [R[], R[]] => [results.filter((_, i) => i % 3 !== k), results.filter((_, i) => i % 3 === k)]),
];
const fmt = (x: number | null): string => (x === null ? '-' : x.toFixed(3));
console.log('| variant | AUC | fitted t | P / R / F1 (all, fitted on all) | F1 on 7-12 (fit 1-6) | F1 on 1-6 (fit 7-12) | P / R / F1 pooled over 5 other splits |');
console.log('|---|---|---|---|---|---|---|');
for (const variant of VARIANTS) {
  const all = withPrints(results, variant, fit(results));
  const t = bestThreshold(all);
  const id = pairwiseIdentity(linkAcrossFiles(all, t.t));
  const cross = (train: R[], test: R[]): { t: number; id: ReturnType<typeof pairwiseIdentity> } => {
    const cs = fit(train);
    const tt = bestThreshold(withPrints(train, variant, cs));
    return { t: tt.t, id: pairwiseIdentity(linkAcrossFiles(withPrints(test, variant, cs), tt.t)) };
  };
  const half = (train: R[], test: R[]): string => {
    const { t: tt, id: r } = cross(train, test);
    return `${fmt(r.f1)} (t ${tt}, P ${fmt(r.precision)} R ${fmt(r.recall)})`;
  };
  const pooled = OTHER_SPLITS.map(([train, test]) => cross(train, test).id).reduce((a, r) => ({ tp: a.tp + r.tp, fp: a.fp + r.fp, fn: a.fn + r.fn }), { tp: 0, fp: 0, fn: 0 });
  const pp = pooled.tp / Math.max(1, pooled.tp + pooled.fp);
  const pr = pooled.tp / Math.max(1, pooled.tp + pooled.fn);
  const pf = pp + pr > 0 ? (2 * pp * pr) / (pp + pr) : 0;
  console.log(`| ${variant.name} | ${auc(all).toFixed(3)} | ${t.t} | ${fmt(id.precision)} / ${fmt(id.recall)} / ${fmt(id.f1)} | ${half(A, Bh)} | ${half(Bh, A)} | ${fmt(pp)} / ${fmt(pr)} / ${fmt(pf)} |`);
}
