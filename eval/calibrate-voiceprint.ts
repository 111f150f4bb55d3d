// Calibrates the cepstral voiceprint on a dev folder and rewrites
// packages/analysis/src/speech/voiceprint-calibration.ts:
//   node eval/calibrate-voiceprint.ts --dataset DIR [--dry-run]
// 1. runs the engine on every file with an extractor that returns the raw statistics;
// 2. centre and scale = mean and standard deviation of each statistic over all appearances;
// 3. the same-speaker threshold: cross-recording identity F1 is swept over 0.30-0.99 with speakers
//    linked file after file (as eval/run.ts scores it), and the middle of the longest run of
//    thresholds at the best F1 is kept (pickThreshold in eval/identity.ts).
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FrameFeatures } from '../packages/analysis/src/speech/features.ts';
import { CepstralVoiceprint, normaliseVoiceStats, rawVoiceStats, type VoiceprintExtractor } from '../packages/analysis/src/speech/voiceprint.ts';
import { readManifest } from './dataset.ts';
import { evaluateFile, linkAcrossFiles } from './run.ts';
import { pairwiseIdentity, pickThreshold, THRESHOLD_SWEEP } from './identity.ts';

const rawExtractor: VoiceprintExtractor = {
  name: 'raw-voice-stats',
  dimensions: new CepstralVoiceprint().dimensions,
  extract: (f: FrameFeatures, track: Int16Array, s: number) => rawVoiceStats(f, track, s) ?? [],
};

const { values } = parseArgs({ options: { dataset: { type: 'string' }, 'dry-run': { type: 'boolean' } } });
if (!values.dataset) throw new Error('usage: node eval/calibrate-voiceprint.ts --dataset DIR [--dry-run]');
const manifest = readManifest(values.dataset);
const results: Awaited<ReturnType<typeof evaluateFile>>[] = [];
for (const file of manifest.files) results.push(await evaluateFile(values.dataset, file, { voiceprint: rawExtractor }));
const raws = results.flatMap((r) => r.analysis.speakers.map((s) => s.voiceprint)).filter((v) => v.length > 0);
const dims = raws[0]?.length ?? 0;
const center = Array.from({ length: dims }, (_, d) => raws.reduce((a, v) => a + v[d]!, 0) / raws.length);
const scale = Array.from({ length: dims }, (_, d) => Math.sqrt(raws.reduce((a, v) => a + (v[d]! - center[d]!) ** 2, 0) / raws.length) || 1);
for (const r of results) for (const s of r.analysis.speakers) s.voiceprint = s.voiceprint.length ? normaliseVoiceStats(s.voiceprint, center, scale) : [];
const sweep = THRESHOLD_SWEEP.map((threshold) => {
  const id = pairwiseIdentity(linkAcrossFiles(results, threshold));
  console.log(`threshold ${threshold.toFixed(2)}: P ${id.precision?.toFixed(3)} R ${id.recall?.toFixed(3)} F1 ${id.f1?.toFixed(3)}`);
  return { threshold, f1: id.f1 ?? 0, precision: id.precision ?? 0, recall: id.recall ?? 0 };
});
const picked = pickThreshold(sweep);
const best = sweep.find((s) => s.threshold === picked.threshold)!;
const plateau = sweep.filter((s) => s.f1 === best.f1).map((s) => s.threshold);
console.log(`best: ${JSON.stringify(best)} (F1 at its maximum for ${plateau.join(', ')}) over ${raws.length} speaker appearances`);
const round = (x: number): number => Math.round(x * 1e4) / 1e4;
const text = `// Calibration of the cepstral voiceprint, produced by \`node eval/calibrate-voiceprint.ts
// --dataset DIR\` on the dev set (docs/analysis-speech.md): the mean and standard deviation of
// each raw statistic over all ${raws.length} speaker appearances, and the cosine threshold in the
// middle of the range that maximised cross-recording identity F1 (${best.f1.toFixed(3)}: P ${best.precision.toFixed(3)}, R ${best.recall.toFixed(3)}).
// Regenerate with that script; do not edit by hand.
export const VOICEPRINT_CENTER: number[] = ${JSON.stringify(center.map(round))};
export const VOICEPRINT_SCALE: number[] = ${JSON.stringify(scale.map(round))};
export const DEV_SET_F1_THRESHOLD = ${best.threshold};
`;
if (!values['dry-run']) writeFileSync(fileURLToPath(new URL('../packages/analysis/src/speech/voiceprint-calibration.ts', import.meta.url)), text);
