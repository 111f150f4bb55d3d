// Exports simulated sessions (sessions.ts) as the engine's per-frame speaker features, for the
// neural speaker embedding's trainer (train-speaker-net.py):
//   node training/export-sessions.ts --data /work/spk-train --out DIR --sessions 600 [--folds 3] [--seed 1]
// Session s leaves out the voices of leave-voices-out fold s mod folds (eval/validation-corpus.ts):
// the trainer's --exclude-fold K keeps only the sessions that left fold K out, so a model for
// fold K never heard the voices of fold K's validation set; without it every session is used.
// Only the frames the engine models (voiced speech; standardised c1..c19 and log F0 over the
// session) are written, with their class (voice x speed factor, numbered over the whole corpus)
// and frame number: DIR/cep.f32 (frames x 20), cls.i16, frame.i32, session.i32, meta.json.
import { parseArgs } from 'node:util';
import { mkdirSync, openSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { loadSpeakers, SessionSimulator } from './sessions.ts';
import { foldOf } from '../eval/validation-corpus.ts';

/** Speed factors: each voice at each factor is its own pseudo-speaker. */
export const SPEEDS = [0.88, 0.94, 1, 1.06, 1.12];
const DIMS = 20;

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '/work/spk-train' },
    out: { type: 'string' },
    sessions: { type: 'string', default: '600' },
    folds: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
  },
});
if (!values.out) {
  console.error('usage: node training/export-sessions.ts --data DIR --out DIR [--sessions 600] [--folds 3] [--seed 1]');
  process.exit(2);
}
const folds = Number(values.folds);
const all = loadSpeakers(values.data!);
const globalIndex = new Map(all.map((s, i) => [s.id, i]));
const rand = seededRandom(Number(values.seed));
// One simulator per left-out fold, all drawing from one random stream (deterministic by seed).
const sims = Array.from({ length: folds }, (_, held) => {
  const speakers = all.filter((s) => foldOf(s.id, folds) !== held);
  const toGlobal = Int16Array.from(speakers.flatMap((s) => SPEEDS.map((_, j) => globalIndex.get(s.id)! * SPEEDS.length + j)));
  return { sim: new SessionSimulator(speakers, rand, true, { speeds: SPEEDS, telephoneShare: 0.15, reverbShare: 0.15 }), toGlobal };
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
  const { features, model, cep, owner } = await sim.next();
  const idx: number[] = [];
  for (let i = 0; i < features.frames; i++) if (model[i] && (owner[i] ?? -1) >= 0) idx.push(i);
  const c = new Float32Array(idx.length * DIMS);
  const k = new Int16Array(idx.length);
  idx.forEach((i, j) => {
    c.set(cep.subarray(i * DIMS, (i + 1) * DIMS), j * DIMS);
    k[j] = toGlobal[owner[i]!]!;
  });
  writeSync(files.cep, c);
  writeSync(files.cls, k);
  writeSync(files.frame, Int32Array.from(idx));
  writeSync(files.session, new Int32Array(idx.length).fill(s));
  total += idx.length;
  if (s % 50 === 0) console.error(`session ${s}: ${total} frames`);
}
for (const fd of Object.values(files)) closeSync(fd);
writeFileSync(
  join(values.out, 'meta.json'),
  JSON.stringify({ dims: DIMS, frames: total, sessions, folds, speeds: SPEEDS, classes: all.length * SPEEDS.length, voices: all.map((s) => s.id), voiceFolds: all.map((s) => foldOf(s.id, folds)), seed: Number(values.seed), sessionLeavesOut: 'session s leaves out fold s mod folds' }, null, 1),
);
console.error(`wrote ${values.out}: ${total} frames, ${all.length * SPEEDS.length} classes`);
