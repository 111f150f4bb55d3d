import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconstruct } from './reconstruct.ts';
import { windowFrames } from './local-speakers.ts';
import type { LocalSegmentation } from '../segmentation/local-segmentation.ts';

/** Two windows of 1 s (output frames of 10 ms) over 1.5 s; `who(w, t)`: the local speakers' bits at output frame t. */
function segmentation(who: (w: number, t: number) => number): LocalSegmentation {
  const windows = [{ startSec: 0, frames: 100 }, { startSec: 0.5, frames: 100 }];
  return {
    speakers: 3,
    stepSec: 0.01,
    durationSec: 0.01,
    windows,
    active: windows.map((_, w) => Uint8Array.from({ length: 100 }, (_, t) => who(w, t))),
    activity: windows.map((_, w) => Float32Array.from({ length: 300 }, (_, x) => (who(w, Math.floor(x / 3)) >> x % 3) & 1)),
  };
}

const speech = new Uint8Array(150).fill(1);
const regions = [{ start: 0, end: 150 }];
const rule = { maxPerFrame: 2, minHeard: 1.8 };

test('local speakers become the recording speakers they were given, and overlap heard by every window gives both', () => {
  // Window 0: local 0 speaks 0-0.7 s, local 1 from 0.6 s. Window 1 (0.5-1.5 s): local 1 is the first voice, local 0 the second.
  const seg = segmentation((w, t) => {
    const sec = w * 0.5 + t / 100;
    return (sec < 0.7 ? (w === 0 ? 1 : 2) : 0) | (sec >= 0.6 ? (w === 0 ? 2 : 1) : 0);
  });
  const speakerOf = Int16Array.from([0, 1, -1, 1, 0, -1]);
  const { first, second } = reconstruct(seg, windowFrames(seg, 1, 150), speakerOf, 2, 150, regions, speech, rule);
  assert.equal(first[30], 0);
  assert.equal(second[30], -1);
  assert.equal(first[120], 1);
  assert.deepEqual([first[65], second[65]].sort(), [0, 1], 'both speak at 0.65 s');
});

test('overlap heard by too few windows gives one speaker; outside speech nobody; holes in speech take a neighbour', () => {
  // Only window 1 hears two voices at 0.6-0.7 s; window 0 hears one.
  const seg = segmentation((w, t) => {
    const sec = w * 0.5 + t / 100;
    if (w === 0) return sec < 0.7 ? 1 : 0;
    return (sec < 0.7 ? 1 : 0) | (sec >= 0.6 ? 2 : 0);
  });
  const notSpeech = Uint8Array.from(speech);
  notSpeech.fill(0, 140);
  const { first, second } = reconstruct(seg, windowFrames(seg, 1, 150), Int16Array.from([0, -1, -1, 0, 1, -1]), 2, 150, [{ start: 0, end: 140 }], notSpeech, rule);
  assert.equal(second[65], -1);
  assert.equal(first[145], -1, 'outside the speech detector: nobody');
  assert.ok(first.subarray(0, 140).every((s) => s >= 0), 'every speech frame has a speaker');
});

test('two voices where the windows are sure of both; one where their most likely class says two but the second voice is unsure', () => {
  // Both windows' most likely class is "local 0 + local 1" from 0.5 s on; local 1's probability is
  // 1 before 1 s and 0.6 after. The expected number of speakers, 2 then 1.6, decides, not the class.
  const seg = segmentation((w, t) => (w * 0.5 + t / 100 >= 0.5 ? 3 : 1));
  seg.activity.forEach((a, w) => {
    for (let t = 0; t < 100; t++) if (w * 0.5 + t / 100 >= 1) a[t * 3 + 1] = 0.6;
  });
  const { first, second } = reconstruct(seg, windowFrames(seg, 1, 150), Int16Array.from([0, 1, -1, 0, 1, -1]), 2, 150, regions, speech, rule);
  assert.deepEqual([first[70], second[70]].sort(), [0, 1], 'both speak at 0.7 s');
  assert.equal(first[120], 0);
  assert.equal(second[120], -1, 'an unsure second voice at 1.2 s is not given');
});
