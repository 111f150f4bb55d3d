import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDiarizationVtt } from './vtt-cues.ts';

const segments = [
  { speaker: 0, start: 0, end: 1.5 },
  { speaker: 1, start: 1.5, end: 3 },
  { speaker: 0, start: 3, end: 4 },
  { speaker: 1, start: 4, end: 5 },
];

describe('the diarization WebVTT read back into cues', () => {
  it('gives words where the export put words, and none where it described who speaks', () => {
    const vtt = [
      'WEBVTT',
      '1\n00:00:00.000 --> 00:00:01.500\n<v Ada>Shall we start?',
      '2\n00:00:01.500 --> 00:00:03.000\n<v Bo &amp; Co>[Bo & Co speaking]',
      '3\n00:00:03.000 --> 00:00:04.000\n<v Ada>Ada',
      '4\n00:00:04.000 --> 00:00:05.000\n<v Bo &amp; Co>Q&amp;A &lt;now&gt;',
    ].join('\n\n');
    const cues = parseDiarizationVtt(vtt, segments);
    assert.deepEqual(cues.map((c) => c.text), ['Shall we start?', null, null, 'Q&A <now>']);
    assert.deepEqual(cues.map((c) => c.speaker), [0, 1, 0, 1]);
    assert.deepEqual(cues.map((c) => [c.start, c.end]), [[0, 1.5], [1.5, 3], [3, 4], [4, 5]]);
  });
});
