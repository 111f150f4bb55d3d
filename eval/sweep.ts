// Fast tuning aid for the diarization from the audio (speech/diarization/segmented.ts): each file is
// decoded and run through the front end once per segmentation hop (features, speech
// probabilities, the segmentation network), then every setting of a grid is diarized and scored
// (DER at collar 0.25 s with overlap scored, exact speaker count, how many speakers too many or
// too few). One line per setting.
//   node eval/sweep.ts --dataset DIR [--segmentation FILE.onnx] [--model LDA.json] [--files a,b] [--json OUT]
//     --grid '{"cluster.threshold":[0.6,0.8],"localSpeakers.minCleanSec":[1,2],"vad.threshold":[0.2]}'
// Grid keys are DiarizationSettings' group.setting (settings.ts) and vad.* (SpeechProbabilityOptions); segmentation.hopSec re-runs the network.
// --model / --segmentation: a fold's LDA and segmentation network, as eval/run.ts takes them.
// --dataset may list several folders (comma-separated): e.g. the three folds' sets, each with its
// own --model and --segmentation when those contain {k} (the fold number of fold-K folders).
import { parseArgs } from 'node:util';
import { basename, join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { decodeAudio } from '../packages/analysis/src/audio/decode.ts';
import { FrontEnd, type FrontEndOutput } from '../packages/analysis/src/speech/front-end.ts';
import { combinedSpeechProbability, regionsToMask, SPEECH_PROBABILITY_DEFAULTS, speechFromProbabilities, type SpeechProbabilityOptions } from '../packages/analysis/src/speech/vad.ts';
import { heardShare } from '../packages/analysis/src/speech/segmentation/local-segmentation.ts';
import { frameProbabilities } from '../packages/analysis/src/speech/silero-vad.ts';
import { loadSegmentationModel, type SegmentationModel } from '../packages/analysis/src/speech/segmentation/model.ts';
import { builtInSegmentation } from '../packages/analysis/src/speech/segmentation/built-in.ts';
import { diarizeSegmented } from '../packages/analysis/src/speech/diarization/segmented.ts';
import { DIARIZATION_SETTINGS, type DiarizationSettings } from '../packages/analysis/src/speech/diarization/settings.ts';
import { parseEmbeddingModel, type WindowEmbeddingModel } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { DEFAULT_EMBEDDING } from '../packages/analysis/src/speech/diarization/default-embedding.ts';
import { frameTrackToSegments, unionPerSpeaker } from '../packages/analysis/src/speech/turns.ts';
import { readManifest, readRttm } from './dataset.ts';
import { scoreDiarization, type Seg } from './der.ts';

const { values } = parseArgs({ options: { dataset: { type: 'string' }, grid: { type: 'string', default: '{}' }, segmentation: { type: 'string' }, model: { type: 'string' }, files: { type: 'string' }, json: { type: 'string' } } });
if (!values.dataset) throw new Error('usage: node eval/sweep.ts --dataset DIR[,DIR] --grid JSON [--segmentation FILE.onnx] [--model LDA.json]');
const grid = JSON.parse(values.grid!) as Record<string, (number | string)[]>;
const keys = Object.keys(grid);
const settingsList: Record<string, number | string>[] = keys.reduce<Record<string, number | string>[]>((acc, k) => acc.flatMap((a) => grid[k]!.map((v) => ({ ...a, [k]: v }))), [{}]);

/** The settings with a grid point's values: keys are group.setting (DiarizationSettings), or vad.threshold. */
function settingsOf(p: Record<string, number | string>): { s: DiarizationSettings; vad: SpeechProbabilityOptions } {
  const s = structuredClone(DIARIZATION_SETTINGS);
  const vad: Record<string, number> = {};
  for (const [k, v] of Object.entries(p)) {
    const [group, key] = k.split('.') as [string, string];
    if (group === 'vad' && key) vad[key] = Number(v);
    else if (group in s && key) ((s as unknown as Record<string, Record<string, number | string>>)[group]!)[key] = v;
    else throw new Error(`unknown grid key ${k}`);
  }
  return { s, vad };
}

const foldOf = (dir: string): string => /fold-(\d+)/.exec(basename(dir))?.[1] ?? '';
interface Prepared {
  name: string;
  ref: Seg[];
  refSpeakers: number;
  fronts: Map<number, FrontEndOutput>;
  model: SegmentationModel;
  embedding: WindowEmbeddingModel;
}
const hops = [...new Set(settingsList.map((p) => settingsOf(p).s.segmentation.hopSec))];
const prepared: Prepared[] = [];
for (const dir of values.dataset.split(',')) {
  const k = foldOf(dir);
  const model = values.segmentation ? loadSegmentationModel(values.segmentation.replace('{k}', k)) : builtInSegmentation();
  const embedding = values.model ? parseEmbeddingModel(JSON.parse(readFileSync(values.model.replace('{k}', k), 'utf8'))) : DEFAULT_EMBEDDING;
  for (const file of readManifest(dir).files) {
    if (values.files && !values.files.split(',').includes(file.name)) continue;
    const fronts = new Map<number, FrontEndOutput>();
    for (const hopSec of hops) {
      const front = new FrontEnd({ segmentation: { model, hopSec } });
      for await (const chunk of decodeAudio(join(dir, file.wav))) front.push(chunk);
      fronts.set(hopSec, front.finish());
    }
    const ref = readRttm(join(dir, file.rttm));
    prepared.push({ name: `${k}/${file.name}`, ref, refSpeakers: new Set(ref.map((r) => r.speaker)).size, fronts, model, embedding });
  }
  process.stderr.write(`${dir}: prepared\n`);
}

/** Frames where two or more reference speakers speak. */
function overlapFrames(ref: Seg[], frames: number): Uint8Array {
  const n = new Uint8Array(frames);
  for (const r of ref) for (let i = Math.round(r.start * 100); i < Math.min(frames, Math.round(r.end * 100)); i++) n[i] = n[i]! + 1;
  return n.map((x) => (x >= 2 ? 1 : 0));
}

const rows = [];
for (const p of settingsList) {
  const { s, vad } = settingsOf(p);
  const vadOptions = { ...SPEECH_PROBABILITY_DEFAULTS, ...vad };
  let err = 0;
  let scored = 0;
  let miss = 0;
  let fa = 0;
  let conf = 0;
  let exact = 0;
  let over = 0;
  let under = 0;
  let ovTp = 0;
  let ovHyp = 0;
  let ovRef = 0;
  const files = [];
  for (const f of prepared) {
    const front = f.fronts.get(s.segmentation.hopSec)!;
    const feats = front.features;
    const heard = heardShare(front.segmentation!, f.model.spec.windowSec, feats.frames);
    const regions = speechFromProbabilities(combinedSpeechProbability(frameProbabilities(front.speechWindows, feats.frames), heard, vadOptions.segmentationWeight), feats, vadOptions);
    const mask = regionsToMask(regions, feats.frames);
    const d = diarizeSegmented(feats, regions, mask, front.segmentation!, f.model.spec.windowSec, f.embedding, { min: 1, max: Infinity }, s);
    const segs = unionPerSpeaker([...frameTrackToSegments(d.frameSpeaker), ...frameTrackToSegments(d.overlapSpeaker)]);
    const hyp = segs.map((g) => ({ speaker: String(g.speaker), start: g.start, end: g.end }));
    const r = scoreDiarization(f.ref, hyp, 0.25);
    err += r.missed + r.falseAlarm + r.confusion;
    miss += r.missed;
    fa += r.falseAlarm;
    conf += r.confusion;
    scored += r.scored;
    const o = overlapFrames(f.ref, feats.frames);
    for (let i = 0; i < feats.frames; i++) {
      const hypO = d.overlapSpeaker[i]! >= 0;
      if (hypO && o[i]) ovTp++;
      if (hypO) ovHyp++;
      if (o[i]) ovRef++;
    }
    if (d.speakers === f.refSpeakers) exact++;
    else if (d.speakers > f.refSpeakers) over++;
    else under++;
    files.push({ name: f.name, der: r.der, ref: f.refSpeakers, hyp: d.speakers, evidence: d.countEvidence ?? null });
  }
  const row = { setting: p, overlapPrecision: ovTp / Math.max(1, ovHyp), overlapRecall: ovTp / Math.max(1, ovRef), der: err / scored, missed: miss / scored, falseAlarm: fa / scored, confusion: conf / scored, exact: exact / prepared.length, over, under, files };
  rows.push(row);
  console.log(`${JSON.stringify(p)}  DER ${(100 * row.der).toFixed(1)} % (miss ${(100 * row.missed).toFixed(1)} / fa ${(100 * row.falseAlarm).toFixed(1)} / conf ${(100 * row.confusion).toFixed(1)})  exact ${exact}/${prepared.length}  over ${over} under ${under}  overlap P ${row.overlapPrecision.toFixed(2)} R ${row.overlapRecall.toFixed(2)}`);
}
if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 1));
