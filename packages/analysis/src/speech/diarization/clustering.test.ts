import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterSpeakers, mergeHistory, type ClusterItem } from './clustering.ts';
import { seededRandom } from '../../behavior/stats.ts';

const SETTINGS = { threshold: 0.8, minSpeakerSec: 2 };

/** `n` items near each of the given directions (unit vectors of dimension 8), 3 s of clean speech each, one per window. */
function voices(centres: number[], n: number, noise = 0.3, seed = 1): { items: ClusterItem[]; truth: number[] } {
  const rand = seededRandom(seed);
  const items: ClusterItem[] = [];
  const truth: number[] = [];
  let w = 0;
  for (let k = 0; k < n; k++)
    centres.forEach((c, v) => {
      const e = Float64Array.from({ length: 8 }, (_, d) => (d === c ? 1 : 0) + noise * (rand() * 2 - 1));
      items.push({ embedding: e, groups: [w++], frames: 300 });
      truth.push(v);
    });
  return { items, truth };
}

test('clearly different voices are found, each item with its own voice', () => {
  const { items, truth } = voices([0, 3, 6], 8);
  const c = clusterSpeakers(items, { min: 1, max: Infinity }, SETTINGS);
  assert.equal(c.k, 3);
  for (let i = 0; i < items.length; i++) for (let j = 0; j < items.length; j++) assert.equal(c.labels[i] === c.labels[j], truth[i] === truth[j]);
  assert.ok(c.evidence.nextMerge! > 1, 'the next merge was over the threshold');
  assert.ok(c.evidence.lastMerge! < 1, 'the last merge was under it');
});

test("the user's bounds come first: an exact count merges or splits whatever the threshold says", () => {
  const { items } = voices([0, 3, 6], 8);
  assert.equal(clusterSpeakers(items, { min: 2, max: 2 }, SETTINGS).k, 2);
  assert.equal(clusterSpeakers(items, { min: 5, max: 5 }, SETTINGS).k, 5);
  assert.equal(clusterSpeakers(items, { min: 1, max: 1 }, SETTINGS).k, 1);
});

test('two items heard in one window are as far apart as two embeddings can be', () => {
  // Two identical embeddings in one window merge last, after every other pair.
  const same = Float64Array.from([1, 0, 0]);
  const items: ClusterItem[] = [
    { embedding: same, groups: [0], frames: 300 },
    { embedding: same, groups: [0], frames: 300 },
    { embedding: Float64Array.from([0, 1, 0]), groups: [1], frames: 300 },
  ];
  const merges = mergeHistory(items);
  assert.equal(merges.length, 2);
  assert.ok(!(merges[0]!.a === 0 && merges[0]!.b === 1), 'the first merge is not the pair of one window');
  assert.ok(merges[1]!.distance > merges[0]!.distance);
});

test('a cluster with too little clean speech is no speaker of its own: its items go to the nearest speaker', () => {
  const { items } = voices([0, 4], 6, 0.2);
  // One short item of a third direction, 0.5 s of clean speech.
  items.push({ embedding: Float64Array.from([0, 0, 1, 0, 0, 0, 0, 0.2]), groups: [99], frames: 50 });
  const c = clusterSpeakers(items, { min: 1, max: Infinity }, SETTINGS);
  assert.equal(c.k, 2);
  assert.ok(c.labels[items.length - 1]! >= 0, 'it still has a speaker');
});

test('no items: no speakers', () => {
  assert.equal(clusterSpeakers([], { min: 1, max: Infinity }, SETTINGS).k, 0);
});

test('with the speaker space, VBx weighs each dimension by how much voices differ along it', () => {
  // Dimension 0 tells voices apart (between-speaker variance 9), dimension 1 hardly (0.01): one
  // voice's items lean along it, and an item of the other voice leaning the same way is nearer
  // them by cosine. The linkage gives it to the wrong voice; VBx, reading dimension 1 for what it
  // is worth, gives it back.
  const rand = seededRandom(3);
  const jitter = (): number => 0.2 * (rand() * 2 - 1);
  const items: ClusterItem[] = [];
  for (let k = 0; k < 8; k++) items.push({ embedding: Float64Array.of(3 + jitter(), jitter(), jitter(), jitter()), groups: [items.length], frames: 300 });
  for (let k = 0; k < 8; k++) items.push({ embedding: Float64Array.of(-3 + jitter(), 5 + jitter(), jitter(), jitter()), groups: [items.length], frames: 300 });
  items.push({ embedding: Float64Array.of(2, 5, 0, 0), groups: [items.length], frames: 300 });
  const odd = items.length - 1;
  const space = { within: [1, 1, 1, 1], between: [9, 0.01, 0.01, 0.01] };
  const linkage = clusterSpeakers(items, { min: 1, max: Infinity }, SETTINGS);
  assert.equal(linkage.k, 2);
  assert.equal(linkage.labels[odd], linkage.labels[8], 'by cosine it sits with the second voice');
  const refined = clusterSpeakers(items, { min: 1, max: Infinity }, { ...SETTINGS, vbxFa: 3, vbxFb: 1 }, space);
  assert.equal(refined.k, 2);
  assert.equal(refined.labels[odd], refined.labels[0], 'VBx gives it to the first');
  for (let i = 1; i < 8; i++) assert.equal(refined.labels[i], refined.labels[0]);
  for (let i = 9; i < 16; i++) assert.equal(refined.labels[i], refined.labels[8]);
  // A count the user asked for is refined alike.
  const asked = clusterSpeakers(items, { min: 2, max: 2 }, { ...SETTINGS, vbxFa: 3, vbxFb: 1 }, space);
  assert.equal(asked.k, 2);
  assert.equal(asked.labels[odd], asked.labels[0]);
});

test("VBx never takes the count under the user's minimum", () => {
  // Three items of one voice, asked for three speakers: the linkage splits them, VBx would merge them.
  const items: ClusterItem[] = [0, 1, 2].map((w) => ({ embedding: Float64Array.of(1, 0.01 * w, 0, 0), groups: [w], frames: 300 }));
  const space = { within: [1, 1, 1, 1], between: [0.01, 0.01, 0.01, 0.01] };
  const c = clusterSpeakers(items, { min: 3, max: 3 }, { ...SETTINGS, vbxFa: 3, vbxFb: 30 }, space);
  assert.equal(c.k, 3);
  assert.equal(new Set(c.labels).size, 3);
});
