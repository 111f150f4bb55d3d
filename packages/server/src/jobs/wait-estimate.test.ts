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
    const asked = await Promise.all(Array.from({ length: 20 }, () => Promise.all([estimate.activeCount('ws_a'), estimate.recentDurationSec('ws_a')])));
    assert.ok(asked.every(([n, sec]) => n === 7 && sec === 2.5));
    assert.deepEqual([counts, durations], [1, 1]);
    estimate.created('ws_a');
    assert.equal(await estimate.activeCount('ws_a'), 8);
    t.mock.timers.tick(ESTIMATE_REFRESH_MS);
    await Promise.all(Array.from({ length: 20 }, () => estimate.activeCount('ws_a')));
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
    await assert.rejects(estimate.activeCount('ws_a'), /connection lost/);
    assert.equal(await estimate.activeCount('ws_a'), 3);
  });

  it("keeps each workspace's figures apart (issue 32, finding 11: the count was the whole store's)", async () => {
    const queued: Record<string, number> = { ws_a: 2, ws_b: 40 };
    const asked: string[] = [];
    const estimate = new WaitEstimate({
      countActive: (ws) => (asked.push(ws), queued[ws] ?? 0),
      meanRecentDurationSec: (ws) => (ws === 'ws_b' ? 30 : 2),
    });
    assert.deepEqual([await estimate.activeCount('ws_a'), await estimate.recentDurationSec('ws_a')], [2, 2]);
    assert.deepEqual([await estimate.activeCount('ws_b'), await estimate.recentDurationSec('ws_b')], [40, 30]);
    estimate.created('ws_b');
    estimate.ended('ws_a');
    assert.deepEqual([await estimate.activeCount('ws_a'), await estimate.activeCount('ws_b')], [1, 41]);
    assert.deepEqual(asked, ['ws_a', 'ws_b']);
  });
});
