// Where the segmented diarization loses: its local speakers (speech/diarization/local-speakers.ts)
// against the reference. For every local speaker with an embedding: the reference voice holding
// most of its clean frames and the share it holds (purity: the segmentation's error), and, over
// pairs of embedded local speakers of different windows, the cosine distance of same-voice and
// different-voice pairs (the embedding's error): their medians, and the equal error rate of the
// distance as a same-voice test.
//   node eval/local-speakers-check.ts --dataset DIR [--segmentation FILE.onnx] [--model LDA.json] [--files a,b] [--per-file]
// --per-file adds, per file, the median purity of its local speakers and the distance between
// pure (>= 0.9) items of different voices: the embedding's error without the segmentation's mixing.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { NUM_CEPS } from '../packages/analysis/src/speech/features.ts';
import { DIARIZATION_SETTINGS } from '../packages/analysis/src/speech/diarization/settings.ts';
import { modellingMask, standardisedCepstra } from '../packages/analysis/src/speech/diarization/speaker-frames.ts';
import { parseEmbeddingModel, rangeEmbedder } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { DEFAULT_EMBEDDING } from '../packages/analysis/src/speech/diarization/default-embedding.ts';
import { localSpeakers, windowFrames } from '../packages/analysis/src/speech/diarization/local-speakers.ts';
import { assignLocalSpeakers } from '../packages/analysis/src/speech/diarization/assign.ts';
import { reconstruct } from '../packages/analysis/src/speech/diarization/reconstruct.ts';
import { frameTrackToSegments, unionPerSpeaker } from '../packages/analysis/src/speech/turns.ts';
import { readManifest, readRttm } from './dataset.ts';
import { segmentationModel, segmentedAudio } from './segmented-audio.ts';
import { scoreDiarization } from './der.ts';
import { equalErrorRate } from './eer.ts';

