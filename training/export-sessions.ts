// Exports simulated sessions (sessions.ts) as the engine's per-frame speaker features, for the
// neural speaker embedding's trainer (train-speaker-net.py):
//   node training/export-sessions.ts --data /work/spk-train --out DIR --sessions 600 [--folds 3] [--seed 1]
//     [--speeds 0.88,0.94,1,1.06,1.12] [--voices 2,4] [--voice-sec 10,40] [--telephone 0.15]
//     [--reverb 0.15] [--room 0] [--noise 0] [--narrowband 0]
// Session s draws its voices from leave-voices-out fold s mod folds alone (eval/validation-corpus.ts):
// the trainer's --exclude-fold K keeps only the sessions of the other folds, so a model for
// fold K never heard the voices of fold K's validation set; without it every session is used.
// --room and --noise: shares of voices put through the corpus's real room responses and of
// sessions under its recorded noise at 5-20 dB SNR (augment.ts; CORPUS/_rir, CORPUS/_noise).
// --narrowband: share of voices taken down to 8 kHz and back (sessions.ts, narrowbandShare).
// Only the frames the engine models (voiced speech; standardised c1..c19 and log F0 over the
// session) are written, with their class (voice x speed factor, numbered over the whole corpus)
// and frame number: DIR/cep.f32 (frames x 20), cls.i16, frame.i32, session.i32, meta.json.
// --features fbank40: instead, the Kaldi-style log mel energies (fbank.ts: 40 bands, povey window,
// samples scaled by 32768) of every speech frame (the VAD's mask), as a fbank network reads them
// through SPEAKER_EMBEDDING_MODEL; meta.json then names them (features) for the exporter.
// --first-session N numbers the sessions from N (two exports with other seeds, N a multiple of
// --folds, can be concatenated).
import { parseArgs } from 'node:util';
import { mkdirSync, openSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { loadSpeakers, SessionSimulator } from './sessions.ts';
import { foldOf } from '../eval/validation-corpus.ts';
import { FBANK_SCALE, FbankAnalyzer, type FbankOptions } from '../packages/analysis/src/speech/fbank.ts';
import { loadAugmentation } from './augment.ts';

const CEPSTRA = 20;

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '/work/spk-train' },
    out: { type: 'string' },
    sessions: { type: 'string', default: '600' },
    folds: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    // Each voice at each speed factor is its own pseudo-speaker.
    speeds: { type: 'string', default: '0.88,0.94,1,1.06,1.12' },
    voices: { type: 'string', default: '2,4' },
    'voice-sec': { type: 'string', default: '10,40' },
    telephone: { type: 'string', default: '0.15' },
    reverb: { type: 'string', default: '0.15' },
    room: { type: 'string', default: '0' },
    noise: { type: 'string', default: '0' },
    narrowband: { type: 'string', default: '0' },
    features: { type: 'string', default: 'cepstra' },
    'first-session': { type: 'string', default: '0' },
  },
});
const FBANK: FbankOptions | null = values.features === 'fbank40' ? { bins: 40, window: 'povey', sampleScale: 32768 } : null;
if (!FBANK && values.features !== 'cepstra') {
  console.error('--features: cepstra or fbank40');
  process.exit(2);
}
const DIMS = FBANK ? FBANK.bins : CEPSTRA;
const firstSession = Number(values['first-session']);
const pair = (s: string): [number, number] => {
  const [a, b] = s.split(',').map(Number);
  return [a!, b ?? a!];
};
const SPEEDS = values.speeds!.split(',').map(Number);
if (!values.out) {
  console.error('usage: node training/export-sessions.ts --data DIR --out DIR [--sessions 600] [--folds 3] [--seed 1]');
  process.exit(2);
}
const folds = Number(values.folds);
const all = loadSpeakers(values.data!);
const globalIndex = new Map(all.map((s, i) => [s.id, i]));
const rand = seededRandom(Number(values.seed));
const real = Number(values.room) > 0 || Number(values.noise) > 0 ? await loadAugmentation(values.data!) : undefined;
// One simulator per fold, drawing that fold's voices, all from one random stream (deterministic by seed).
const sims = Array.from({ length: folds }, (_, fold) => {
  const speakers = all.filter((s) => foldOf(s.id, folds) === fold);
  const toGlobal = Int16Array.from(speakers.flatMap((s) => SPEEDS.map((_, j) => globalIndex.get(s.id)! * SPEEDS.length + j)));
  const options = {
    speeds: SPEEDS,
    telephoneShare: Number(values.telephone),
    reverbShare: Number(values.reverb),
    voices: pair(values.voices!),
    voiceSec: pair(values['voice-sec']!),
    narrowbandShare: Number(values.narrowband),
    ...(real ? { real, roomShare: Number(values.room), noiseShare: Number(values.noise) } : {}),
  };
  return { sim: new SessionSimulator(speakers, rand, true, options), toGlobal };
});
mkdirSync(values.out, { recursive: true });
const files = {
  cep: openSync(join(values.out, 'cep.f32'), 'w'),
  cls: openSync(join(values.out, 'cls.i16'), 'w'),
  frame: openSync(join(values.out, 'frame.i32'), 'w'),
  session: openSync(join(values.out, 'session.i32'), 'w'),
};
let total = 0;
const sessions = Number(values.sessions);
for (let s = 0; s < sessions; s++) {
  const { sim, toGlobal } = sims[s % folds]!;
  const { features, model, cep, owner, signal, speech } = await sim.next();
  let rows: ArrayLike<number> = cep;
  let scale = 1;
  if (FBANK) {
    const fb = new FbankAnalyzer(FBANK, signal.length);
    fb.push(signal);
    rows = fb.finish().data;
    scale = 1 / FBANK_SCALE;
  }
  const take = FBANK ? speech : model;
  const idx: number[] = [];
  for (let i = 0; i < features.frames; i++) if (take[i] && (owner[i] ?? -1) >= 0) idx.push(i);
  const c = new Float32Array(idx.length * DIMS);
  const k = new Int16Array(idx.length);
  idx.forEach((i, j) => {
    for (let d = 0; d < DIMS; d++) c[j * DIMS + d] = (rows[i * DIMS + d] ?? 0) * scale;
    k[j] = toGlobal[owner[i]!]!;
  });
  writeSync(files.cep, c);
  writeSync(files.cls, k);
  writeSync(files.frame, Int32Array.from(idx));
  writeSync(files.session, new Int32Array(idx.length).fill(firstSession + s));
  total += idx.length;
  if (s % 50 === 0) console.error(`session ${s}: ${total} frames`);
}
for (const fd of Object.values(files)) closeSync(fd);
writeFileSync(
  join(values.out, 'meta.json'),
  JSON.stringify({ dims: DIMS, ...(FBANK ? { features: { kind: 'fbank', ...FBANK } } : {}), frames: total, sessions, folds, speeds: SPEEDS, classes: all.length * SPEEDS.length, voices: all.map((s) => s.id), voiceFolds: all.map((s) => foldOf(s.id, folds)), seed: Number(values.seed), sessionFold: 'session s draws the voices of fold s mod folds', options: values }, null, 1),
);
console.error(`wrote ${values.out}: ${total} frames, ${all.length * SPEEDS.length} classes`);
