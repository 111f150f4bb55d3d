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
