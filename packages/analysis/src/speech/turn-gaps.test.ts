import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restoreTurnGaps, silenceEdges } from './turn-gaps.ts';
import type { FrameFeatures } from './features.ts';

/** Band levels: -20 dB everywhere except the given silent frame ranges (-80 dB). */
function levels(frames: number, silent: [number, number][]): FrameFeatures {
  const bandDb = new Float32Array(frames).fill(-20);
  for (const [a, b] of silent) bandDb.fill(-80, a, b);
  return { frames, bandDb } as unknown as FrameFeatures;
}

function track(parts: [number, number][]): Int16Array {
  const out: number[] = [];
  for (const [speaker, n] of parts) for (let i = 0; i < n; i++) out.push(speaker);
  return Int16Array.from(out);
}

test('the silence near a speaker change becomes a gap, and the change moves to it', () => {
  // Speaker 0 for 100 frames, 1 for 100; the real pause is frames 90-96 (the change was late).
  const out = restoreTurnGaps(track([[0, 100], [1, 100]]), levels(200, [[90, 96]]), -50);
  assert.deepEqual([out[89], out[90], out[95], out[96], out[99]], [0, -1, -1, 1, 1]);
});

test('a change with no silence nearby, or too short a one, stays touching', () => {
  const input = track([[0, 100], [1, 100]]);
  assert.deepEqual(restoreTurnGaps(input, levels(200, []), -50), input);
  assert.deepEqual(restoreTurnGaps(input, levels(200, [[99, 101]]), -50), input);
  // A pause of the same speaker far from the change is not the change's gap.
  assert.deepEqual(restoreTurnGaps(input, levels(200, [[20, 30]]), -50), input);
});

test('a known overlap keeps its change touching', () => {
  const input = track([[0, 100], [1, 100]]);
  assert.deepEqual(restoreTurnGaps(input, levels(200, [[95, 99]]), -50, {}, [{ start: 100, end: 130 }]), input);
});

test('silence edges: where speech stops and starts around silences of at least 5 frames', () => {
  // Silent at the start (0-10), a 3-frame dip (50-53, too short), a pause (100-120), silent at the end.
  const { bandDb } = levels(200, [[0, 10], [50, 53], [100, 120], [190, 200]]);
  assert.deepEqual(silenceEdges(bandDb, -50), { onsets: [10, 120], offsets: [100, 190] });
  assert.deepEqual(silenceEdges(bandDb, -50, 2), { onsets: [10, 53, 120], offsets: [50, 100, 190] });
});
