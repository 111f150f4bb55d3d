// The figures behind `estimatedWaitSec` (issue 21): creations that find them stale while they are
// read again wait for that read instead of each starting its own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ESTIMATE_REFRESH_MS, WaitEstimate } from './wait-estimate.ts';

describe('wait estimate', () => {
  it('reads each figure once for the creations that ask for it at once, and again once it is stale', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    let counts = 0;
    let durations = 0;
    const estimate = new WaitEstimate({
      countActive: async () => {
        counts++;
        await new Promise((r) => setImmediate(r));
        return 7;
      },
      meanRecentDurationSec: async () => {
        durations++;
        await new Promise((r) => setImmediate(r));
        return 2.5;
      },
    });
    const asked = await Promise.all(Array.from({ length: 20 }, () => Promise.all([estimate.activeCount(), estimate.recentDurationSec()])));
    assert.ok(asked.every(([n, sec]) => n === 7 && sec === 2.5));
    assert.deepEqual([counts, durations], [1, 1]);
    estimate.created();
    assert.equal(await estimate.activeCount(), 8);
    t.mock.timers.tick(ESTIMATE_REFRESH_MS);
    await Promise.all(Array.from({ length: 20 }, () => estimate.activeCount()));
    assert.deepEqual([counts, durations], [2, 1]);
  });

  it('a read that fails is not kept: the next creation reads again', async () => {
    let calls = 0;
    const estimate = new WaitEstimate({
      countActive: async () => {
        if (++calls === 1) throw new Error('connection lost');
        return 3;
      },
      meanRecentDurationSec: () => null,
    });
    await assert.rejects(estimate.activeCount(), /connection lost/);
    assert.equal(await estimate.activeCount(), 3);
  });
});
