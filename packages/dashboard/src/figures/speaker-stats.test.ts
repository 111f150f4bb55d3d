import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelope, speakerFigures, turnsOf } from './speaker-stats.ts';

describe('speaker figures from a diarization', () => {
  const segments = [
    { speaker: 0, start: 0, end: 2 },
    { speaker: 0, start: 2.2, end: 3 },
    { speaker: 1, start: 3.5, end: 6 },
    { speaker: 0, start: 5.5, end: 7 },
    { speaker: 1, start: 8, end: 9 },
  ];

  it('joins consecutive segments of one speaker into a turn', () => {
    assert.deepEqual(turnsOf(segments).map((t) => [t.speaker, t.start, t.end]), [[0, 0, 3], [1, 3.5, 6], [0, 5.5, 7], [1, 8, 9]]);
  });

  it('counts speech, share, turns, pauses before a turn and turns started in overlap', () => {
    const [a, b] = speakerFigures(segments);
    assert.ok(a && b);
    assert.equal(a.speechSec.toFixed(2), '4.30');
    assert.equal(b.speechSec.toFixed(2), '3.50');
    assert.equal((a.share + b.share).toFixed(6), '1.000000');
    assert.equal(a.turns, 2);
    assert.equal(b.turns, 2);
    assert.equal(a.longestTurnSec, 3);
    // Speaker 0 took the floor once while 1 still spoke (5.5 < 6): an overlap, not a pause.
    assert.equal(a.overlapsStarted, 1);
    assert.equal(a.meanPauseBeforeSec, null);
    // Speaker 1 waited 0.5 s, then 1 s.
    assert.equal(b.meanPauseBeforeSec, 0.75);
  });

  it('gives nothing for no segments', () => {
    assert.deepEqual(speakerFigures([]), []);
  });
});

describe('loudness envelope', () => {
  it('is the RMS per bin scaled to the loudest', () => {
    const samples = new Float32Array(400);
    for (let i = 200; i < 400; i++) samples[i] = i % 2 ? 0.5 : -0.5;
    const env = envelope(samples, 4);
    assert.deepEqual(env, [0, 0, 1, 1]);
  });
});
