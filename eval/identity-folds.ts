// Cross-recording identity on the speaker-disjoint folds, with the voiceprint's calibration chosen
// on voices the scored fold never met. The shipped calibration (voiceprint-calibration.ts: centre,
// scale and the same-speaker threshold) was fitted on the dev set; this asks what each way of
// calibrating is worth on unheard voices, as eval/nested-folds.ts does for diarization settings:
//   node eval/identity-folds.ts --val DIR --models DIR [--cache FILE.json]
// 1. every fold's conversations are diarized with the fold's model (the diarization is the
//    shipped one, untouched: only the voiceprint written into the result is the raw statistics);
// 2. for each fold, each calibration is fitted on the *other* folds' speaker appearances (their
//    files linked fold by fold, file after file, as the service links them) and scored on the fold.
// --cache keeps step 1's voiceprints, so that the calibrations can be compared again in seconds.
import { parseArgs } from 'node:util';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameFeatures } from '../packages/analysis/src/speech/features.ts';
import { CepstralVoiceprint, normaliseVoiceStats, rawVoiceStats, type VoiceprintExtractor } from '../packages/analysis/src/speech/voiceprint.ts';
import { DEV_SET_F1_THRESHOLD, VOICEPRINT_CENTER, VOICEPRINT_SCALE } from '../packages/analysis/src/speech/voiceprint-calibration.ts';
import { parseEmbeddingModel } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { projectVoiceStats, voiceStats, VOICE_STATS_DIMS, type VoiceprintModel } from '../packages/analysis/src/speech/trained-voiceprint.ts';
import { readManifest, type ManifestFile } from './dataset.ts';
import { evaluateFile, linkAcrossFiles, type FileResult } from './run.ts';
import { pairwiseIdentity, pickThreshold, THRESHOLD_SWEEP } from './identity.ts';

/** What identity needs of one diarized file: its raw voiceprints and the speaker mapping. */
export interface IdentityFile {
  file: Pick<ManifestFile, 'name' | 'speakers'>;
  raw: number[][];
  /** Each speaker's voiceStats (trained-voiceprint.ts; [] with too little voiced speech), for a trained voiceprint. */
  stats?: number[][];
  /** Each speaker's voiced frames (10 ms), what voiceStats is computed over. */
  voiced?: number[];
  /** Each speaker's speech, seconds (the analysis' speechSec). */
  speechSec?: number[];
  /** Each speaker's separation (the share of its clustered local speakers nearer its own voice than any other's; null where none was measured). */
  separation?: (number | null)[];
  toRef: [number, string][];
}

export interface Calibration {
  center: number[];
  scale: number[];
  threshold: number;
}

/** Identity counts of one fold's files linked file after file under a calibration. */
export function identityCounts(files: IdentityFile[], c: Calibration): { tp: number; fp: number; fn: number } {
  return linkedCounts(files, (f) => f.raw.map((v) => (v.length ? normaliseVoiceStats(v, c.center, c.scale) : [])), c.threshold);
}

/** Identity counts of one fold's files linked file after file, each file's voiceprints given by `voiceprints`. */
export function linkedCounts(files: IdentityFile[], voiceprints: (f: IdentityFile) => number[][], threshold: number): { tp: number; fp: number; fn: number } {
  const results = files.map((f) => ({
    file: f.file,
    toRef: new Map(f.toRef),
    // Each appearance here stands for a speaker with enough speech to judge (decisions §16).
    analysis: { speakers: voiceprints(f).map((voiceprint) => ({ speechSec: Infinity, voiceprint })) },
  })) as unknown as FileResult[];
  const { tp, fp, fn } = pairwiseIdentity(linkAcrossFiles(results, threshold));
  return { tp, fp, fn };
}

export function f1Of(n: { tp: number; fp: number; fn: number }): { precision: number; recall: number; f1: number } {
  const precision = n.tp + n.fp ? n.tp / (n.tp + n.fp) : 0;
  const recall = n.tp + n.fn ? n.tp / (n.tp + n.fn) : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** Pooled identity over several folds (each linked on its own: their voices are disjoint). */
function pooled(folds: IdentityFile[][], c: Calibration): { tp: number; fp: number; fn: number } {
  return folds.map((f) => identityCounts(f, c)).reduce((a, b) => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn }), { tp: 0, fp: 0, fn: 0 });
}

/** The threshold adopted on `folds` for a centre and scale: the middle of the best-F1 plateau (pickThreshold). */
export function fitThreshold(folds: IdentityFile[][], center: number[], scale: number[]): number {
  return pickThreshold(THRESHOLD_SWEEP.map((threshold) => ({ threshold, f1: f1Of(pooled(folds, { center, scale, threshold })).f1 }))).threshold;
}

