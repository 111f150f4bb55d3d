import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFrames } from './features.ts';
import { addNoise, prng, renderSpeech, type SyntheticVoice } from './synthetic.ts';
import { CepstralVoiceprint, linkSpeakers, rawVoiceStats, VOICE_BAND_CENTRES_HZ, voiceBandShape, voiceprintSimilarity } from './voiceprint.ts';

test('linkSpeakers links the most similar pairs one-to-one and only above the threshold', () => {
  const existing = [
    { entityId: 'a', voiceprint: [1, 0, 0] },
    { entityId: 'b', voiceprint: [0, 1, 0] },
  ];
  // Both new speakers resemble "a"; the closer one gets it, the other gets nothing (not "a" twice).
  const out = linkSpeakers([[0.9, 0.1, 0], [0.99, 0.01, 0], [0, 0, 1]], existing, 0.8);
  assert.deepEqual(out, [null, 'a', null]);
  assert.deepEqual(linkSpeakers([[0.1, 1, 0]], existing, 0.8), ['b']);
  assert.deepEqual(linkSpeakers([[0.1, 1, 0]], existing, 0.999), [null]);
  assert.deepEqual(linkSpeakers([], existing), []);
  // Voiceprints of another length (another extractor) never link.
  assert.deepEqual(linkSpeakers([[1, 0]], existing, 0), [null]);
});

test('a voiceprint stored by the v1 extractor (22 numbers) never links to a current one', () => {
  const v = new CepstralVoiceprint();
  assert.notEqual(v.dimensions, 22);
  const current = new Array<number>(v.dimensions).fill(1);
  assert.deepEqual(linkSpeakers([current], [{ entityId: 'old', voiceprint: new Array<number>(22).fill(1) }], -1), [null]);
});

test('voiceprint similarity is the cosine', () => {
  assert.equal(voiceprintSimilarity([1, 0], [0, 1]), 0);
  assert.ok(Math.abs(voiceprintSimilarity([1, 2], [2, 4]) - 1) < 1e-12);
  assert.ok(Math.abs(voiceprintSimilarity([1, 0], [-1, 0]) + 1) < 1e-12);
});

test('the voice-band shape rebuilt from the cepstra peaks at a tone (same mel layout as features.ts)', () => {
  for (const hz of [500, 1000, 2000, 3000]) {
    const x = new Float32Array(8000);
    for (let i = 0; i < x.length; i++) x[i] = 0.3 * Math.sin((2 * Math.PI * hz * i) / 16000);
    const shape = voiceBandShape(analyzeFrames(x), 25);
    const peak = shape.indexOf(Math.max(...shape));
    const nearest = VOICE_BAND_CENTRES_HZ.reduce((best, c, j) => (Math.abs(c - hz) < Math.abs(VOICE_BAND_CENTRES_HZ[best]! - hz) ? j : best), 0);
    assert.equal(peak, nearest, `${hz} Hz peaks at ${VOICE_BAND_CENTRES_HZ[peak]} Hz`);
  }
});

/** Second-order RBJ low- or high-pass, applied `order / 2` times. */
function filter(x: Float32Array, kind: 'low' | 'high', hz: number, order: number): Float32Array {
  const w = (2 * Math.PI * hz) / 16000;
  const cos = Math.cos(w);
  const alpha = Math.sin(w) / Math.SQRT2;
  const b = kind === 'low' ? [(1 - cos) / 2, 1 - cos, (1 - cos) / 2] : [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2];
  const a = [1 + alpha, -2 * cos, 1 - alpha];
  let y = x;
  for (let pass = 0; pass < order / 2; pass++) {
    const input = y;
    y = new Float32Array(input.length);
    let [x1, x2, y1, y2] = [0, 0, 0, 0];
    for (let i = 0; i < input.length; i++) {
      const v = (b[0]! * input[i]! + b[1]! * x1 + b[2]! * x2 - a[1]! * y1 - a[2]! * y2) / a[0]!;
      [x2, x1, y2, y1] = [x1, input[i]!, y1, v];
      y[i] = v;
    }
  }
  return y;
}

function voiceprintOf(voice: SyntheticVoice, seed: number, channel: (x: Float32Array) => Float32Array = (x) => x): number[] {
  const x = new Float32Array(16000 * 20);
  renderSpeech(x, 16000, voice, 0.2, 19.8, prng(seed));
  const f = analyzeFrames(channel(x));
  return new CepstralVoiceprint().extract(f, new Int16Array(f.frames), 0);
}

test('a voice heard through a telephone or an 8 kHz source stays closer to itself than to another voice', () => {
  // Same F0 for both voices, so only the spectral part can tell them apart.
  const a: SyntheticVoice = { f0: 190, formantScale: 1.15 };
  const b: SyntheticVoice = { f0: 190, formantScale: 1.0 };
  const aFull = voiceprintOf(a, 1);
  const other = voiceprintSimilarity(aFull, voiceprintOf(b, 2));
  const telephone = (x: Float32Array): Float32Array => filter(filter(x, 'high', 300, 4), 'low', 3400, 4);
  const source8k = (x: Float32Array): Float32Array => filter(x, 'low', 3800, 8);
  for (const [name, channel] of [['telephone', telephone], ['8 kHz', source8k]] as const) {
    const same = voiceprintSimilarity(aFull, voiceprintOf(a, 3, channel));
    assert.ok(same > other + 0.1, `${name}: same voice ${same.toFixed(3)}, other voice ${other.toFixed(3)}`);
  }
});

test('the raw statistics do not depend on the recording level', () => {
  const x = new Float32Array(16000 * 5);
  const rand = prng(4);
  renderSpeech(x, 16000, { f0: 120, formantScale: 1 }, 0.2, 4.8, rand);
  // A noise floor, scaled with the speech: without it the empty bands would sit at the log floor
  // of features.ts (-100 dB per band) in one copy and not the other, a change of shape that the
  // truncated cepstra smear into the voice band. Even at -45 dBFS it moves the statistics by
  // ~0.003, against a spread of 0.06-1.3 across voices (VOICEPRINT_SCALE).
  addNoise(x, -45, rand);
  const loud = analyzeFrames(x);
  const soft = analyzeFrames(x.map((v) => v * 0.25)); // -12 dB
  // The same frames in both (a quieter recording loses pitch on the faintest ones).
  const track = Int16Array.from({ length: loud.frames }, (_, i) => (loud.pitchHz[i]! > 0 && soft.pitchHz[i]! > 0 ? 0 : -1));
  const a = rawVoiceStats(loud, track, 0)!;
  const b = rawVoiceStats(soft, track, 0)!;
  a.forEach((v, i) => assert.ok(Math.abs(v - b[i]!) < 0.01, `statistic ${i}: ${v} vs ${b[i]}`));
});
