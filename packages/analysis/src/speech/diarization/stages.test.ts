// The diarization's stages one by one (diarize.ts lists them), on small synthetic conversations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFrames } from '../features.ts';
import { detectSpeech, regionsToMask } from '../vad.ts';
import { synthConversation } from '../synthetic.ts';
import { modellingMask, standardisedCepstra } from './speaker-frames.ts';
import { rangeEmbedder } from './window-embedding.ts';
import { DEFAULT_EMBEDDING } from './default-embedding.ts';
import { fitSpeakerModels, modelledFrames, type RecordingModels } from './speaker-models.ts';
import { initialSegments } from './initial-segments.ts';
import { decideSpeakerCount } from './speaker-count.ts';
import { refineSpeakers } from './refinement.ts';
import { resegment, type Labelling } from './resegmentation.ts';
import { firstSpeechOrder, renumberByFirstSpeech } from './numbering.ts';
import { DIARIZATION_SETTINGS as S } from './settings.ts';

const MAN = { f0: 110, formantScale: 1 };
const WOMAN = { f0: 220, formantScale: 1.2 };
const CHILD = { f0: 300, formantScale: 1.35 };

function recording(voices: (typeof MAN)[], seed: number): { m: RecordingModels; owner: (sec: number) => number | undefined } {
  const { samples, turns } = synthConversation(voices, 45, { seed, turnSec: 3 });
  const f = analyzeFrames(samples);
  const regions = detectSpeech(f);
  const model = modellingMask(f, regionsToMask(regions, f.frames));
  const cep = standardisedCepstra(f, model);
  const embedding = rangeEmbedder(DEFAULT_EMBEDDING, cep, 20, model);
  const m = fitSpeakerModels({ f, regions, model, modelFrames: modelledFrames(model), cep, dims: 20, embedding }, S.models);
  return { m, owner: (sec) => turns.find((t) => t.start + 0.3 <= sec && sec < t.end - 0.3)?.speaker };
}

function labelling(m: RecordingModels, groups: Int32Array[]): Labelling {
  return { frameSpeaker: new Int16Array(m.f.frames).fill(-1), groups, emission: new Float32Array(m.f.frames * groups.length) };
}

/** Share of frames inside reference turns whose speaker matches the majority mapping. */
function purity(lab: Labelling, owner: (sec: number) => number | undefined): number {
  const votes = new Map<string, number>();
  let total = 0;
  lab.frameSpeaker.forEach((s, i) => {
    const o = owner(i / 100);
    if (s < 0 || o === undefined) return;
    total++;
    votes.set(`${s}:${o}`, (votes.get(`${s}:${o}`) ?? 0) + 1);
  });
  const best = new Map<number, number>();
  for (const [key, n] of votes) {
    const s = Number(key.split(':')[0]);
    best.set(s, Math.max(best.get(s) ?? 0, n));
  }
  return [...best.values()].reduce((a, b) => a + b, 0) / total;
}

test('initial segments: window clusters cover the modelled speech; a transcript\'s names are taken as they are', () => {
  const { m } = recording([MAN, WOMAN], 1);
  const windows = initialSegments(m, S, null, null);
  assert.ok(windows.from === 'windows' && windows.groups.length >= 2 && windows.groups.length <= S.initialSegments.maxInitialClusters);
  const guide = new Int16Array(m.f.frames).fill(-1);
  guide.fill(0, 0, 1000);
  guide.fill(1, 1000, 2000);
  const named = initialSegments(m, S, guide, null);
  assert.ok(named.from === 'transcript' && named.groups.length === 2);
  assert.ok(named.groups[0]!.every((i) => i < 1000) && named.groups[1]!.every((i) => i >= 1000 && i < 2000));
});

