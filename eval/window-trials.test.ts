import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { sameSpeakerAllowed, sampleTrials, speakerWindows, type WindowRef } from './window-trials.ts';

test('windows stay inside one source file, need enough modelled frames, and are capped evenly', () => {
  const model = new Uint8Array(1000).fill(1);
  model.fill(0, 400, 600); // a stretch the engine does not model
  const pieces = [
    { file: 0, start: 0, end: 500 },
    { file: 1, start: 520, end: 1000 },
  ];
  const ws = speakerWindows(3, 0, pieces, model, 100, 60, 100);
  assert.ok(ws.every((w) => pieces.some((p) => p.file === w.file && w.start >= p.start && w.end <= p.end)));
  assert.ok(ws.every((w) => w.speaker === 3 && w.end - w.start === 100));
  // Windows of file 0 starting at 350 or later hold under 60 modelled frames.
  assert.deepEqual(
    ws.filter((w) => w.file === 0).map((w) => w.start),
    [0, 50, 100, 150, 200, 250, 300],
  );
  const capped = speakerWindows(3, 0, pieces, model, 100, 60, 4);
  assert.equal(capped.length, 4);
  assert.ok(capped.some((w) => w.file === 0) && capped.some((w) => w.file === 1));
});

test('a same-speaker trial pairs different files, or disjoint windows of a single file', () => {
  const a: WindowRef = { speaker: 1, rec: 0, file: 0, start: 0, end: 150 };
  assert.equal(sameSpeakerAllowed(a, { ...a, start: 75, end: 225 }, 2), false);
  assert.equal(sameSpeakerAllowed(a, { ...a, file: 1 }, 2), true);
  assert.equal(sameSpeakerAllowed(a, { ...a, start: 75, end: 225 }, 1), false);
  assert.equal(sameSpeakerAllowed(a, { ...a, start: 150, end: 300 }, 1), true);
  assert.equal(sameSpeakerAllowed(a, { ...a, speaker: 2, file: 1 }, 2), false);
});

test('trials obey the rules, are deterministic, and pair different speakers as asked', () => {
  const ws: WindowRef[] = [];
  for (let s = 0; s < 5; s++) for (let f = 0; f < 3; f++) for (let k = 0; k < 4; k++) ws.push({ speaker: s, rec: s >> 1, file: f, start: k * 150, end: (k + 1) * 150 });
  const t = sampleTrials(ws, ws, () => 3, 10, 200, false, seededRandom(5));
  assert.equal(t.same.length, 50);
  assert.equal(t.different.length, 200);
  for (const [i, j] of t.same) assert.ok(ws[i]!.speaker === ws[j]!.speaker && ws[i]!.file !== ws[j]!.file);
  for (const [i, j] of t.different) assert.notEqual(ws[i]!.speaker, ws[j]!.speaker);
  assert.deepEqual(sampleTrials(ws, ws, () => 3, 10, 200, false, seededRandom(5)), t);
  // Within recordings: speakers 0 and 1 share recording 0, 2 and 3 recording 1; speaker 4 is alone.
  const inRec = sampleTrials(ws, ws, () => 3, 10, 200, true, seededRandom(5));
  for (const [i, j] of inRec.different) assert.ok(ws[i]!.rec === ws[j]!.rec && ws[i]!.speaker !== ws[j]!.speaker);
  assert.ok(inRec.different.every(([i]) => ws[i]!.speaker !== 4));
  // One speaker only: no different-speaker trial can be drawn.
  assert.equal(sampleTrials(ws.slice(0, 12), ws.slice(0, 12), () => 3, 10, 50, false, seededRandom(1)).different.length, 0);
});