const { values } = parseArgs({ options: { dataset: { type: 'string' }, segmentation: { type: 'string' }, model: { type: 'string' }, files: { type: 'string' }, 'per-file': { type: 'boolean' } } });
if (!values.dataset) throw new Error('usage: node eval/local-speakers-check.ts --dataset DIR [--segmentation FILE.onnx] [--model LDA.json]');
const model = segmentationModel(values.segmentation);
const embModel = values.model ? parseEmbeddingModel(JSON.parse(readFileSync(values.model, 'utf8'))) : DEFAULT_EMBEDDING;
const purities: number[] = [];
// Clean frames of embedded local speakers, and those of them that are not the majority voice's.
let cleanFrames = 0;
let minorityFrames = 0;
// DER with the local speakers given their reference voice (the clustering made perfect): what the
// segmentation and the reconstruction alone cost.
const oracle = { missed: 0, falseAlarm: 0, confusion: 0, scored: 0 };
const same: number[] = [];
const diff: number[] = [];
let locals = 0;
let embedded = 0;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] ?? NaN;
function cosineDistance(a: Float64Array, b: Float64Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let x = 0; x < a.length; x++) {
    dot += a[x]! * b[x]!;
    na += a[x]! * a[x]!;
    nb += b[x]! * b[x]!;
  }
  return 1 - dot / (Math.sqrt(na * nb) || 1);
}
for (const file of readManifest(values.dataset).files) {
  if (values.files && !values.files.split(',').includes(file.name)) continue;
  const { features: f, segmentation, regions, speech } = await segmentedAudio(values.dataset, file.wav, model);
  const mask = modellingMask(f, speech);
  const embedder = rangeEmbedder(embModel, standardisedCepstra(f, mask), NUM_CEPS, mask, { speech, regions, fbank: f.fbank ?? null });
  const wf = windowFrames(segmentation, model.spec.windowSec, f.frames);
  const ls = localSpeakers(segmentation, wf, speech, embedder, Math.round(DIARIZATION_SETTINGS.localSpeakers.minCleanSec * 100));
  // Reference voice of every frame where exactly one speaks.
  const ref = readRttm(join(values.dataset, file.rttm));
  const names = [...new Set(ref.map((r) => r.speaker))];
  const owner = new Int16Array(f.frames).fill(-1);
  const count = new Uint8Array(f.frames);
  for (const r of ref) for (let i = Math.round(r.start * 100); i < Math.min(f.frames, Math.round(r.end * 100)); i++) {
    count[i] = count[i]! + 1;
    owner[i] = names.indexOf(r.speaker);
  }
  const voiceOf: number[] = [];
  // This file's purities, and which items are pure (>= 0.9): the distances between pure items
  // of different voices are the embedding's error alone, without the segmentation's mixing.
  const filePurity: number[] = [];
  const pureItem: boolean[] = [];
  locals += ls.length;
  for (const l of ls) {
    if (!l.embedding) continue;
    embedded++;
    const votes = new Array<number>(names.length).fill(0);
    let n = 0;
    for (const i of l.clean) if (count[i] === 1) {
      votes[owner[i]!]!++;
      n++;
    }
    const best = votes.indexOf(Math.max(...votes));
    voiceOf.push(n > 0 ? best : -1);
    if (n > 0) purities.push(votes[best]! / n);
    if (n > 0) filePurity.push(votes[best]! / n);
    pureItem.push(n > 0 && votes[best]! / n >= 0.9);
    cleanFrames += n;
    minorityFrames += n - (votes[best] ?? 0);
  }
  {
    const L = segmentation.speakers;
    const speakerOf = new Int16Array(segmentation.windows.length * L).fill(-1);
    let x = 0;
    for (const l of ls) if (l.embedding) {
      if (voiceOf[x]! >= 0) speakerOf[l.window * L + l.local] = voiceOf[x]!;
      x++;
    }
    assignLocalSpeakers(segmentation, wf, speech, ls, speakerOf, [], null);
    const { first, second } = reconstruct(segmentation, wf, speakerOf, names.length, f.frames, regions, speech, DIARIZATION_SETTINGS.overlap);
    const hyp = unionPerSpeaker([...frameTrackToSegments(first), ...frameTrackToSegments(second)]).map((g) => ({ speaker: String(g.speaker), start: g.start, end: g.end }));
    const r = scoreDiarization(ref, hyp, 0.25);
    oracle.missed += r.missed;
    oracle.falseAlarm += r.falseAlarm;
    oracle.confusion += r.confusion;
    oracle.scored += r.scored;
  }
  const emb = ls.filter((l) => l.embedding);
  const fileSame: number[] = [];
  const fileDiff: number[] = [];
  const fileWindow: number[] = [];
  const pureDiff: number[] = [];
  for (let a = 0; a < emb.length; a++)
    for (let b = a + 1; b < emb.length; b++) {
      const d = cosineDistance(emb[a]!.embedding!, emb[b]!.embedding!);
      if (emb[a]!.window === emb[b]!.window) {
        fileWindow.push(d);
        continue;
      }
      if (voiceOf[a]! < 0 || voiceOf[b]! < 0) continue;
      (voiceOf[a] === voiceOf[b] ? same : diff).push(d);
      (voiceOf[a] === voiceOf[b] ? fileSame : fileDiff).push(d);
      if (voiceOf[a] !== voiceOf[b] && pureItem[a] && pureItem[b]) pureDiff.push(d);
    }
  // Each item's nearest item of a window that shares no frame with its own: most voices speak
  // again, so this is the near end of the same-voice distances, seen without the reference.
  const nearest: number[] = [];
  for (let a = 0; a < emb.length; a++) {
    let best = Infinity;
    for (let b = 0; b < emb.length; b++) {
      const wa = wf[emb[a]!.window]!;
      const wb = wf[emb[b]!.window]!;
      if (a === b || (wb.start < wa.end && wa.start < wb.end)) continue;
      best = Math.min(best, cosineDistance(emb[a]!.embedding!, emb[b]!.embedding!));
    }
    if (Number.isFinite(best)) nearest.push(best);
  }
  // Per file: what the reference says of the distances, beside what the recording alone shows
  // (pairs of one window: two voices by the segmentation's word).
  if (values['per-file'])
    console.log(`${file.name}\tvoices ${names.length}\titems ${emb.length}\tsame ${median(fileSame).toFixed(3)}\tdiff ${median(fileDiff).toFixed(3)}\tone-window ${median(fileWindow).toFixed(3)} (${fileWindow.length})\tq10 diff ${quantile(fileDiff, 0.1).toFixed(3)}\tq90 same ${quantile(fileSame, 0.9).toFixed(3)}\tnearest ${median(nearest).toFixed(3)}\tpurity ${median(filePurity).toFixed(2)} (${filePurity.filter((p) => p < 0.9).length} under 0.9)\tdiff of pure items ${median(pureDiff).toFixed(3)}`);
}
purities.sort((a, b) => a - b);
console.log(`local speakers ${locals}, embedded ${embedded}; purity median ${median(purities).toFixed(3)}, share under 0.9: ${(purities.filter((p) => p < 0.9).length / purities.length).toFixed(3)}; clean frames not the majority voice's: ${((100 * minorityFrames) / Math.max(1, cleanFrames)).toFixed(1)} %`);
console.log(`cosine distance same voice median ${median(same).toFixed(3)} (${same.length} pairs), different ${median(diff).toFixed(3)} (${diff.length}); EER ${(100 * equalErrorRate(same.map((d) => -d), diff.map((d) => -d))).toFixed(1)} %`);
const pct = (x: number): string => ((100 * x) / oracle.scored).toFixed(1);
console.log(`DER at collar 0.25 s with the clustering made perfect (local speakers given their reference voice): ${pct(oracle.missed + oracle.falseAlarm + oracle.confusion)} % (missed ${pct(oracle.missed)}, false alarm ${pct(oracle.falseAlarm)}, confusion ${pct(oracle.confusion)}; a file without an embedded local speaker scores as all missed)`);
