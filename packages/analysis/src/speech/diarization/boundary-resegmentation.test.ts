import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFrames } from '../features.ts';
import { synthConversation } from '../synthetic.ts';
import { DIARIZATION_SETTINGS } from './settings.ts';
import { resegmentBoundaries } from './boundary-resegmentation.ts';

const MAN = { f0: 110, formantScale: 1 };
const WOMAN = { f0: 220, formantScale: 1.2 };

/** The turns as a frame track; with `lateFrames`, each turn's first frames still the previous speaker's (a change found late). */
function trackOf(turns: { speaker: number; start: number; end: number }[], frames: number, lateFrames: number): Int16Array {
  const t = new Int16Array(frames).fill(-1);
  turns.forEach((u, k) => {
    const a = Math.round(u.start * 100);
    const b = Math.min(frames, Math.round(u.end * 100));
    t.fill(u.speaker, a, b);
    const previous = turns[k - 1];
    if (previous && previous.speaker !== u.speaker) t.fill(previous.speaker, a, Math.min(b, a + lateFrames));
  });
  return t;
}

test('changes placed a fifth of a second late move back towards the voices; frames far from a change stay', () => {
  const { samples, turns } = synthConversation([MAN, WOMAN], 40, { seed: 2, turnSec: 3 });
  const f = analyzeFrames(samples);
  const truth = trackOf(turns, f.frames, 0);
  const regions = turns.map((u) => ({ start: Math.round(u.start * 100), end: Math.min(f.frames, Math.round(u.end * 100)) }));
  const speech = Uint8Array.from(truth, (x) => (x >= 0 ? 1 : 0));
  const first = trackOf(turns, f.frames, 20);
  const before = Int16Array.from(first);
  const second = new Int16Array(f.frames).fill(-1);
  const reach = Math.round(DIARIZATION_SETTINGS.boundaries.reachSec * 100);
  resegmentBoundaries(f, regions, speech, first, second, 2, reach, DIARIZATION_SETTINGS.guided);
  const wrong = (t: Int16Array): number => t.reduce((n, x, i) => n + (speech[i] && x !== truth[i] ? 1 : 0), 0);
  assert.ok(wrong(before) > 100, `the shifted track is wrong on ${wrong(before)} frames`);
  assert.ok(wrong(first) < wrong(before) / 2, `wrong frames ${wrong(before)} -> ${wrong(first)}`);
  // Only frames within reach of a change of the track it was given may move.
  const near = new Uint8Array(f.frames);
  for (let i = 1; i < f.frames; i++) if (before[i] !== before[i - 1]) near.fill(1, Math.max(0, i - reach), Math.min(f.frames, i + reach));
  for (let i = 0; i < f.frames; i++) if (!near[i]) assert.equal(first[i], before[i], `frame ${i} moved`);
  assert.deepEqual(new Set(first.filter((x) => x >= 0)), new Set([0, 1]));
});

test('one speaker, or no reach: nothing moves', () => {
  const { samples, turns } = synthConversation([MAN, WOMAN], 20, { seed: 3, turnSec: 3 });
  const f = analyzeFrames(samples);
  const regions = turns.map((u) => ({ start: Math.round(u.start * 100), end: Math.min(f.frames, Math.round(u.end * 100)) }));
  const first = trackOf(turns, f.frames, 20);
  const speech = Uint8Array.from(first, (x) => (x >= 0 ? 1 : 0));
  const second = new Int16Array(f.frames).fill(-1);
  const one = Int16Array.from(first, (x) => (x >= 0 ? 0 : -1));
  const copy = Int16Array.from(one);
  resegmentBoundaries(f, regions, speech, one, second, 1, 30, DIARIZATION_SETTINGS.guided);
  assert.deepEqual(one, copy);
  const two = Int16Array.from(first);
  resegmentBoundaries(f, regions, speech, two, second, 2, 0, DIARIZATION_SETTINGS.guided);
  assert.deepEqual(two, first);
});
