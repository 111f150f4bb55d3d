import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combinedSpeechProbability, speechFromProbabilities } from './vad.ts';
import { analyzeFrames } from './features.ts';
import { frameProbabilities, SileroVad } from './silero-vad.ts';
import { synthConversation } from './synthetic.ts';

const quiet = analyzeFrames(new Float32Array(16000 * 3));

test('regions from probabilities: enter at the threshold, stay above it minus the hysteresis, bridge short silences, drop short bursts, pad', () => {
  const p = new Float32Array(300);
  p.fill(0.9, 20, 80); // 0.6 s of speech
  p.fill(0.1, 80, 85); // a dip that stays over 0.05: still speech
  p.fill(0.9, 85, 100);
  p.fill(0.9, 150, 160); // 0.1 s: a burst too short to keep
  p.fill(0.9, 200, 240);
  p.fill(0.9, 245, 260); // 50 ms of silence between: bridged
  const regions = speechFromProbabilities(p, quiet, { threshold: 0.2 });
  assert.deepEqual(regions, [{ start: 17, end: 103 }, { start: 197, end: 263 }]);
});

test("the segmentation's view of speech counts where it is asked to, and only there", () => {
  const detector = Float32Array.from([0.1, 0.1, 0.9]);
  const heard = Float32Array.from([1, 0, 0]);
  assert.deepEqual([...combinedSpeechProbability(detector, heard, 0)], [...detector]);
  assert.deepEqual([...combinedSpeechProbability(detector, heard, 0.5)].map((x) => Math.round(x * 10) / 10), [0.5, 0.1, 0.9]);
});

test('Silero hears synthetic speech and not silence or a steady tone, whatever the chunking', () => {
  const { samples, turns } = synthConversation([{ f0: 120, formantScale: 1 }], 12, { seed: 2, turnSec: 3 });
  const run = (x: Float32Array, chunk: number): Float32Array => {
    const v = new SileroVad();
    for (let i = 0; i < x.length; i += chunk) v.push(x.subarray(i, i + chunk));
    return v.finish();
  };
  const whole = run(samples, samples.length);
  assert.deepEqual([...run(samples, 1000)], [...whole]);
  const f = analyzeFrames(samples);
  const regions = speechFromProbabilities(frameProbabilities(whole, f.frames), f);
  const covered = turns.reduce((a, t) => a + regions.reduce((b, r) => b + Math.max(0, Math.min(r.end, t.end * 100) - Math.max(r.start, t.start * 100)), 0), 0);
  const speech = turns.reduce((a, t) => a + (t.end - t.start) * 100, 0);
  assert.ok(covered / speech > 0.9, `speech found: ${covered / speech}`);
  const tone = Float32Array.from({ length: 16000 * 4 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 16000));
  const ft = analyzeFrames(tone);
  assert.deepEqual(speechFromProbabilities(frameProbabilities(run(tone, 16000), ft.frames), ft), []);
  assert.deepEqual(speechFromProbabilities(frameProbabilities(run(new Float32Array(48000), 16000), quiet.frames), quiet), []);
});
