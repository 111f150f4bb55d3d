import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transcriptGuide, withGuideOverlaps, GUIDE_MIN_COVERAGE } from './transcript-guide.ts';
import type { Transcript } from '../types.ts';

const speech = (frames: number, from = 0, to = frames): Uint8Array => {
  const m = new Uint8Array(frames);
  m.fill(1, from, to);
  return m;
};
const transcript = (cues: [string | null, number, number][]): Transcript => ({ format: 'json', cues: cues.map(([speaker, start, end]) => ({ speaker, start, end, text: 'x' })) });

test('named cues become a per-frame track; names match whatever their case and spacing', () => {
  const g = transcriptGuide(transcript([['Ana', 0, 1], ['Ben', 1, 2], ['  ana ', 2, 3]]), speech(300));
  assert.ok(g);
  assert.deepEqual(g.names, ['Ana', 'Ben']);
  assert.equal(g.track[50], 0);
  assert.equal(g.track[150], 1);
  assert.equal(g.track[250], 0);
  assert.equal(g.coverage, 1);
});

test('frames under two names (overlap or disagreement) guide no one', () => {
  const g = transcriptGuide(transcript([['Ana', 0, 2], ['Ben', 1.5, 3]]), speech(300));
  assert.ok(g);
  assert.equal(g.track[100], 0);
  assert.equal(g.track[170], -1);
  assert.equal(g.track[250], 1);
});

test('a transcript that covers too little of the speech, or names no one, does not guide', () => {
  // Cues cover 1 s of 4 s of speech: 25 % < GUIDE_MIN_COVERAGE.
  assert.ok(GUIDE_MIN_COVERAGE > 0.25);
  assert.equal(transcriptGuide(transcript([['Ana', 0, 1]]), speech(400)), null);
  assert.equal(transcriptGuide(transcript([[null, 0, 4]]), speech(400)), null);
  assert.equal(transcriptGuide(transcript([['', 0, 4]]), speech(400)), null);
  // Cues outside the recording or backwards are ignored, not fatal.
  assert.equal(transcriptGuide(transcript([['Ana', 10, 12], ['Ben', 3, 2]]), speech(400)), null);
});

test('coverage counts speech frames only: cues over silence do not make up for missing speech', () => {
  // Speech is frames 100-300; the cue spans 0-1.5 s, so it covers 50 of 200 speech frames.
  assert.equal(transcriptGuide(transcript([['Ana', 0, 1.5]]), speech(400, 100, 300)), null);
  const g = transcriptGuide(transcript([['Ana', 0, 2.5]]), speech(400, 100, 300));
  assert.ok(g);
  assert.equal(g.coverage, 0.75);
});

test('cues of two names overlapping over speech for 0.3 s or more are an overlap; shorter ones are loose cue times', () => {
  const g = transcriptGuide(transcript([['Ana', 0, 2], ['Ben', 1.5, 3], ['Ana', 3.8, 5], ['Ben', 4.9, 6]]), speech(600));
  assert.ok(g);
  assert.deepEqual(g.overlaps, [{ start: 150, end: 200, names: [0, 1] }]);
});

test('an overlap adds a segment for the speaker the single-speaker track left out', () => {
  const g = transcriptGuide(transcript([['Ana', 0, 2], ['Ben', 1.5, 3]]), speech(300));
  assert.ok(g);
  // Diarization gave Ana (speaker 0) frames 0-199 and Ben (speaker 1) frames 200-299.
  const frameSpeaker = new Int16Array(300);
  frameSpeaker.fill(1, 200);
  const segments = [
    { speaker: 0, start: 0, end: 2 },
    { speaker: 1, start: 2, end: 3 },
  ];
  // The overlap piece joins Ben's own segment: his turn starts where his voice starts.
  assert.deepEqual(withGuideOverlaps(segments, g, ['Ana', 'Ben'], frameSpeaker), [
    { speaker: 0, start: 0, end: 2 },
    { speaker: 1, start: 1.5, end: 3 },
  ]);
  // Names that label no speaker add nothing.
  assert.deepEqual(withGuideOverlaps(segments, g, ['Ana', null], frameSpeaker), segments);
});