/** Centre and scale: the mean and standard deviation of each raw statistic over the appearances. */
export function fitScale(folds: IdentityFile[][]): { center: number[]; scale: number[] } {
  const raws = folds.flat().flatMap((f) => f.raw).filter((v) => v.length > 0);
  const dims = raws[0]?.length ?? 0;
  const center = Array.from({ length: dims }, (_, d) => raws.reduce((a, v) => a + v[d]!, 0) / raws.length);
  const scale = Array.from({ length: dims }, (_, d) => Math.sqrt(raws.reduce((a, v) => a + (v[d]! - center[d]!) ** 2, 0) / raws.length) || 1);
  return { center, scale };
}

const RAW_DIMS = new CepstralVoiceprint().dimensions;
// Both the cepstral voiceprint's raw statistics and a trained voiceprint's, one after the other
// (evaluateFile takes one extractor); diarizeFolds splits them again.
const rawExtractor: VoiceprintExtractor = {
  name: 'raw-voice-stats',
  dimensions: RAW_DIMS + VOICE_STATS_DIMS + 1,
  extract: (f: FrameFeatures, track: Int16Array, s: number) => {
    const raw = rawVoiceStats(f, track, s);
    const stats = voiceStats(f, track, s);
    let voiced = 0;
    for (let i = 0; i < f.frames; i++) if (track[i] === s && f.pitchHz[i]! > 0) voiced++;
    return [...(raw ?? new Array<number>(RAW_DIMS).fill(NaN)), ...(stats ?? new Array<number>(VOICE_STATS_DIMS).fill(NaN)), voiced];
  },
};

async function diarizeFolds(val: string, models: string): Promise<Record<string, IdentityFile[]>> {
  const out: Record<string, IdentityFile[]> = {};
  for (const fold of readdirSync(val).filter((d) => /^fold-\d+$/.test(d)).sort()) {
    const embeddingModel = parseEmbeddingModel(JSON.parse(readFileSync(join(models, `${fold}.json`), 'utf8')));
    const dir = join(val, fold);
    out[fold] = [];
    for (const file of readManifest(dir).files) {
      const r = await evaluateFile(dir, file, { evaluation: { diarization: { embeddingModel } }, voiceprint: rawExtractor });
      const both = r.analysis.speakers.map((s) => s.voiceprint);
      const part = (v: number[], from: number, to: number): number[] => (Number.isNaN(v[from]) ? [] : v.slice(from, to));
      out[fold].push({
        file: { name: file.name, speakers: file.speakers },
        raw: both.map((v) => part(v, 0, RAW_DIMS)),
        stats: both.map((v) => part(v, RAW_DIMS, RAW_DIMS + VOICE_STATS_DIMS)),
        voiced: both.map((v) => v[RAW_DIMS + VOICE_STATS_DIMS]!),
        speechSec: r.analysis.speakers.map((s) => s.speechSec),
        separation: r.analysis.speakers.map((s) => s.separation ?? null),
        toRef: [...r.toRef],
      });
      process.stderr.write(`${fold} ${file.name}\n`);
    }
  }
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { val: { type: 'string' }, models: { type: 'string' }, cache: { type: 'string' }, 'voiceprint-models': { type: 'string' } } });
  if (!values.val || !values.models) {
    console.error('usage: node eval/identity-folds.ts --val DIR --models DIR [--cache FILE.json]');
    process.exit(2);
  }
  let byFold: Record<string, IdentityFile[]>;
  if (values.cache && existsSync(values.cache)) byFold = JSON.parse(readFileSync(values.cache, 'utf8')) as Record<string, IdentityFile[]>;
  else {
    byFold = await diarizeFolds(values.val, values.models);
    if (values.cache) writeFileSync(values.cache, JSON.stringify(byFold));
  }
  const folds = Object.keys(byFold).sort();
  const calibrations: { name: string; fit: (train: IdentityFile[][]) => Calibration }[] = [
    { name: 'shipped (dev-set centre, scale and threshold)', fit: () => ({ center: VOICEPRINT_CENTER, scale: VOICEPRINT_SCALE, threshold: DEV_SET_F1_THRESHOLD }) },
    { name: 'dev-set centre and scale, threshold fitted on the other folds', fit: (t) => ({ center: VOICEPRINT_CENTER, scale: VOICEPRINT_SCALE, threshold: fitThreshold(t, VOICEPRINT_CENTER, VOICEPRINT_SCALE) }) },
    {
      name: 'centre, scale and threshold fitted on the other folds',
      fit: (t) => {
        const { center, scale } = fitScale(t);
        return { center, scale, threshold: fitThreshold(t, center, scale) };
      },
    },
  ];
  const lines = [`| calibration | ${folds.map((f) => `${f} F1 (threshold)`).join(' | ')} | mean P / R / F1 | worst F1 |`, `|---|${folds.map(() => '---').join('|')}|---|---|`];
  for (const cal of calibrations) {
    const scores = folds.map((k) => {
      const c = cal.fit(folds.filter((o) => o !== k).map((o) => byFold[o]!));
      return { ...f1Of(identityCounts(byFold[k]!, c)), threshold: c.threshold };
    });
    const mean = (key: 'precision' | 'recall' | 'f1') => scores.reduce((a, s) => a + s[key], 0) / scores.length;
    lines.push(`| ${cal.name} | ${scores.map((s) => `${s.f1.toFixed(3)} (${s.threshold.toFixed(2)})`).join(' | ')} | ${mean('precision').toFixed(3)} / ${mean('recall').toFixed(3)} / ${mean('f1').toFixed(3)} | ${Math.min(...scores.map((s) => s.f1)).toFixed(3)} |`);
  }
  console.log(lines.join('\n'));
  if (values['voiceprint-models']) console.log('\n' + trainedVoiceprintTable(byFold, folds, values['voiceprint-models']));
}

