// Trains the identity voiceprint's LDA (packages/analysis/src/speech/trained-voiceprint.ts) on
// simulated sessions of the real-voice corpus (sessions.ts, as export-sessions.ts draws them):
//   node training/train-voiceprint-lda.ts --data /work/rv-corpus --samples FILE.jsonl[,MORE.jsonl] --out-dir DIR
//     [--sessions 1200] [--seed 7] [--folds 3] [--keep 20] [--shrink 0.001] [--ship FILE.ts]
// Each voice of a session comes through its own random channel (band limits, an EQ bump, a level),
// and sessions through real rooms, recorded noise and a telephone codec, so one voice's samples
// differ as one person's recordings do. A sample is one voice of one session: voiceStats of its
// voiced frames. Its class is the voice at one speed (0.9, 1, 1.1: each its own pseudo-voice, as
// for the window LDA). Session s draws the voices of fold s mod folds alone, so DIR/fold-K.json,
// trained without fold K's sessions, never heard fold K's voices; DIR/all.json heard every voice.
// The samples are written to --samples once and read again on later runs (fitting takes seconds);
// several files, comma-separated (draws of other seeds), are read together. --ship writes
// DIR/all.json's model as the module the engine ships (voiceprint-lda.model.ts).
import { parseArgs } from 'node:util';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { fitLda } from '../packages/analysis/src/speech/diarization/lda.ts';
import { voiceStats, VOICE_STATS_DIMS, type VoiceprintModel } from '../packages/analysis/src/speech/trained-voiceprint.ts';
import { loadSpeakers, SessionSimulator } from './sessions.ts';
import { loadAugmentation } from './augment.ts';
import { foldOf } from '../eval/validation-corpus.ts';

interface Sample {
  cls: number;
  fold: number;
  v: number[];
}

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    samples: { type: 'string' },
    'out-dir': { type: 'string' },
    sessions: { type: 'string', default: '1200' },
    seed: { type: 'string', default: '7' },
    folds: { type: 'string', default: '3' },
    keep: { type: 'string', default: '20' },
    shrink: { type: 'string', default: '0.001' },
    ship: { type: 'string' },
  },
});
if (!values.data || !values.samples || !values['out-dir']) {
  console.error('usage: node training/train-voiceprint-lda.ts --data CORPUS --samples FILE.jsonl --out-dir DIR [--sessions 1200] [--seed 7] [--folds 3] [--keep 20] [--shrink 0.001]');
  process.exit(2);
}
const folds = Number(values.folds);
const SPEEDS = [0.9, 1, 1.1];

async function drawSamples(): Promise<Sample[]> {
  const all = loadSpeakers(values.data!);
  const globalIndex = new Map(all.map((s, i) => [s.id, i]));
  const rand = seededRandom(Number(values.seed));
  const real = await loadAugmentation(values.data!);
  const sims = Array.from({ length: folds }, (_, fold) => {
    const speakers = all.filter((s) => foldOf(s.id, folds) === fold);
    const toGlobal = Int32Array.from(speakers.flatMap((s) => SPEEDS.map((_, j) => globalIndex.get(s.id)! * SPEEDS.length + j)));
    const options = { speeds: SPEEDS, telephoneShare: 0.15, reverbShare: 0, voices: [3, 6] as [number, number], voiceSec: [6, 20] as [number, number], real, roomShare: 0.2, noiseShare: 0.3 };
    return { sim: new SessionSimulator(speakers, rand, true, options), toGlobal };
  });
  const out: Sample[] = [];
  const sessions = Number(values.sessions);
  for (let s = 0; s < sessions; s++) {
    const fold = s % folds;
    const { sim, toGlobal } = sims[fold]!;
    const { features, owner } = await sim.next();
    for (const c of new Set(owner)) {
      if (c < 0) continue;
      const v = voiceStats(features, owner, c);
      if (v) out.push({ cls: toGlobal[c]!, fold, v: Array.from(v, (x) => Math.round(x * 1e5) / 1e5) });
    }
    if (s % 100 === 0) console.error(`session ${s}: ${out.length} samples`);
  }
  // The first line says how the samples were drawn, for the model's training record.
  const draw = `${sessions} sessions, seed ${values.seed}`;
  writeFileSync(values.samples!, [JSON.stringify({ draw }), ...out.map((x) => JSON.stringify(x))].join('\n') + '\n');
  draws.push(draw);
  return out;
}

const files = values.samples.split(',');
const draws: string[] = [];
const read = (file: string): Sample[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Sample | { draw: string })
    .filter((x): x is Sample => ('draw' in x ? (draws.push(x.draw), false) : true));
const samples: Sample[] = files.length === 1 && !existsSync(files[0]!) ? await drawSamples() : files.flatMap(read);
if (samples.some((s) => s.v.length !== VOICE_STATS_DIMS)) throw new Error(`${values.samples}: samples are not ${VOICE_STATS_DIMS} statistics long`);
mkdirSync(values['out-dir'], { recursive: true });
const keep = Number(values.keep);
for (const excluded of [...Array.from({ length: folds }, (_, k) => k), -1]) {
  const train = samples.filter((s) => s.fold !== excluded);
  // A class seen once tells nothing of how a voice varies; it would only add between-class spread.
  const counts = new Map<number, number>();
  for (const s of train) counts.set(s.cls, (counts.get(s.cls) ?? 0) + 1);
  const used = train.filter((s) => counts.get(s.cls)! >= 2);
  const lda = fitLda(
    used.map((s) => Float64Array.from(s.v)),
    used.map((s) => s.cls),
    keep,
    Number(values.shrink),
  );
  const classes = new Set(used.map((s) => s.cls)).size;
  const model: VoiceprintModel = {
    name: 'voice-stats-lda-v1',
    lda,
    trained: `${used.length} samples (one voice of one simulated session each) of ${classes} voice-speed classes of the real-voice corpus, ${excluded < 0 ? 'every fold' : `all folds but ${excluded}`}; drawn from ${draws.join(' and ')}, ${keep} dimensions, shrink ${values.shrink}`,
  };
  const file = join(values['out-dir'], excluded < 0 ? 'all.json' : `fold-${excluded}.json`);
  writeFileSync(file, JSON.stringify(model));
  console.error(`wrote ${file}: ${used.length} samples, ${classes} classes`);
  if (excluded < 0 && values.ship) {
    const r6 = (x: number): number => +x.toPrecision(6);
    const shipped: VoiceprintModel = { ...model, lda: { mean: lda.mean.map(r6), rows: lda.rows.map((r) => r.map(r6)) } };
    writeFileSync(
      values.ship,
      `// Generated by training/train-voiceprint-lda.ts (see training/README.md); do not edit.\n// Trained on ${model.trained}.\nimport type { VoiceprintModel } from './trained-voiceprint.ts';\n\nexport const VOICEPRINT_LDA: VoiceprintModel = ${JSON.stringify(shipped)};\n`,
    );
    console.error(`wrote ${values.ship}`);
  }
}
