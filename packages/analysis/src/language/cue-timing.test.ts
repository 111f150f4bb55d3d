import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CUE_EDGE_MAX_SEC, cueEdgeError, cueTiming, overlapCounting, shiftTranscript, MAX_OFFSET_SEC } from './cue-timing.ts';
import type { Transcript } from '../types.ts';

// Speech in three utterances: 1-3 s, 4-5.5 s, 7-9 s (10 s, 10 ms frames).
const UTTERANCES: [number, number][] = [[1, 3], [4, 5.5], [7, 9]];
const speech = new Uint8Array(1000);
for (const [a, b] of UTTERANCES) speech.fill(1, a * 100, b * 100);
const cues = (offset: number): Transcript => ({
  format: 'json',
  cues: UTTERANCES.map(([a, b], k) => ({ speaker: k % 2 ? 'Ben' : 'Ana', start: a + offset, end: b + offset, text: 'x' })),
});

test('cues that fit the speech: no offset, agreement 1', () => {
  assert.deepEqual(cueTiming(cues(0), speech), { offsetSec: 0, agreement: 1 });
});

test('a transcript late or early as a whole is moved back onto the speech', () => {
  for (const late of [0.5, -0.73, 0.95, 1.5]) {
    const t = cueTiming(cues(late), speech);
    assert.equal(t.offsetSec, -late, `offset for cues ${late} s late`);
    assert.equal(t.agreement, 1);
  }
  // Beyond the search range nothing is found that fits better than a partial overlap.
  assert.ok(MAX_OFFSET_SEC < 5);
  assert.notEqual(cueTiming(cues(5), speech).offsetSec, -5);
});

test('loose cue edges give lower agreement and no offset when none helps', () => {
  const loose: Transcript = { format: 'json', cues: [{ speaker: 'Ana', start: 0.7, end: 3.2, text: 'x' }, { speaker: 'Ben', start: 4.2, end: 5.3, text: 'x' }, { speaker: 'Ana', start: 6.8, end: 9.3, text: 'x' }] };
  const t = cueTiming(loose, speech);
  assert.equal(t.offsetSec, 0);
  assert.ok(t.agreement > 0.75 && t.agreement < 0.8, String(t.agreement)); // 510 of 650 frames
  assert.equal(cueTiming({ format: 'json', cues: [] }, speech).agreement, 0);
});

test('a cue longer than the speech is not moved out of the recording to fit it better', () => {
  // One cue over the whole 10 s, speech from 0.5 to 9.5 s: moving the cue 0.5 s earlier would
  // take its first half second out of the recording, but that time is still cue without speech.
  const block = new Uint8Array(1000).fill(1, 50, 950);
  const whole: Transcript = { format: 'json', cues: [{ speaker: 'Ana', start: 0, end: 10, text: 'x' }] };
  assert.deepEqual(cueTiming(whole, block), { offsetSec: 0, agreement: 0.9 });
  // A cue past the end of the media counts too: cues 2 s late are found 2 s late.
  assert.equal(cueTiming(cues(2), speech).offsetSec, -2);
});

test('shiftTranscript moves every cue and stops at 0', () => {
  const moved = shiftTranscript(cues(0), -1.5);
  assert.deepEqual(moved.cues.map((c) => [c.start, c.end]), [[0, 1.5], [2.5, 4], [5.5, 7.5]]);
  const same = cues(0);
  assert.equal(shiftTranscript(same, 0), same);
});

// The same three utterances' edges, in frames, as silenceEdges (speech/turn-gaps.ts) finds them.
const EDGES = { onsets: UTTERANCES.map(([a]) => a * 100), offsets: UTTERANCES.map(([, b]) => b * 100) };

test('cue edge error: exact cues sit on the edges; loose ones lie as far off as they were moved', () => {
  assert.equal(cueEdgeError(cues(0), EDGES), 0);
  assert.equal(cueEdgeError(cues(0.25), EDGES), 0.25);
  // Ends moved 0.4 s later: half the edges 0.4 s off, and the 75th percentile sees them.
  const late = { format: 'json' as const, cues: cues(0).cues.map((c) => ({ ...c, end: c.end + 0.4 })) };
  assert.equal(cueEdgeError(late, EDGES), 0.4);
  // Only one of six edges off: the 75th percentile ignores it.
  const one = { format: 'json' as const, cues: cues(0).cues.map((c, k) => (k === 1 ? { ...c, start: c.start - 0.6 } : c)) };
  assert.equal(cueEdgeError(one, EDGES), 0);
});

test('cue edge error: null without cues or without edges to measure against', () => {
  assert.equal(cueEdgeError({ format: 'json', cues: [] }, EDGES), null);
  assert.equal(cueEdgeError(cues(0), { onsets: [], offsets: [] }), null);
});

test('overlapping cues are counted only when some cues overlap and their edges are tight', () => {
  assert.equal(overlapCounting(3, 0.02).counted, true);
  assert.equal(overlapCounting(3, CUE_EDGE_MAX_SEC).counted, true);
  assert.match(overlapCounting(3, 0.25).statement, /0\.25 s .*too loose/);
  assert.equal(overlapCounting(3, null).counted, false);
  // Captions never overlap their cues: their zero would describe the format, not the conversation.
  assert.match(overlapCounting(0, 0.02).statement, /no two cues overlap/);
  assert.equal(overlapCounting(0, 0.02).counted, false);
});