test('resegmentation: from labels with a third of the frames wrong, the passes find the two voices', () => {
  const { m, owner } = recording([MAN, WOMAN], 2);
  // The true speaker of each modelled frame inside a turn, every third frame given to the other.
  const groups: number[][] = [[], []];
  m.modelFrames.forEach((i, x) => {
    const o = owner(i / 100);
    if (o !== undefined) groups[x % 3 === 0 ? 1 - o : o]!.push(i);
  });
  const lab = labelling(m, groups.map((g) => Int32Array.from(g)));
  resegment(m, lab, 2, S.resegmentation);
  assert.equal(lab.groups.length, 2);
  assert.ok(purity(lab, owner) > 0.95, `purity ${purity(lab, owner)}`);
});

test('speaker count: the evidence settles three voices at three, within the user\'s bounds otherwise', () => {
  const { m } = recording([MAN, WOMAN, CHILD], 3);
  const windows = initialSegments(m, S, null, null);
  const run = (min: number, max: number): { k: number; how: string } => {
    const { lab, how } = decideSpeakerCount(m, windows, { min, max }, S);
    return { k: lab.groups.length, how };
  };
  assert.deepEqual(run(1, Infinity), { k: 3, how: 'settled' });
  // Above the maximum, merges are forced; at the minimum, none is made.
  assert.deepEqual(run(1, 2), { k: 2, how: 'settled' });
  assert.ok(run(5, Infinity).k >= 3);
  // A transcript's names are the count, whatever the bounds.
  assert.equal(windows.from, 'windows');
  const named = { from: 'transcript' as const, groups: windows.from === 'windows' ? windows.groups : [] };
  const fixed = decideSpeakerCount(m, named, { min: 1, max: 1 }, S);
  assert.equal(fixed.how, 'fixed');
  assert.equal(fixed.lab.groups.length, named.groups.filter((g) => g.length > 0).length);
});

test('speaker count: a long recording\'s chunk speakers are linked across chunks, never within one, and merged down to the maximum', () => {
  const { m, owner } = recording([MAN, WOMAN], 5);
  // Two "chunks" (the halves), each with its two true voices as chunk speakers 0-1 and 2-3.
  const label = new Int32Array(m.f.frames).fill(-1);
  const half = m.f.frames >> 1;
  for (const i of m.modelFrames) {
    const o = owner(i / 100);
    if (o !== undefined) label[i] = (i < half ? 0 : 2) + o;
  }
  const chunks = { label, chunkOf: [0, 0, 1, 1] };
  const linked = decideSpeakerCount(m, { from: 'chunks', chunks }, { min: 1, max: Infinity }, S);
  assert.equal(linked.how, 'fixed');
  assert.equal(linked.lab.groups.length, 2);
  assert.ok(purity(linked.lab, owner) > 0.9, `purity ${purity(linked.lab, owner)}`);
  const one = decideSpeakerCount(m, { from: 'chunks', chunks }, { min: 1, max: 1 }, S);
  assert.equal(one.lab.groups.length, 1);
});

test('refinement keeps the count and the voices', () => {
  const { m, owner } = recording([MAN, WOMAN], 4);
  const { lab, how } = decideSpeakerCount(m, initialSegments(m, S, null, null), { min: 1, max: Infinity }, S);
  assert.equal(how, 'settled');
  const k = lab.groups.length;
  refineSpeakers(m, lab, S, true);
  assert.equal(lab.groups.length, k);
  assert.ok(purity(lab, owner) > 0.9);
});

test('numbering: by first sustained speech inside the diarization, by first segment in the answer', () => {
  const track = new Int16Array(300).fill(-1);
  track.fill(1, 0, 3); // a stray run of speaker 1
  track.fill(0, 10, 100);
  track.fill(1, 100, 200);
  const order = renumberByFirstSpeech(track, 50);
  assert.deepEqual([...order], [[0, 0], [1, 1]]);
  assert.equal(track[50], 0);
  assert.deepEqual(firstSpeechOrder([{ speaker: 1, start: 0.5 }, { speaker: 0, start: 2 }], 3), [1, 0, 2]);
});
