import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkRanges } from './long-recordings.ts';

test('chunks cut between speech regions, cover every region once, and hold chunk-relative regions', () => {
  // 100 regions of 2 s every 3 s: 300 s; chunks of about 100 s.
  const regions = Array.from({ length: 100 }, (_, i) => ({ start: i * 300, end: i * 300 + 200 }));
  const chunks = chunkRanges(regions, 30000, 10000);
  assert.equal(chunks.length, 3);
  assert.equal(chunks.reduce((n, c) => n + c.regions.length, 0), 100);
  for (const c of chunks) {
    assert.equal(c.regions[0]!.start, 0);
    assert.equal(c.regions[c.regions.length - 1]!.end, c.end - c.start);
    assert.ok(c.end - c.start <= 10200, `${c.end - c.start} frames`);
  }
  assert.deepEqual(chunkRanges([], 30000, 10000), []);
});
