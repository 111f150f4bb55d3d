// Fast tuning aid for diarization settings: frame features and speech regions are computed once
// per file, then every setting of a grid is diarized and scored (DER at collar 0.25 s, exact
// speaker count, talk-share error by speech time, first-speech order). Prints one line per
// setting, and with --halves the same figures for files 1-6 and 7-12 separately (to check that a
// setting chosen on one half holds on the other).
//   node eval/sweep.ts --dataset DIR --grid '{"count.clrThreshold":[-1,-0.5],"count.minSpeakerSec":[5,8]}'
// (grid keys are stage.setting, as grouped in packages/analysis/src/speech/diarization/settings.ts)
//     [--halves] [--verbose] [--files a,b] [--trace [--compact]] [--seeds N] [--model FILE.json] [--json OUT]
// --model: a fold's window embedding (as eval/run.ts --model); --json writes every setting's
// figures file by file, for eval/nested-folds.ts.
// --seeds N scores each setting at N seedings of the diarization's UBM and prints the mean and
// range of the figures over them (docs/analysis-speech.md: a setting is judged by those).
// --trace prints every merge decision (clusters with their reference make-up and the CLR matrix;
// with --compact only the best pair: raw and size-weighted CLR, sizes, same or different voice).
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseEmbeddingModel, type WindowEmbeddingModel } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { decodeAudio } from '../packages/analysis/src/audio/decode.ts';
import { FrameAnalyzer, type FrameFeatures } from '../packages/analysis/src/speech/features.ts';
import { detectSpeech, regionsToMask, type FrameRegion } from '../packages/analysis/src/speech/vad.ts';
import { diarize, type Diarization, type DiarizationOverrides, type MergeTrace } from '../packages/analysis/src/speech/diarization/diarize.ts';
import { frameTrackToSegments } from '../packages/analysis/src/speech/turns.ts';
import { readManifest, readRttm, type ManifestFile } from './dataset.ts';
import { seedPhases } from './seed-table.ts';
import { DIARIZATION_SETTINGS } from '../packages/analysis/src/speech/diarization/settings.ts';
import { scoreDiarization, type Seg } from './der.ts';

let compactTrace = false;

interface Prepared {
  file: ManifestFile;
  f: FrameFeatures;
  regions: FrameRegion[];
  mask: Uint8Array;
  ref: Seg[];
}

export interface SweepScore {
  derNum: number;
  derDen: number;
  countOk: number;
  shareErrSum: number;
  shareErrN: number;
  orderOk: number;
  orderN: number;
  files: number;
}

async function prepare(dir: string, file: ManifestFile): Promise<Prepared> {
  const analyzer = new FrameAnalyzer();
  for await (const chunk of decodeAudio(join(dir, file.wav))) analyzer.push(chunk);
  const f = analyzer.finish();
  const regions = detectSpeech(f);
  return { file, f, regions, mask: regionsToMask(regions, f.frames), ref: readRttm(join(dir, file.rttm)) };
}

/** Reference speaker of each frame (the one speaking; the first listed when several). */
function refFrames(p: Prepared): string[] {
  const out: string[] = new Array<string>(p.f.frames).fill('');
  for (const s of p.ref) for (let i = Math.round(s.start * 100); i < Math.min(p.f.frames, Math.round(s.end * 100)); i++) if (!out[i]) out[i] = s.speaker;
  return out;
}

