import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cueLedTrack, transcriptGuide, withGuideOverlaps, CUE_PAUSE_MAX_SEC, GUIDE_MIN_COVERAGE, MIN_OVERLAP_SEC } from './transcript-guide.ts';
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

test('cues of two names overlapping over speech for MIN_OVERLAP_SEC or more are an overlap; shorter ones are loose cue times', () => {
  assert.ok(MIN_OVERLAP_SEC > 0.1 && MIN_OVERLAP_SEC <= 0.5);
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

test('cue-led track: a quick exchange the resegmentation ran together gets the cues\' boundaries and pauses', () => {
  // Ana 0-1.5 s, Ben 1.7-2.3 s, Ana 2.5-4 s; voice activity bridged the 0.2 s pauses into one
  // region, and the resegmentation gave all of it to Ana (a change costs more than Ben's 0.6 s).
  const g = transcriptGuide(transcript([['Ana', 0, 1.5], ['Ben', 1.7, 2.3], ['Ana', 2.5, 4]]), speech(400));
  assert.ok(g);
  const led = cueLedTrack(new Int16Array(400), g, ['Ana', 'Ben'], speech(400));
  assert.ok(led);
  const at = (t: number): number => led.frameSpeaker[Math.round(t * 100)]!;
  assert.deepEqual([at(1), at(1.6), at(2), at(2.4), at(3)], [0, -1, 1, -1, 0]);
  assert.deepEqual(led.labels, ['Ana', 'Ben']);
});

test('cue-led track: speech no cue covers keeps its speaker unless it is a short pause between cues', () => {
  // Ana 0-1 s, then 1 s of speech no cue covers (longer than CUE_PAUSE_MAX_SEC), Ben 2-3 s.
  assert.ok(CUE_PAUSE_MAX_SEC < 1);
  const g = transcriptGuide(transcript([['Ana', 0, 1], ['Ben', 2, 3]]), speech(300));
  assert.ok(g);
  const viterbi = new Int16Array(300);
  viterbi.fill(1, 150);
  const led = cueLedTrack(viterbi, g, ['Ana', 'Ben'], speech(300));
  assert.ok(led);
  assert.equal(led.frameSpeaker[120], 0);
  assert.equal(led.frameSpeaker[180], 1);
  assert.equal(led.frameSpeaker[250], 1);
});

test('cue-led track: speakers are numbered by first speech again, labels following; a speaker left without speech keeps the old track', () => {
  // The resegmentation put Ben first (speaker 0), but Ana's cue starts the recording.
  const g = transcriptGuide(transcript([['Ana', 0, 1], ['Ben', 1, 3]]), speech(300));
  assert.ok(g);
  const led = cueLedTrack(new Int16Array(300), g, ['Ben', 'Ana'], speech(300));
  assert.ok(led);
  assert.equal(led.frameSpeaker[50], 0);
  assert.equal(led.frameSpeaker[200], 1);
  assert.deepEqual(led.labels, ['Ana', 'Ben']);
  // A third speaker no cue names loses all its frames to the named ones.
  const three = new Int16Array(300);
  three.fill(2, 100, 150);
  assert.equal(cueLedTrack(three, g, ['Ana', 'Ben', null], speech(300)), null);
});
