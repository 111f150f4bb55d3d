// How well speaker representations tell voices apart across recordings when the diarization is
// right: each reference speaker's voiceprint (CepstralVoiceprint) and mean window embedding (the
// fold's model) from the reference segments, and the equal error rate of a cosine threshold over
// pairs of appearances in different files of one fold:
//   node eval/identity-oracle.ts VAL_DIR MODELS_DIR      (MODELS_DIR/fold-K.json per VAL_DIR/fold-K)
import { readFileSync, readdirSync } from 'node:fs';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { analyzeFrames } from '../packages/analysis/src/speech/features.ts';
import { detectSpeech, regionsToMask } from '../packages/analysis/src/speech/vad.ts';
import { CepstralVoiceprint } from '../packages/analysis/src/speech/voiceprint.ts';
import { modellingMask, standardisedCepstra } from '../packages/analysis/src/speech/diarization/speaker-frames.ts';
import { parseEmbeddingModel, rangeEmbedder, speakerEmbeddings } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { cosineSimilarity } from '../packages/analysis/src/speech/stats.ts';
import { equalErrorRate } from './eer.ts';
const [valDir, modelDir] = process.argv.slice(2);
if (!valDir || !modelDir) {
  console.error('usage: node eval/identity-oracle.ts VAL_DIR MODELS_DIR');
  process.exit(2);
}
const print = new CepstralVoiceprint();
const all: Record<string, { id: string; file: string; v: number[] }[]> = { voiceprint: [], embedding: [] };
for (const fold of readdirSync(valDir!).filter((d) => d.startsWith('fold-'))) {
  const emb = parseEmbeddingModel(JSON.parse(readFileSync(`${modelDir}/${fold}.json`, 'utf8')));
  const dir = `${valDir}/${fold}`;
  const man = JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8'));
  for (const file of man.files) {
    const f = analyzeFrames(await decodeAudioToArray(`${dir}/${file.wav}`));
    const ids: string[] = file.speakers;
    const track = new Int16Array(f.frames).fill(-1);
    for (const line of readFileSync(`${dir}/${file.rttm}`, 'utf8').split('\n')) {
      const p = line.trim().split(/\s+/);
      if (p[0] !== 'SPEAKER') continue;
      const s = Math.round(Number(p[3]) * 100), e = s + Math.round(Number(p[4]) * 100);
      const k = ids.indexOf(p[7]!);
      for (let i = s; i < e && i < f.frames; i++) track[i] = track[i] === -1 ? k : -2; // -2 overlap
    }
    for (let i = 0; i < track.length; i++) if (track[i] === -2) track[i] = -1;
    const regions = detectSpeech(f);
    const model = modellingMask(f, regionsToMask(regions, f.frames));
    const r = rangeEmbedder(emb, standardisedCepstra(f, model), 20, model)!;
    const sums = speakerEmbeddings(r, model, regions, track, ids.length);
    ids.forEach((id, k) => {
      const key = `${fold}/${id}`;
      all.voiceprint!.push({ id: key, file: file.name, v: print.extract(f, track, k) });
      const s = sums[k]!;
      if (s.n >= 2) {
        const mean = Array.from(s.sum, (x) => x / s.n);
        all.embedding!.push({ id: key, file: file.name, v: mean });
      }
    });
  }
}
for (const [name, xs] of Object.entries(all)) {
  if (!xs.length) continue;
  const same: number[] = [], diff: number[] = [];
  for (let i = 0; i < xs.length; i++) for (let j = i + 1; j < xs.length; j++) {
    if (xs[i]!.file === xs[j]!.file) continue;
    if (xs[i]!.id.split('/')[0] !== xs[j]!.id.split('/')[0]) continue; // within fold
    (xs[i]!.id === xs[j]!.id ? same : diff).push(cosineSimilarity(xs[i]!.v, xs[j]!.v));
  }
  console.log(`${name}: ${xs.length} appearances, ${same.length} same-voice and ${diff.length} different-voice pairs, EER ${(100 * equalErrorRate(same, diff)).toFixed(1)} %`);
}
