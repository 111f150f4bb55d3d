// Verification EER of voiceprints on the samples of training/train-voiceprint-lda.ts (one voice of
// one simulated session each, every time through another channel), each fold's samples scored
// with the model trained without that fold: the trained voiceprint against the cepstral one
// (voiceprint.ts, its raw statistics rebuilt from the same samples and the shipped calibration).
//   node eval/voiceprint-eer.ts --samples FILE.jsonl --models DIR
// Pairs are two samples of one fold, same class (voice at one speed) or not; the other speeds of
// the same voice are left out of the different pairs (another speed is nearly the same voice).
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bandShapeProjection, normaliseVoiceStats, VOICE_BANDS } from '../packages/analysis/src/speech/voiceprint.ts';
import { projectVoiceStats, type VoiceprintModel } from '../packages/analysis/src/speech/trained-voiceprint.ts';
import { cosineSimilarity } from '../packages/analysis/src/speech/stats.ts';
import { equalErrorRate } from './eer.ts';

interface Sample {
  cls: number;
  fold: number;
  v: number[];
}

const SPEEDS = 3;
const SHAPE = bandShapeProjection(VOICE_BANDS, 12);

/** The cepstral voiceprint of a sample: the in-band shape of its mean c1..c19 and F0 quantiles 0.1 / 0.5 / 0.9. */
function cepstral(v: number[]): number[] {
  const shape = SHAPE.map((row) => row.reduce((a, w, d) => a + w * v[d]!, 0));
  return normaliseVoiceStats([...shape, v[38]!, v[40]!, v[42]!]);
}

const { values } = parseArgs({ options: { samples: { type: 'string' }, models: { type: 'string' } } });
if (!values.samples || !values.models) {
  console.error('usage: node eval/voiceprint-eer.ts --samples FILE.jsonl --models DIR');
  process.exit(2);
}
const samples = readFileSync(values.samples, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Sample | { draw: string }).filter((x): x is Sample => !('draw' in x));
const folds = [...new Set(samples.map((s) => s.fold))].sort();
const lines = ['| fold | samples | same / different pairs | cepstral voiceprint EER % | trained voiceprint EER % |', '|---|---|---|---|---|'];
for (const k of folds) {
  const model = JSON.parse(readFileSync(join(values.models, `fold-${k}.json`), 'utf8')) as VoiceprintModel;
  const mine = samples.filter((s) => s.fold === k);
  const a = mine.map((s) => cepstral(s.v));
  const b = mine.map((s) => projectVoiceStats(model, s.v));
  const same = { a: [] as number[], b: [] as number[] };
  const diff = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < mine.length; i++)
    for (let j = i + 1; j < mine.length; j++) {
      const x = mine[i]!.cls;
      const y = mine[j]!.cls;
      const into = x === y ? same : Math.floor(x / SPEEDS) === Math.floor(y / SPEEDS) ? null : diff;
      if (!into) continue;
      into.a.push(cosineSimilarity(a[i]!, a[j]!));
      into.b.push(cosineSimilarity(b[i]!, b[j]!));
    }
  lines.push(`| ${k} | ${mine.length} | ${same.a.length} / ${diff.a.length} | ${(100 * equalErrorRate(same.a, diff.a)).toFixed(1)} | ${(100 * equalErrorRate(same.b, diff.b)).toFixed(1)} |`);
}
console.log(lines.join('\n'));
