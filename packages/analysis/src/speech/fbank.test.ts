import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../behavior/stats.ts';
import { FBANK_SCALE, FbankAnalyzer, type FbankOptions } from './fbank.ts';

const OPTIONS: FbankOptions = { bins: 80, window: 'povey', sampleScale: 1 };

function tone(hz: number, seconds: number, amplitude = 0.5): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * 16000) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / 16000));
}

function fbankOf(x: Float32Array, options = OPTIONS, chunk = 1000): { bins: number; data: Int16Array; frames: number } {
  const a = new FbankAnalyzer(options);
  for (let i = 0; i < x.length; i += chunk) a.push(x.subarray(i, i + chunk));
  const f = a.finish();
  return { ...f, frames: f.data.length / f.bins };
}

/** The centre of band m in Hz (bands evenly spaced on 1127 ln(1 + f/700) from 20 Hz to 8 kHz). */
function centreHz(m: number, bins: number): number {
  const mel = (hz: number): number => 1127 * Math.log(1 + hz / 700);
  const lo = mel(20);
  const c = lo + ((m + 1) * (mel(8000) - lo)) / (bins + 1);
  return 700 * (Math.exp(c / 1127) - 1);
}

test('one row per 10 ms of input, whatever the chunking', () => {
  const x = tone(440, 1.2345);
  const a = fbankOf(x, OPTIONS, 1000);
  const b = fbankOf(x, OPTIONS, 777);
  assert.equal(a.frames, Math.ceil(x.length / 160));
  assert.deepEqual(a.data, b.data);
});

test('a tone peaks in the band whose centre is nearest to it', () => {
  for (const hz of [300, 1000, 3000]) {
    const f = fbankOf(tone(hz, 0.5));
    const row = f.data.subarray(20 * 80, 21 * 80);
    let best = 0;
    for (let m = 1; m < 80; m++) if (row[m]! > row[best]!) best = m;
    let nearest = 0;
    for (let m = 1; m < 80; m++) if (Math.abs(centreHz(m, 80) - hz) < Math.abs(centreHz(nearest, 80) - hz)) nearest = m;
    assert.ok(Math.abs(best - nearest) <= 1, `${hz} Hz peaks in band ${best}, nearest centre is band ${nearest}`);
  }
});

test('twice the amplitude adds ln 4 to every band (power), and sampleScale is that same gain', () => {
  // Broadband, so that no band sits at the floor.
  const rand = seededRandom(9);
  const x = Float32Array.from({ length: 8000 }, () => 0.2 * (rand() - 0.5));
  const a = fbankOf(x);
  const b = fbankOf(Float32Array.from(x, (v) => 2 * v));
  const c = fbankOf(x, { ...OPTIONS, sampleScale: 2 });
  for (let i = 20 * 80; i < 30 * 80; i++) {
    assert.ok(Math.abs((b.data[i]! - a.data[i]!) / FBANK_SCALE - Math.log(4)) < 0.01, `value ${i}`);
    assert.equal(c.data[i], b.data[i]);
  }
});

test('a constant offset is removed with the DC: a silent frame reads the floor, float32 epsilon', () => {
  const f = fbankOf(new Float32Array(16000).fill(0.3));
  const floor = Math.round(Math.log(1.1920928955078125e-7) * FBANK_SCALE);
  for (let i = 0; i < 50 * 80; i++) assert.equal(f.data[i], floor);
});

test('bins outside 10-128 are refused', () => {
  assert.throws(() => new FbankAnalyzer({ ...OPTIONS, bins: 4 }), RangeError);
  assert.throws(() => new FbankAnalyzer({ ...OPTIONS, bins: 200 }), RangeError);
});

test('the same numbers as Kaldi (torchaudio.compliance.kaldi.fbank, dither 0, energy floor 0)', () => {
  // References computed once with Debian's python3-torchaudio 0.13.1 from this very signal; over
  // all 98 x 80 values the largest difference was 0.0032 (povey) and 0.0020 (hamming), within the
  // 1/256 fixed point the engine keeps.
  const n = 16000;
  const x = Float32Array.from({ length: n }, (_, i) => 0.3 * Math.sin(2 * Math.PI * (200 + (900 * i) / n) * (i / n)) + 0.1 * Math.sin((2 * Math.PI * 3100 * i) / n) + 0.05 * Math.sin(i * i * 0.0001));
  const references = {
    povey: [[0, 0, -4.4465], [10, 13, 3.2214], [37, 40, -14.4852], [97, 79, 2.2914]],
    hamming: [[0, 0, -4.3061], [10, 13, 3.2422], [37, 40, -7.3204], [97, 79, 2.2717]],
  } as const;
  for (const window of ['povey', 'hamming'] as const) {
    const f = fbankOf(x, { ...OPTIONS, window }, n);
    for (const [t, m, v] of references[window]) assert.ok(Math.abs(f.data[t * 80 + m]! / FBANK_SCALE - v) < 0.005, `${window} frame ${t} band ${m}: ${f.data[t * 80 + m]! / FBANK_SCALE} vs ${v}`);
  }
});
