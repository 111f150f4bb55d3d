// Trains the window speaker embedding's LDA (packages/analysis/src/speech/diarization/window-embedding.ts)
// on the corpus that training/speaker-data.sh builds from Debian packages (real recorded voices,
// none of them in the dev set):
//   node training/train-speaker-lda.ts --data /work/spk-train \
//     --out packages/analysis/src/speech/diarization/speaker-lda.model.ts --sessions 200
// Each training "session" is what the engine sees in a recording: two to four speakers' clips
// joined into one signal, each speaker through its own random channel (band limits, an EQ bump,
// level, sometimes noise), analysed exactly as analyze.ts does (VAD, modelling frames,
// cepstra standardised over the session). Windows of 1.5 s (hop 0.75 s) that one speaker fills
// are the LDA's samples; a speaker's windows from many sessions (so many channels and contexts)
// are its class.
import { parseArgs } from 'node:util';
import { windowStats } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { fitLda } from '../packages/analysis/src/speech/diarization/lda.ts';
import { writeLdaModel } from './lda-model-file.ts';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { loadSpeakers, SessionSimulator } from './sessions.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    out: { type: 'string' },
    sessions: { type: 'string' },
    keep: { type: 'string' },
    augment: { type: 'string' },
    seed: { type: 'string' },
    exclude: { type: 'string' },
    win: { type: 'string' },
    speeds: { type: 'string' },
    telephone: { type: 'string' },
    reverb: { type: 'string' },
  },
});
if (!values.data || !values.out) {
  console.error('usage: node training/train-speaker-lda.ts --data DIR --out FILE(.ts|.json) [--sessions 200] [--keep 24] [--seed 1] [--augment 0|1] [--win 150] [--exclude id,id] [--speeds 0.88,0.94,1,1.06,1.12] [--telephone 0.15] [--reverb 0.15]');
  process.exit(2);
}
const rand = seededRandom(Number(values.seed ?? 1));
const augment = values.augment !== '0';
const speakers = loadSpeakers(values.data, new Set((values.exclude ?? '').split(',').filter(Boolean)));
console.error(`${speakers.length} speakers`);
// --speeds: each voice at each speed factor is its own class (more pseudo-speakers to learn from);
// --telephone / --reverb: shares of sessions through a GSM codec or reverberation.
const simulator = new SessionSimulator(speakers, rand, augment, {
  speeds: values.speeds ? values.speeds.split(',').map(Number) : [1],
  telephoneShare: Number(values.telephone ?? 0),
  reverbShare: Number(values.reverb ?? 0),
});

const sessions = Number(values.sessions ?? 200);
const WIN = Number(values.win ?? 150);
const vectors: Float64Array[] = [];
const labels: number[] = [];
for (let s = 0; s < sessions; s++) {
  const { features: f, model, cep, owner } = await simulator.next();
  for (let w = 0; w + WIN <= f.frames; w += WIN >> 1) {
    const o = owner[w]!;
    if (o < 0 || owner[w + WIN - 1] !== o) continue;
    const v = windowStats(cep, 20, model, w, w + WIN);
    if (!v) continue;
    vectors.push(v);
    labels.push(o);
  }
  if (s % 50 === 0) console.error(`session ${s}: ${vectors.length} windows`);
}
const keep = Number(values.keep ?? 24);
const lda = fitLda(vectors, labels, keep);
const trained = `${speakers.length} voices (${speakers.map((s) => s.id).join(', ')}); ${sessions} sessions, ${vectors.length} windows, seed ${values.seed ?? 1}, channel augmentation ${augment ? 'on' : 'off'}`;
writeLdaModel(values.out, 'window-stats-lda-v1', WIN, lda, trained, 'training/train-speaker-lda.ts');
console.error(`wrote ${values.out}: ${vectors.length} windows, ${new Set(labels).size} speakers, ${keep} dims`);