function describeTrace(p: Prepared, e: MergeTrace): string {
  const rf = refFrames(p);
  const k = e.counts.length;
  const comp: Map<string, number>[] = Array.from({ length: k }, () => new Map());
  for (let i = 0; i < e.frameSpeaker.length; i++) {
    const s = e.frameSpeaker[i]!;
    if (s < 0) continue;
    const r = rf[i] || '-';
    comp[s]!.set(r, (comp[s]!.get(r) ?? 0) + 1);
  }
  const lines = comp.map((m, s) => {
    const parts = [...m].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([r, n]) => `${r.replace(/^[a-z0-9]+-/, '')}:${(n / 100).toFixed(1)}`);
    const row = e.clr[s]!.map((v, j) => (j === s ? '   .  ' : v.toFixed(2).padStart(6))).join(' ');
    return `    c${s} voiced ${(e.counts[s]! / 100).toFixed(1)}s [${parts.join(' ')}]  clr ${row}`;
  });
  // The pair merged next (the small-cluster rule aside) and whether it joins one voice.
  let bi = 0;
  let bj = 1;
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) if (e.clr[i]![j]! > e.clr[bi]![bj]!) [bi, bj] = [i, j];
  const major = (s: number): string => [...comp[s]!].filter(([r]) => r !== '-').sort((a, b) => b[1] - a[1])[0]?.[0] ?? '-';
  const summary = k > 1 ? `  best c${bi}+c${bj} clr ${e.clr[bi]![bj]!.toFixed(2)} self ${e.self[bi]!.toFixed(2)}/${e.self[bj]!.toFixed(2)} weighted ${(e.clr[bi]![bj]! * (e.counts[bi]! / (e.counts[bi]! + 1536) + e.counts[bj]! / (e.counts[bj]! + 1536)) / 2).toFixed(2)} sizes ${(e.counts[bi]! / 100).toFixed(1)}/${(e.counts[bj]! / 100).toFixed(1)} ${major(bi) === major(bj) ? 'SAME' : 'DIFF'}` : '';
  return compactTrace ? summary : `  round ${e.round}, k=${k}\n${lines.join('\n')}\n${summary}`;
}

/** Diarizes one file and adds its figures to every accumulator given (the whole set and its half). */
export function scoreOne(p: Prepared, opts: DiarizationOverrides, accs: SweepScore[], log?: string[]): void {
  const d = diarize(p.f, p.regions, p.mask, {}, opts);
  for (const acc of accs) addScore(p, d, acc);
  log?.push(`${p.file.name} ${p.file.num_speakers}/${d.speakers} DER ${derPct(p, d)}`);
}

function hypSegments(d: Diarization): Seg[] {
  return frameTrackToSegments(d.frameSpeaker).map((s) => ({ speaker: String(s.speaker), start: s.start, end: s.end }));
}

function derPct(p: Prepared, d: Diarization): string {
  const der = scoreDiarization(p.ref, hypSegments(d), 0.25);
  return der.scored ? ((100 * (der.missed + der.falseAlarm + der.confusion)) / der.scored).toFixed(1) : '-';
}

function addScore(p: Prepared, d: Diarization, acc: SweepScore): void {
  const hyp = hypSegments(d);
  const der = scoreDiarization(p.ref, hyp, 0.25);
  acc.files++;
  acc.derNum += der.missed + der.falseAlarm + der.confusion;
  acc.derDen += der.scored;
  if (d.speakers === p.file.num_speakers) acc.countOk++;
  // Talk share by speech time of the mapped speakers.
  const hypTime = new Map<string, number>();
  for (const h of hyp) hypTime.set(h.speaker, (hypTime.get(h.speaker) ?? 0) + h.end - h.start);
  const total = [...hypTime.values()].reduce((a, b) => a + b, 0) || 1;
  const refToHyp = new Map<string, string>([...der.mapping].map(([h, r]) => [r, h]));
  for (const r of p.file.speakers) {
    const h = refToHyp.get(r);
    acc.shareErrSum += Math.abs((h ? (hypTime.get(h) ?? 0) / total : 0) - (p.file.talk_share[r] ?? 0)) * 100;
    acc.shareErrN++;
  }
  for (const [h, t] of hypTime) if (!der.mapping.has(h) && p.file.speakers.length) {
    acc.shareErrSum += (t / total) * 100;
    acc.shareErrN++;
  }
  p.file.speakers.forEach((r, idx) => {
    acc.orderN++;
    if (der.mapping.get(String(idx)) === r) acc.orderOk++;
  });
}

export const emptyScore = (): SweepScore => ({ derNum: 0, derDen: 0, countOk: 0, shareErrSum: 0, shareErrN: 0, orderOk: 0, orderN: 0, files: 0 });

export function formatScore(a: SweepScore): string {
  return `DER ${((100 * a.derNum) / a.derDen).toFixed(2)} count ${a.countOk}/${a.files} share ${(a.shareErrSum / Math.max(1, a.shareErrN)).toFixed(2)} order ${a.orderOk}/${a.orderN}`;
}

export type Settings = NonNullable<DiarizationOverrides['settings']>;

