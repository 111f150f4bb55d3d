// Several powerset segmentation networks of one shape heard as one: each window's output of every
// network is averaged, as probabilities, with the first network's. A network's local speakers come
// in an order of its own, so before averaging each is aligned to the first by the permutation of
// the three local speakers under which their per-speaker probabilities agree most over the window
// (the same permutation-invariance the networks were trained under). Averaging networks trained
// apart lowers the spread between trainings, which measured as large as a change of recipe.
import { loadSegmentationModel, POWERSET_3_2, type SegmentationModel } from './model.ts';

const PERMUTATIONS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
] as const;

/** Class index of each powerset class under each permutation: CLASS_UNDER[p][c]. */
const CLASS_UNDER = PERMUTATIONS.map((perm) =>
  POWERSET_3_2.map((mask) => {
    let mapped = 0;
    for (let s = 0; s < 3; s++) if (mask & (1 << s)) mapped |= 1 << perm[s]!;
    return POWERSET_3_2.indexOf(mapped);
  }),
);

/** The networks at `paths` (each with its description beside it), heard as one. */
export function loadSegmentationEnsemble(paths: string[]): SegmentationModel {
  return ensembleSegmentation(paths.map((f) => loadSegmentationModel(f)));
}

export function ensembleSegmentation(models: SegmentationModel[]): SegmentationModel {
  const first = models[0];
  if (!first) throw new Error('an ensemble needs at least one network');
  if (models.length === 1) return first;
  for (const m of models) {
    // The front end computes one input for all of them (first.fbank), so the input must agree too.
    const sameInput = m.spec.input.features === first.spec.input.features && JSON.stringify(m.fbank) === JSON.stringify(first.fbank) && m.spec.input.valueScale === first.spec.input.valueScale;
    if (m.spec.classes !== 'powerset-3-2' || m.spec.output.values !== first.spec.output.values || m.windowFrames !== first.windowFrames || m.spec.frameStepSec !== first.spec.frameStepSec || !sameInput) {
      throw new Error(`${m.name}: an ensemble's networks must share one shape (powerset of three, one window, one frame step, one input)`);
    }
  }
  const log = first.spec.output.values === 'log-probabilities';
  const C = POWERSET_3_2.length;
  const run = (x: Float32Array, batch: number, length: number): { data: Float32Array; frames: number } => {
    const outs = models.map((m) => m.run(x, batch, length));
    const frames = outs[0]!.frames;
    if (outs.some((o) => o.frames !== frames)) throw new Error('the ensemble\'s networks give different frame counts');
    const probs = outs.map((o) => (log ? o.data.map(Math.exp) : o.data));
    const sum = Float32Array.from(probs[0]!);
    for (let j = 1; j < probs.length; j++) {
      const p = probs[j]!;
      for (let b = 0; b < batch; b++) {
        const base = b * frames * C;
        const perm = bestPermutation(probs[0]!, p, base, frames);
        const under = CLASS_UNDER[perm]!;
        for (let t = 0; t < frames; t++) {
          const row = base + t * C;
          for (let c = 0; c < C; c++) sum[row + c] = sum[row + c]! + p[row + under[c]!]!;
        }
      }
    }
    const n = probs.length;
    const data = sum.map((v) => (log ? Math.log(Math.max(v / n, 1e-12)) : v / n));
    return { data, frames };
  };
  return { ...first, name: `ensemble of ${models.length}: ${models.map((m) => m.name).join('; ')}`, run };
}

/** The permutation (index into PERMUTATIONS) taking `ref`'s local speakers to `other`'s that agrees most over one window. */
function bestPermutation(ref: Float32Array, other: Float32Array, base: number, frames: number): number {
  const C = POWERSET_3_2.length;
  // co[s][u]: how much ref's speaker s and other's speaker u are active together.
  const co = new Float64Array(9);
  const a = new Float64Array(3);
  const b = new Float64Array(3);
  for (let t = 0; t < frames; t++) {
    const row = base + t * C;
    a.fill(0);
    b.fill(0);
    for (let c = 0; c < C; c++) {
      const mask = POWERSET_3_2[c]!;
      for (let s = 0; s < 3; s++) {
        if (!(mask & (1 << s))) continue;
        a[s] = a[s]! + ref[row + c]!;
        b[s] = b[s]! + other[row + c]!;
      }
    }
    for (let s = 0; s < 3; s++) for (let u = 0; u < 3; u++) co[s * 3 + u] = co[s * 3 + u]! + a[s]! * b[u]!;
  }
  let best = 0;
  let bestScore = -Infinity;
  PERMUTATIONS.forEach((perm, p) => {
    const score = co[perm[0]!]! + co[3 + perm[1]!]! + co[6 + perm[2]!]!;
    if (score > bestScore) {
      bestScore = score;
      best = p;
    }
  });
  return best;
}
