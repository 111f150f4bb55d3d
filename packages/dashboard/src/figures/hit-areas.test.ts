import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MIN_HIT, hitSpans } from './hit-areas.ts';

const BOUNDS = { from: 0, to: 250 };

describe('timeline hit areas', () => {
  it('give a sliver on its own MIN_HIT px, centred on it', () => {
    const [hit] = hitSpans([{ from: 100, to: 101.5 }], BOUNDS);
    assert.deepEqual(hit, { from: 100.75 - MIN_HIT / 2, to: 100.75 + MIN_HIT / 2 });
  });

  it('leave a segment wider than MIN_HIT as drawn', () => {
    assert.deepEqual(hitSpans([{ from: 10, to: 60 }], BOUNDS), [{ from: 10, to: 60 }]);
  });

  it('slide inside the drawing at its ends, keeping their width', () => {
    const [first, last] = hitSpans([{ from: 0, to: 1.5 }, { from: 248.5, to: 250 }], BOUNDS);
    assert.deepEqual(first, { from: 0, to: MIN_HIT });
    assert.deepEqual(last, { from: 250 - MIN_HIT, to: 250 });
  });

  it('split the room between close segments at the middle of their gap, never overlapping, each covering its drawing', () => {
    // Given out of order: the answer keeps the order given.
    const drawn = [{ from: 110, to: 111.5 }, { from: 100, to: 101.5 }, { from: 104, to: 105.5 }, { from: 140, to: 141.5 }];
    const hits = hitSpans(drawn, BOUNDS);
    assert.deepEqual(hits[1], { from: 100.75 - MIN_HIT / 2, to: (101.5 + 104) / 2 });
    assert.deepEqual(hits[2], { from: (101.5 + 104) / 2, to: (105.5 + 110) / 2 });
    assert.deepEqual(hits[0], { from: (105.5 + 110) / 2, to: 110.75 + MIN_HIT / 2 });
    assert.deepEqual(hits[3], { from: 140.75 - MIN_HIT / 2, to: 140.75 + MIN_HIT / 2 });
    const sorted = [...hits].sort((a, b) => a.from - b.from);
    for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i - 1]!.to <= sorted[i]!.from, `${JSON.stringify(sorted)} overlap`);
    drawn.forEach((d, i) => assert.ok(hits[i]!.from <= d.from && hits[i]!.to >= d.to));
  });

  it('never give less than the drawing, even where segments touch', () => {
    const hits = hitSpans([{ from: 50, to: 60 }, { from: 60, to: 61.5 }], BOUNDS);
    assert.deepEqual(hits, [{ from: 55 - MIN_HIT / 2, to: 60 }, { from: 60, to: 60.75 + MIN_HIT / 2 }]);
  });
});
