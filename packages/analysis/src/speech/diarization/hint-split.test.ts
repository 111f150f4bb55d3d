import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitRuns, splitToMinimum } from './hint-split.ts';
import type { RangeEmbedder } from './window-embedding.ts';

const run = (start: number, x: number, y: number) => ({ start, end: start + 100, e: Float64Array.from([x, y]) });

test('splitRuns parts runs by two-means on their embeddings, keeping each run whole', () => {
  const parts = splitRuns([run(0, 0, 0), run(100, 5, 5), run(200, 0.2, -0.1), run(300, 5.3, 4.9)], 2);
  assert.ok(parts);
  const starts = parts.map((p) => p.map((r) => r.start).sort((a, b) => a - b)).sort((a, b) => a[0]! - b[0]!);
  assert.deepEqual(starts, [[0, 200], [100, 300]]);
  assert.equal(splitRuns([run(0, 1, 1)], 2), null);
});

test('splitToMinimum splits the largest speaker until the minimum, and stops where no speaker has two runs', () => {
  // Speaker 0 speaks in three runs whose embeddings (the run's start frame) fall in two groups; speaker 1 once.
  const track = new Int16Array(1000).fill(-1);
  track.fill(0, 0, 200);
  track.fill(0, 300, 500);
  track.fill(0, 600, 800);
  track.fill(1, 850, 950);
  const emb: RangeEmbedder = { name: 't', dims: 1, windowFrames: 150, embed: (start) => Float64Array.from([start < 550 ? 0 : 10]) };
  assert.equal(splitToMinimum(track, 2, 3, emb), 3);
  assert.equal(track[650], 2);
  assert.equal(track[100], 0);
  assert.equal(track[400], 0);
  assert.equal(splitToMinimum(track, 3, 6, emb), 3, 'runs the embedding cannot tell apart stay together; one-run speakers stay whole');
  assert.equal(splitToMinimum(track, 3, 6, null), 3, 'no embedding, no split');
});
