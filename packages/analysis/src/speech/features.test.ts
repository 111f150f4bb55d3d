import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFrames } from './features.ts';
import { detectSpeech } from './vad.ts';
import { prng, renderSpeech, addNoise } from './synthetic.ts';

test('YIN pitch finds F0 of harmonic sounds, including a missing fundamental (telephone band)', () => {
  for (const f0 of [85, 120, 210, 330]) {
    const x = new Float32Array(16000);
    for (let i = 0; i < x.length; i++) {
      let v = 0;
      for (let h = 1; h * f0 < 3400; h++) if (h * f0 > 300) v += Math.sin((2 * Math.PI * h * f0 * i) / 16000 + h) / h;
      x[i] = 0.1 * v;
    }
    const f = analyzeFrames(x);
    const mid = f.pitchHz.subarray(20, 80);
    for (const hz of mid) assert.ok(Math.abs(hz - f0) / f0 < 0.02, `F0 ${f0}: got ${hz}`);
  }
});

test('frame level matches the signal level (a 0.5 sine is -9 dBFS) and silence is unvoiced', () => {
  const x = new Float32Array(32000);
  for (let i = 0; i < 16000; i++) x[i] = 0.5 * Math.sin((2 * Math.PI * 1000 * i) / 16000);
  const f = analyzeFrames(x);
  assert.ok(Math.abs(f.energyDb[50]! - -9.03) < 0.2, `level ${f.energyDb[50]}`);
  assert.equal(f.frames, 200);
  assert.equal(f.pitchHz[150], 0);
  assert.ok(f.energyDb[150]! < -100);
});

test('VAD: steady noise and pure-tone beeps are not speech; speech-like sound is', () => {
  const rand = prng(7);
  const x = new Float32Array(16000 * 12);
  addNoise(x, -50, rand);
  for (const at of [2, 6]) for (let i = at * 16000; i < (at + 0.8) * 16000; i++) x[i] = x[i]! + 0.3 * Math.sin((2 * Math.PI * 440 * i) / 16000);
  assert.deepEqual(detectSpeech(analyzeFrames(x)), []);
  renderSpeech(x, 16000, { f0: 140, formantScale: 1 }, 8, 11, rand);
  const regions = detectSpeech(analyzeFrames(x));
  assert.ok(regions.length >= 1);
  const covered = regions.reduce((s, r) => s + r.end - r.start, 0) / 100;
  assert.ok(regions.every((r) => r.start >= 790 && r.end <= 1115), JSON.stringify(regions));
  assert.ok(covered > 2.2, `covered ${covered}`);
});
