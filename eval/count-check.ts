// The spectral speaker count alone (eval/spectral-count.ts), file by file:
// the recording's speech windows embedded with a model and counted, against the manifest's count.
// Much faster than a whole evaluation, to compare count rules and models:
//   node eval/count-check.ts --dataset DIR [--model FILE.json] [--max 8]
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { parseEmbeddingModel } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { decideSpeakerCount, mediaWindows } from './spectral-count.ts';
import { SPEAKER_LDA } from '../packages/analysis/src/speech/diarization/speaker-lda.model.ts';
import { readManifest } from './dataset.ts';

const { values } = parseArgs({ options: { dataset: { type: 'string' }, model: { type: 'string' }, max: { type: 'string', default: '8' }, files: { type: 'string' } } });
if (!values.dataset) {
  console.error('usage: node eval/count-check.ts --dataset DIR [--model FILE.json] [--max 8]');
  process.exit(2);
}
const emb = values.model ? parseEmbeddingModel(JSON.parse(readFileSync(values.model, 'utf8'))) : SPEAKER_LDA;
let ok = 0;
let n = 0;
let absErr = 0;
for (const file of readManifest(values.dataset).files) {
  if (values.files && !values.files.split(',').includes(file.name)) continue;
  const w = (await mediaWindows(join(values.dataset, file.wav), emb))!;
  const d = decideSpeakerCount(w.vectors, w.dims, w.start.length, { min: 1, max: Number(values.max) });
  const got = d?.count ?? (w.start.length ? 1 : 0);
  n++;
  if (got === file.num_speakers) ok++;
  absErr += Math.abs(got - file.num_speakers);
  console.log(`${file.name}\tref ${file.num_speakers}\tgot ${got}\tp ${d?.p ?? '-'}\tgap ${d?.gap.toFixed(3) ?? '-'}\twindows ${w.start.length}\tev ${d?.eigenvalues.slice(0, 8).map((x) => x.toFixed(2)).join(' ') ?? ''}`);
}
console.log(`exact ${ok}/${n}, mean abs error ${(absErr / Math.max(1, n)).toFixed(2)}`);
