import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupTurns } from './turns.ts';

const seg = (speaker: number, start: number, end: number) => ({ speaker, start, end });

test('a short utterance that the other speaker talks through is a backchannel, not a turn', () => {
  const spans = groupTurns([seg(0, 0, 4), seg(1, 2, 2.6), seg(0, 4.4, 8)]);
  assert.deepEqual(spans.map((s) => [s.speaker, s.start, s.end, s.backchannel]), [
    [0, 0, 8, false],
    [1, 2, 2.6, true],
  ]);
});

test('a short answer in a pause between the other speaker\'s utterances is a turn', () => {
  const spans = groupTurns([seg(0, 0, 4), seg(1, 4.3, 4.9), seg(0, 5.2, 8)]);
  assert.deepEqual(spans.map((s) => [s.speaker, s.backchannel]), [[0, false], [1, false], [0, false]]);
});

test('a turn that starts while the other still speaks interrupts; one that starts after a gap or touching does not', () => {
  const spans = groupTurns([seg(0, 0, 4), seg(1, 3.5, 6), seg(0, 6.3, 8), seg(1, 8, 9.5)]);
  assert.deepEqual(spans.map((s) => [s.speaker, s.start, s.interrupts]), [
    [0, 0, false],
    [1, 3.5, true],
    [0, 6.3, false],
    [1, 8, false],
  ]);
});

test('a short interruption that outlasts the other speaker is a turn', () => {
  const spans = groupTurns([seg(0, 0, 4), seg(1, 3.6, 4.5), seg(0, 5, 7)]);
  assert.deepEqual(spans.map((s) => [s.speaker, s.backchannel, s.interrupts]), [[0, false, false], [1, false, true], [0, false, false]]);
});

test('a short utterance is a backchannel only when the other speaker talks through it without a pause', () => {
  // Ben speaks 0.9 s, starting in Ana's first utterance and ending in her next one; she paused
  // 0.1 s while he spoke, so he had the floor alone for a moment: a turn that interrupts.
  const spans = groupTurns([seg(0, 0, 1.6), seg(1, 1.2, 2.1), seg(0, 1.7, 3)]);
  assert.deepEqual(spans.map((s) => [s.speaker, s.start, s.backchannel, s.interrupts]), [
    [0, 0, false, false],
    [1, 1.2, false, true],
    [0, 1.7, false, true],
  ]);
  // Her speech touching end to start (one voice cut in two by frame rounding) still runs through.
  const touching = groupTurns([seg(0, 0, 1.6), seg(1, 1.2, 2.1), seg(0, 1.61, 3)]);
  assert.equal(touching.find((s) => s.speaker === 1)?.backchannel, true);
});