/**
 * A trained voiceprint (trained-voiceprint.ts), each fold's model from DIR/fold-K.json (trained
 * without fold K's voices), at thresholds chosen on the other folds two ways: the middle of their
 * best-F1 plateau, and the shipped rule for linking (the lowest threshold at which pairwise
 * precision reaches 0.95 on each of them). Then the whole sweep pooled over the folds.
 */
function trainedVoiceprintTable(byFold: Record<string, IdentityFile[]>, folds: string[], dir: string): string {
  const models = new Map(folds.map((k) => [k, JSON.parse(readFileSync(join(dir, `${k}.json`), 'utf8')) as VoiceprintModel]));
  if (folds.some((k) => byFold[k]!.some((f) => !f.stats))) return 'trained voiceprint: the cache holds no voiceStats (rebuild it without --cache)';
  const vps = (k: string) => (f: IdentityFile) => f.stats!.map((v) => (v.length ? projectVoiceStats(models.get(k)!, v) : []));
  // Each fold's files under its own model; the sweep's counts per fold and threshold.
  const sweep = new Map(folds.map((k) => [k, THRESHOLD_SWEEP.map((t) => linkedCounts(byFold[k]!, vps(k), t))]));
  const sum = (ns: { tp: number; fp: number; fn: number }[]) => ns.reduce((a, b) => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn }), { tp: 0, fp: 0, fn: 0 });
  const rules: { name: string; pick: (others: string[]) => number }[] = [
    { name: 'F1 plateau of the other folds', pick: (o) => pickThreshold(THRESHOLD_SWEEP.map((threshold, i) => ({ threshold, f1: f1Of(sum(o.map((k) => sweep.get(k)![i]!))).f1 }))).threshold },
    {
      name: 'lowest with precision ≥ 0.95 on each other fold',
      pick: (o) => THRESHOLD_SWEEP.find((_, i) => o.every((k) => { const n = sweep.get(k)![i]!; return n.tp + n.fp === 0 || n.tp / (n.tp + n.fp) >= 0.95; })) ?? 0.99,
    },
  ];
  const out = [`| trained voiceprint, threshold | ${folds.map((k) => `${k} P / R / F1 (threshold)`).join(' | ')} | pooled P / R / F1 |`, `|---|${folds.map(() => '---').join('|')}|---|`];
  for (const rule of rules) {
    const cells = folds.map((k) => {
      const t = rule.pick(folds.filter((o) => o !== k));
      const n = sweep.get(k)![THRESHOLD_SWEEP.indexOf(t)]!;
      return { n, t };
    });
    const p = f1Of(sum(cells.map((c) => c.n)));
    out.push(`| ${rule.name} | ${cells.map(({ n, t }) => { const s = f1Of(n); return `${s.precision.toFixed(2)} / ${s.recall.toFixed(2)} / ${s.f1.toFixed(2)} (${t.toFixed(2)}, ${n.tp} right ${n.fp} wrong)`; }).join(' | ')} | ${p.precision.toFixed(2)} / ${p.recall.toFixed(2)} / ${p.f1.toFixed(2)} |`);
  }
  out.push('', '| threshold | pooled right / wrong / missed | P / R / F1 |', '|---|---|---|');
  THRESHOLD_SWEEP.forEach((t, i) => {
    if (i % 5 !== 0) return;
    const n = sum(folds.map((k) => sweep.get(k)![i]!));
    const s = f1Of(n);
    out.push(`| ${t.toFixed(2)} | ${n.tp} / ${n.fp} / ${n.fn} | ${s.precision.toFixed(2)} / ${s.recall.toFixed(2)} / ${s.f1.toFixed(2)} |`);
  });
  return out.join('\n');
}

if (import.meta.main) await main();
