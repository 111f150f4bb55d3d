// How well the segmentation network hears overlapped speech, before any clustering: per 10 ms
// frame of detected speech, rules that call a frame overlapped from the windows covering it,
// scored against the reference frames where two or more voices speak (precision, recall). The
// reconstruction (speech/diarization/reconstruct.ts) can give a second speaker only where the
// network heard one, so these curves bound the overlap recall of the whole analysis.
//   node eval/overlap-check.ts --dataset DIR [--segmentation FILE.onnx[,FILE.onnx…]]
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import type { LocalSegmentation } from '../packages/analysis/src/speech/segmentation/local-segmentation.ts';
import { windowFrames, type WindowFrames } from '../packages/analysis/src/speech/diarization/local-speakers.ts';
import { readManifest, readRttm } from './dataset.ts';
import { segmentationModel, segmentedAudio } from './segmented-audio.ts';

/** Per frame: how many local speakers the windows' most likely class holds (mean and most), and the mean activity of the second most active local speaker. */
interface Heard {
  mean: Float32Array;
  most: Uint8Array;
  second: Float32Array;
}

function heardPerFrame(seg: LocalSegmentation, windows: WindowFrames[], frames: number): Heard {
  const sum = new Float32Array(frames);
  const second = new Float32Array(frames);
  const cover = new Uint16Array(frames);
  const most = new Uint8Array(frames);
  const L = seg.speakers;
  windows.forEach((wf, w) => {
    for (let i = wf.start; i < wf.end; i++) {
      const t = wf.outputFrame[i - wf.start]!;
      let bits = seg.active[w]![t]!;
      let n = 0;
      for (; bits; bits >>= 1) n += bits & 1;
      sum[i] = sum[i]! + n;
      most[i] = Math.max(most[i]!, n);
      cover[i] = cover[i]! + 1;
      const act = Array.from({ length: L }, (_, s) => seg.activity[w]![t * L + s]!).sort((a, b) => b - a);
      second[i] = second[i]! + (act[1] ?? 0);
    }
  });
  for (let i = 0; i < frames; i++) {
    const c = cover[i]! || 1;
    sum[i] = sum[i]! / c;
    second[i] = second[i]! / c;
  }
  return { mean: sum, most, second };
}

const RULES: [string, (h: Heard, i: number) => boolean][] = [
  ...[1.2, 1.5, 1.8].map((x): [string, (h: Heard, i: number) => boolean] => [`mean heard >= ${x}`, (h, i) => h.mean[i]! >= x]),
  ['some window hears two', (h, i) => h.most[i]! >= 2],
  ...[0.2, 0.3, 0.4].map((x): [string, (h: Heard, i: number) => boolean] => [`second activity >= ${x}`, (h, i) => h.second[i]! >= x]),
];

const { values } = parseArgs({ options: { dataset: { type: 'string' }, segmentation: { type: 'string' } } });
if (!values.dataset) throw new Error('usage: node eval/overlap-check.ts --dataset DIR [--segmentation FILE.onnx]');
const model = segmentationModel(values.segmentation);
const hits = new Array<number>(RULES.length).fill(0);
const calls = new Array<number>(RULES.length).fill(0);
let overlapped = 0;
let overlappedInSpeech = 0;
for (const file of readManifest(values.dataset).files) {
  const { features: f, segmentation, speech } = await segmentedAudio(values.dataset, file.wav, model);
  const heard = heardPerFrame(segmentation, windowFrames(segmentation, model.spec.windowSec, f.frames), f.frames);
  const voices = new Uint8Array(f.frames);
  for (const r of readRttm(join(values.dataset, file.rttm)))
    for (let i = Math.round(r.start * 100); i < Math.min(f.frames, Math.round(r.end * 100)); i++) voices[i] = voices[i]! + 1;
  for (let i = 0; i < f.frames; i++) {
    const truth = voices[i]! >= 2;
    if (truth) overlapped++;
    if (!speech[i]) continue;
    if (truth) overlappedInSpeech++;
    RULES.forEach(([, rule], r) => {
      if (!rule(heard, i)) return;
      calls[r]!++;
      if (truth) hits[r]!++;
    });
  }
}
console.log(`reference overlap: ${(overlapped / 100).toFixed(1)} s, ${(overlappedInSpeech / 100).toFixed(1)} s of it in detected speech`);
console.log('| rule | precision | recall |\n|---|---|---|');
RULES.forEach(([name], r) => console.log(`| ${name} | ${(hits[r]! / (calls[r]! || 1)).toFixed(2)} | ${(hits[r]! / (overlapped || 1)).toFixed(2)} |`));
