import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignTranscript } from './align.ts';
import type { SpeechSegment, Transcript } from '../types.ts';

const segments: SpeechSegment[] = [
  { speaker: 0, start: 0, end: 5 },
  { speaker: 1, start: 5.5, end: 9 },
  { speaker: 0, start: 9.5, end: 14 },
  { speaker: 2, start: 15, end: 20 },
];

test('names go to the speakers their cues overlap, one to one', () => {
  const transcript: Transcript = {
    format: 'json',
    cues: [
      { speaker: 'Ana', start: 0.2, end: 4.8, text: 'a' },
      { speaker: 'bob', start: 5.6, end: 8.8, text: 'b' },
      { speaker: 'ANA', start: 9.6, end: 13.9, text: 'c' },
    ],
  };
  assert.deepEqual(alignTranscript(segments, transcript).labels, ['Ana', 'bob', null]);
});

test('a name spread over two speakers labels neither (not confident)', () => {
  const transcript: Transcript = {
    format: 'json',
    cues: [
      { speaker: 'Cy', start: 0, end: 5, text: 'x' },
      { speaker: 'Cy', start: 15, end: 20, text: 'y' },
      { speaker: 'Di', start: 5.5, end: 9, text: 'z' },
    ],
  };
  // Cy overlaps speaker 0 and speaker 2 by 5 s each: 50 % is below the 60 % rule.
  assert.deepEqual(alignTranscript(segments, transcript).labels, [null, 'Di', null]);
});

test('two names cannot take the same speaker', () => {
  const transcript: Transcript = {
    format: 'json',
    cues: [
      { speaker: 'Eve', start: 0, end: 5, text: 'x' },
      { speaker: 'Fay', start: 9.5, end: 14, text: 'y' },
    ],
  };
  // Both names sit on speaker 0: each holds under 60 % of the speaker's matched time (5 of 9.5 s).
  const labels = alignTranscript(segments, transcript).labels;
  assert.equal(labels[0], null);
  assert.equal(labels.filter((l) => l !== null).length, 0);
});