/** Every combination of the grid's values; keys are `stage.setting`. */
function expand(grid: Record<string, unknown[]>): Settings[] {
  let out: Record<string, Record<string, unknown>>[] = [{}];
  for (const [key, vs] of Object.entries(grid)) {
    const [stage, name] = key.split('.');
    if (!stage || !name || !(stage in DIARIZATION_SETTINGS)) throw new Error(`grid key ${key}: expected stage.setting (settings.ts)`);
    out = out.flatMap((o) => vs.map((v) => ({ ...o, [stage]: { ...o[stage], [name]: v } })));
  }
  return out as Settings[];
}

/** Mean and range over seed phases of one setting's figures (files-weighted as formatScore). */
function formatSeeds(scores: SweepScore[]): string {
  const der = scores.map((a) => (100 * a.derNum) / a.derDen);
  const count = scores.map((a) => a.countOk);
  const share = scores.map((a) => a.shareErrSum / Math.max(1, a.shareErrN));
  const order = scores.map((a) => a.orderOk);
  const mean = (x: number[]): number => x.reduce((a, b) => a + b, 0) / x.length;
  const span = (x: number[], d: number): string => `${Math.min(...x).toFixed(d)}-${Math.max(...x).toFixed(d)}`;
  return `over ${scores.length} seeds: DER ${mean(der).toFixed(2)} (${span(der, 1)}) count ${mean(count).toFixed(2)}/${scores[0]!.files} (${span(count, 0)}) share ${mean(share).toFixed(2)} (${span(share, 1)}) order ${mean(order).toFixed(1)}/${scores[0]!.orderN}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { dataset: { type: 'string' }, grid: { type: 'string' }, trace: { type: 'boolean' }, files: { type: 'string' }, halves: { type: 'boolean' }, verbose: { type: 'boolean' }, compact: { type: 'boolean' }, seeds: { type: 'string' }, model: { type: 'string' }, json: { type: 'string' } } });
  const embeddingModel: WindowEmbeddingModel | undefined = values.model ? parseEmbeddingModel(JSON.parse(readFileSync(values.model, 'utf8'))) : undefined;
  const withModel = (o: DiarizationOverrides): DiarizationOverrides => (embeddingModel ? { ...o, embeddingModel } : o);
  const perSetting: { settings: Settings; files: { name: string; score: SweepScore }[] }[] = [];
  compactTrace = values.compact ?? false;
  if (!values.dataset) throw new Error('usage: node eval/sweep.ts --dataset DIR [--grid JSON] [--trace] [--halves]');
  const manifest = readManifest(values.dataset);
  const only = values.files?.split(',');
  const prepared: Prepared[] = [];
  for (const file of manifest.files) if (!only || only.includes(file.name)) prepared.push(await prepare(values.dataset, file));
  const grid = expand(values.grid ? (JSON.parse(values.grid) as Record<string, unknown[]>) : {});
  const seeds = Number(values.seeds ?? 0);
  if (seeds > 0) {
    // Each setting at the same UBM seed phases as eval/run.ts --seeds.
    for (const opts of grid) {
      const scores = seedPhases(seeds, opts.models?.seedCandidates ?? DIARIZATION_SETTINGS.models.seedCandidates).map((phase) => {
        const acc = emptyScore();
        for (const p of prepared) scoreOne(p, withModel({ settings: { ...opts, models: { ...opts.models, ubmSeedPhase: phase } } }), [acc]);
        return acc;
      });
      console.log(`${JSON.stringify(opts)}: ${formatSeeds(scores)}`);
    }
    return;
  }
  for (const opts of grid) {
    const all = emptyScore();
    const halves = [emptyScore(), emptyScore()];
    const log: string[] = [];
    const files: { name: string; score: SweepScore }[] = [];
    prepared.forEach((p, i) => {
      const traces: string[] = [];
      const o = withModel(values.trace ? { settings: opts, trace: (e) => traces.push(describeTrace(p, e)) } : { settings: opts });
      const before = log.length;
      const own = emptyScore();
      scoreOne(p, o, [all, halves[i < prepared.length / 2 ? 0 : 1]!, own], log);
      files.push({ name: p.file.name, score: own });
      if (values.trace) console.log(`${log[before]}\n${traces.join('\n')}`);
    });
    const half = values.halves ? `  | A ${formatScore(halves[0]!)} | B ${formatScore(halves[1]!)}` : '';
    console.log(`${JSON.stringify(opts)}: ${formatScore(all)}${half}`);
    if (values.verbose) console.log(`  ${log.join('; ')}`);
    perSetting.push({ settings: opts, files });
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(perSetting));
}

if (import.meta.main) await main();
