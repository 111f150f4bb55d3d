import { test } from 'node:test';
import assert from 'node:assert/strict';
import { framePitchSemitones, hzToSemitones, pitchGaussian, pitchLogLikelihood, pitchSums } from './pitch.ts';

test('F0 statistics skip unvoiced frames, and one held note still gets a floored spread', () => {
  const st = framePitchSemitones(Float32Array.from([0, 110, 220, 0, 110]));
  assert.ok(Number.isNaN(st[0]!) && Number.isNaN(st[3]!));
  assert.equal(st[2]! - st[1]!, 12, 'an octave is 12 semitones');
  assert.deepEqual(pitchSums(st, [0, 1, 3, 4]), { sum: 2 * hzToSemitones(110), sumSq: 2 * hzToSemitones(110) ** 2, voiced: 2 });
  const held = pitchGaussian(pitchSums(st, [1, 4]));
  assert.equal(held.mean, hzToSemitones(110));
  assert.equal(held.sd, 1.5);
  const wide = pitchGaussian(pitchSums(st, [1, 2]));
  assert.equal(wide.sd, 6);
  assert.ok(pitchLogLikelihood(wide.mean, wide) > pitchLogLikelihood(wide.mean + 6, wide));
});
