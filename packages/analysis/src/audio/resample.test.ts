import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resample, StreamingResampler } from './resample.ts';

function tone(hz: number, rate: number, seconds: number): Float32Array {
  return Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));
}

function rms(x: Float32Array): number {
  let s = 0;
  const a = Math.floor(x.length * 0.1);
  const b = Math.floor(x.length * 0.9);
  for (let i = a; i < b; i++) s += x[i]! ** 2;
  return Math.sqrt(s / (b - a));
}

test('keeps an in-band tone and its level (44.1 kHz -> 16 kHz)', () => {
  const y = resample(tone(1000, 44100, 1), 44100, 16000);
  assert.ok(Math.abs(y.length - 16000) <= 1);
  assert.ok(Math.abs(rms(y) - 0.5 / Math.SQRT2) < 0.01, `rms ${rms(y)}`);
});

test('removes a tone above the output Nyquist instead of aliasing it (48 kHz -> 16 kHz)', () => {
  const y = resample(tone(11000, 48000, 1), 48000, 16000);
  assert.ok(rms(y) < 0.01, `alias rms ${rms(y)}`);
});

test('chunked streaming gives the same samples as one block', () => {
  const x = tone(700, 22050, 0.5);
  const whole = resample(x, 22050, 16000);
  const r = new StreamingResampler(22050, 16000);
  const parts: number[] = [];
  for (let i = 0; i < x.length; i += 1234) parts.push(...r.push(x.subarray(i, Math.min(x.length, i + 1234))));
  parts.push(...r.flush());
  assert.equal(parts.length, whole.length);
  for (let i = 0; i < whole.length; i++) assert.ok(Math.abs(parts[i]! - whole[i]!) < 1e-5);
});
