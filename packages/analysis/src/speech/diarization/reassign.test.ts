import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFrames, NUM_CEPS } from '../features.ts';
import { detectSpeech, regionsToMask } from '../vad.ts';
import { bridgedPauses, modellingMask, standardisedCepstra } from './speaker-frames.ts';
import { trainUbm } from './ubm.ts';
import { alignToUbm } from './gmm-speakers.ts';
import { framePitchSemitones, pitchGaussian, pitchSums } from '../pitch.ts';
import { CepstralVoiceprint, type VoiceprintExtractor } from '../voiceprint.ts';
import { SPEAKER_LDA } from './speaker-lda.model.ts';
import { rangeEmbedder } from './window-embedding.ts';
import { DIARIZATION_SETTINGS } from './settings.ts';

const S = DIARIZATION_SETTINGS;
const RULES = { ...S.count, ...S.reassignment };
import { reassignmentProposals, reassignPieces, type ReassignContext } from './reassign.ts';
import { synthConversation, type SyntheticTurn } from '../synthetic.ts';

const MAN = { f0: 110, formantScale: 1 };
const WOMAN = { f0: 220, formantScale: 1.2 };

interface Fixture {
  context: ReassignContext;
  /** The true speaker of each speech frame inside a turn (-1 elsewhere). */
  truth: Int16Array;
  turns: SyntheticTurn[];
}

function fixture(print: VoiceprintExtractor = new CepstralVoiceprint()): Fixture {
  const { samples, turns } = synthConversation([MAN, WOMAN], 40, { seed: 3, turnSec: 3 });
  const f = analyzeFrames(samples);
  const regions = detectSpeech(f);
  const model = modellingMask(f, regionsToMask(regions, f.frames));
  const cep = standardisedCepstra(f, model);
  const dims = NUM_CEPS;
  const modelled: number[] = [];
  for (let i = 0; i < f.frames; i++) if (model[i]) modelled.push(i);
  const ubm = trainUbm(cep, dims, modelled, 24, 6);
  const pitchSt = framePitchSemitones(f.pitchHz);
  const truth = new Int16Array(f.frames).fill(-1);
  for (const r of regions)
    for (let i = r.start; i < r.end; i++) {
      const t = turns.find((x) => x.start * 100 <= i && x.end * 100 > i);
      if (t) truth[i] = t.speaker;
    }
  const context: ReassignContext = {
    f,
    regions,
    model,
    ubm,
    cep,
    dims,
    align: alignToUbm(ubm, cep, model),
    pitchSt,
    filePitch: pitchGaussian(pitchSums(pitchSt, modelled)),
    pitchWeight: S.resegmentation.pitchStreamWeight,
    pauses: bridgedPauses(regions, model, Math.round(S.resegmentation.pauseMinSec * 100)),
    print,
    embedding: rangeEmbedder(SPEAKER_LDA, cep, dims, model),
  };
  return { context, truth, turns };
}

/** Modelled frames of a turn. */
function turnFrames(x: Fixture, t: SyntheticTurn): number[] {
  const out: number[] = [];
  for (let i = Math.ceil(t.start * 100); i < t.end * 100; i++) if (x.context.model[i] && x.truth[i]! >= 0) out.push(i);
  return out;
}

/** The longest turn of the woman (speaker 1), so that its pieces carry a clear voice. */
function womansTurn(x: Fixture): SyntheticTurn {
  return x.turns.filter((t) => t.speaker === 1).sort((a, b) => b.end - b.start - (a.end - a.start))[0]!;
}

test('a turn of the woman labelled as the man is proposed back to her, and nothing else moves', () => {
  const x = fixture();
  const wrong = Int16Array.from(x.truth);
  const moved = turnFrames(x, womansTurn(x));
  for (const i of moved) wrong[i] = 0;
  // On the true labels there is nothing to propose at the default margin.
  assert.equal(reassignmentProposals(x.context, x.truth, 2, S.reassignment.reassignMargin).size, 0);
  const labels = Int16Array.from(wrong);
  assert.equal(reassignPieces(x.context, labels, 2, RULES), true);
  const back = moved.filter((i) => labels[i] === 1).length;
  assert.ok(back >= 0.8 * moved.length, `${back} of ${moved.length} frames back with the woman`);
  for (let i = 0; i < labels.length; i++) if (x.truth[i] === 0) assert.equal(labels[i], 0, `frame ${i} of the man moved`);
});

test('reassignment never empties a speaker: that is the merging stage\'s decision', () => {
  const x = fixture();
  // A spurious third speaker holding one whole turn of the woman: the likelihoods propose to
  // join the two labels of her voice (in one direction or the other).
  const labels = Int16Array.from(x.truth);
  for (const i of turnFrames(x, womansTurn(x))) labels[i] = 2;
  const proposals = reassignmentProposals(x.context, labels, 3, S.reassignment.reassignMargin);
  assert.ok((proposals.get(1 * 3 + 2)?.length ?? 0) + (proposals.get(2 * 3 + 1)?.length ?? 0) > 0, 'her two labels are proposed to join');
  const count = (l: Int16Array, s: number): number => l.reduce((n, v, i) => n + (v === s && x.context.model[i] ? 1 : 0), 0);
  const kept = Int16Array.from(labels);
  reassignPieces(x.context, kept, 3, RULES);
  for (const s of [1, 2]) assert.ok(count(kept, s) >= 0.5 * count(labels, s), `label ${s} keeps at least half its frames`);
  // Without the cap the same proposals merge one label into the other.
  const merged = Int16Array.from(labels);
  reassignPieces(x.context, merged, 3, { ...RULES, reassignMaxShare: 1 });
  assert.ok([1, 2].some((s) => count(merged, s) < 0.5 * count(labels, s)));
});

test('the merging stage\'s voiceprint veto can refuse a move the likelihoods propose', () => {
  // Voiceprints that say the moving frames (label 2 while judged) differ from everyone.
  const apart: VoiceprintExtractor = { name: 'test', dimensions: 2, extract: (_f, _track, s) => (s === 2 ? [1, 0] : [0, 1]) };
  const x = fixture(apart);
  const labels = Int16Array.from(x.truth);
  const moved = turnFrames(x, womansTurn(x));
  assert.ok(moved.length >= S.count.mergeVetoMinSec * 100, 'the turn is long enough for the veto to apply');
  for (const i of moved) labels[i] = 0;
  assert.equal(reassignPieces(x.context, labels, 2, RULES), false);
  assert.ok(moved.every((i) => labels[i] === 0));
});
