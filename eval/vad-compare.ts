// Speech detection alone, on an evaluation folder (the dev set's format: the AMI excerpts of
// eval/ami-set.ts, a fold of eval/build-validation.ts): missed speech and false alarm against the
// union of the RTTM's speakers, at collar 0.25 s and 0, for the engine's detector (Silero VAD,
// silero-vad.ts, through speechFromProbabilities) at each of a list of thresholds, the other
// Silero weights of the package, and the model-free detector the engine used before.
//   node eval/vad-compare.ts --dataset DIR [--thresholds 0.5,0.35,0.25] [--weights silero_vad_16k_op15.onnx,silero_vad.onnx]
//                            [--min-silence SEC] [--pad SEC] [--json OUT]
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { analyzeFrames, FRAME_SEC, type FrameFeatures } from '../packages/analysis/src/speech/features.ts';
import { detectSpeech, speechFromProbabilities, type FrameRegion } from '../packages/analysis/src/speech/vad.ts';
import { frameProbabilities, SileroVad, sileroModel } from '../packages/analysis/src/speech/silero-vad.ts';
import { readManifest, readRttm } from './dataset.ts';
import { scoreDiarization, type Seg } from './der.ts';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string' },
    thresholds: { type: 'string', default: '0.5,0.35,0.25' },
    weights: { type: 'string', default: 'silero_vad_16k_op15.onnx' },
    'min-silence': { type: 'string' },
    pad: { type: 'string' },
    json: { type: 'string' },
  },
});
if (!values.dataset) throw new Error('usage: node eval/vad-compare.ts --dataset DIR [--thresholds 0.5,0.35] [--weights FILE,...]');
const thresholds = values.thresholds!.split(',').map(Number);
const weights = values.weights!.split(',');

/** The union of the speakers' segments: speech, whoever speaks. */
function union(segs: Seg[]): Seg[] {
  const out: Seg[] = [];
  for (const s of [...segs].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ speaker: 'S', start: s.start, end: s.end });
  }
  return out;
}

const asSegs = (regions: FrameRegion[]): Seg[] => regions.map((r) => ({ speaker: 'S', start: r.start * FRAME_SEC, end: r.end * FRAME_SEC }));

interface Total {
  sec: number;
  m25: number;
  f25: number;
  m0: number;
  f0: number;
}
const totals = new Map<string, Total>();
let ref25 = 0;
let ref0 = 0;
let audio = 0;

function add(name: string, ref: Seg[], hyp: Seg[], sec: number, first: boolean): void {
  const a = scoreDiarization(ref, hyp, 0.25);
  const b = scoreDiarization(ref, hyp, 0);
  const t = totals.get(name) ?? { sec: 0, m25: 0, f25: 0, m0: 0, f0: 0 };
  t.sec += sec;
  t.m25 += a.missed;
  t.f25 += a.falseAlarm;
  t.m0 += b.missed;
  t.f0 += b.falseAlarm;
  totals.set(name, t);
  if (first) {
    ref25 += a.scored;
    ref0 += b.scored;
  }
}

const options = { ...(values['min-silence'] ? { minSilenceSec: Number(values['min-silence']) } : {}), ...(values.pad ? { padSec: Number(values.pad) } : {}) };
for (const file of readManifest(values.dataset).files) {
  const samples = await decodeAudioToArray(join(values.dataset, file.wav));
  audio += samples.length / 16000;
  const ref = union(readRttm(join(values.dataset, file.rttm)));
  let t = performance.now();
  const f: FrameFeatures = analyzeFrames(samples);
  const featureSec = (performance.now() - t) / 1000;
  t = performance.now();
  add('model-free (the engine before)', ref, asSegs(detectSpeech(f)), featureSec + (performance.now() - t) / 1000, true);
  for (const w of weights) {
    t = performance.now();
    const vad = new SileroVad(sileroModel(w));
    vad.push(samples);
    const prob = frameProbabilities(vad.finish(), f.frames);
    const sec = (performance.now() - t) / 1000;
    for (const threshold of thresholds) add(`Silero ${w}, threshold ${threshold}`, ref, asSegs(speechFromProbabilities(prob, f, { threshold, ...options })), sec / thresholds.length, false);
  }
}
const pct = (x: number, of: number): string => ((100 * x) / of).toFixed(2);
const rows = [...totals].map(([name, t]) => ({ name, missed25: pct(t.m25, ref25), falseAlarm25: pct(t.f25, ref25), missed0: pct(t.m0, ref0), falseAlarm0: pct(t.f0, ref0), speed: (audio / t.sec).toFixed(0) }));
console.log('| detector | missed % (collar 0.25) | false alarm % (collar 0.25) | sum | missed % (collar 0) | false alarm % (collar 0) | x real time |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${r.missed25} | ${r.falseAlarm25} | ${(Number(r.missed25) + Number(r.falseAlarm25)).toFixed(2)} | ${r.missed0} | ${r.falseAlarm0} | ${r.speed} |`);
if (values.json) writeFileSync(values.json, JSON.stringify({ dataset: values.dataset, audioSec: audio, rows }, null, 1));
