import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelope } from './speaker-stats.ts';

describe('loudness envelope', () => {
  it('is the RMS per bin scaled to the loudest', () => {
    const samples = new Float32Array(400);
    for (let i = 200; i < 400; i++) samples[i] = i % 2 ? 0.5 : -0.5;
    const env = envelope(samples, 4);
    assert.deepEqual(env, [0, 0, 1, 1]);
  });
});
