import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFrames } from './features.ts';
import { addNoise, prng, renderSpeech, type SyntheticVoice } from './synthetic.ts';
import { fitLda } from './diarization/lda.ts';
import { TrainedVoiceprint, voiceStats, VOICE_STATS_DIMS, type VoiceprintModel } from './trained-voiceprint.ts';
import { VOICEPRINT_LDA } from './voiceprint-lda.model.ts';
import { voiceprintSimilarity } from './voiceprint.ts';

function features(voice: SyntheticVoice, seed: number, sec = 12, gain = 1): ReturnType<typeof analyzeFrames> {
  const x = new Float32Array(16000 * sec);
  const rand = prng(seed);
  renderSpeech(x, 16000, voice, 0.2, sec - 0.2, rand);
  addNoise(x, -50, rand);
  return analyzeFrames(x.map((v) => v * gain));
}

test('voiceStats: the cepstral means and deviations and the pitch quantiles of the voiced frames, none under 0.5 s', () => {
  const f = features({ f0: 120, formantScale: 1 }, 1);
  const all = new Int16Array(f.frames);
  const v = voiceStats(f, all, 0)!;
  assert.equal(v.length, VOICE_STATS_DIMS);
  // F0 quantiles ascend, around 120 Hz (pitch.ts' semitones above 27.5 Hz: 25.5).
  const q = Array.from(v.subarray(38));
  q.slice(1).forEach((x, i) => assert.ok(x >= q[i]!));
  assert.ok(Math.abs(q[2]! - 12 * Math.log2(120 / 27.5)) < 2, `median ${q[2]}`);
  for (let d = 19; d < 38; d++) assert.ok(v[d]! >= 0);
  // A speaker with a quarter of a second of frames gives nothing to judge.
  const short = new Int16Array(f.frames).fill(-1);
  let n = 0;
  for (let i = 0; i < f.frames && n < 25; i++)
    if (f.pitchHz[i]! > 0) {
      short[i] = 0;
      n++;
    }
  assert.equal(voiceStats(f, short, 0), null);
  assert.deepEqual(new TrainedVoiceprint(VOICEPRINT_LDA).extract(f, short, 0), new Array<number>(VOICEPRINT_LDA.lda.rows.length).fill(0));
});

test('the shipped model: a unit-length voiceprint that the recording level does not move', () => {
  const vp = new TrainedVoiceprint(VOICEPRINT_LDA);
  const voice = { f0: 180, formantScale: 1.1 };
  const loud = features(voice, 3);
  const soft = features(voice, 3, 12, 0.25);
  const a = vp.extract(loud, new Int16Array(loud.frames), 0);
  const b = vp.extract(soft, new Int16Array(soft.frames), 0);
  assert.equal(a.length, vp.dimensions);
  assert.ok(Math.abs(Math.hypot(...a) - 1) < 1e-3);
  assert.ok(voiceprintSimilarity(a, b) > 0.97, `${voiceprintSimilarity(a, b)}`);
});

test('the projection is what tells voices apart: a model trained on what varies within a voice ignores it', () => {
  // Voices differ in F0; within a voice, recordings differ in formants (the stand-in for a
  // channel). Trained on that, the voiceprint keeps two recordings of one voice together though
  // their formants differ, and tells two voices of close pitch apart.
  const stats: Float64Array[] = [];
  const labels: number[] = [];
  let seed = 10;
  for (let voice = 0; voice < 6; voice++)
    for (const formantScale of [0.9, 1, 1.1]) {
      const f = features({ f0: 100 + 25 * voice, formantScale }, seed++, 6);
      stats.push(voiceStats(f, new Int16Array(f.frames), 0)!);
      labels.push(voice);
    }
  const model: VoiceprintModel = { name: 'test', lda: fitLda(stats, labels, 3, 0.001) };
  const vp = new TrainedVoiceprint(model);
  const of = (voice: SyntheticVoice, s: number): number[] => {
    const f = features(voice, s, 6);
    return vp.extract(f, new Int16Array(f.frames), 0);
  };
  const a1 = of({ f0: 140, formantScale: 0.92 }, 100);
  const a2 = of({ f0: 140, formantScale: 1.08 }, 101);
  const b = of({ f0: 170, formantScale: 0.92 }, 102);
  assert.ok(voiceprintSimilarity(a1, a2) > voiceprintSimilarity(a1, b) + 0.2, `same ${voiceprintSimilarity(a1, a2)}, other ${voiceprintSimilarity(a1, b)}`);
});

test('a model of another length of statistics is refused', () => {
  assert.throws(() => new TrainedVoiceprint({ name: 'bad', lda: { mean: [0, 0], rows: [[1, 0]] } }), /expects 43 statistics/);
});
