// The figures behind `estimatedWaitSec`: the work ahead of a new job as the claims' turns order it
// (every running task, the workspace's own queue, other workspaces' tasks of the turns before
// it), and their reads: creations that find them stale while they are read again wait for that
// read instead of each starting its own (issue 21).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ANALYSIS_SPEED, ANALYSIS_START_SEC, ESTIMATE_REFRESH_MS, snapshotOf, WaitEstimate, workAheadSec, type QueueRow } from './wait-estimate.ts';

const JOB_SEC = 4;
/** Groups of the queue: [workspace, last claim, kind, running, count, media seconds]. */
function rows(...groups: [string, number, QueueRow['kind'], 0 | 1, number, number?][]): QueueRow[] {
  return groups.map(([workspace_id, last_claim, kind, running, n, media_sec]) => ({ workspace_id, last_claim, kind, running, n, media_sec: media_sec ?? 0 }));
}
const ahead = (r: QueueRow[], ws: string, lastClaim = 0) => Math.round(workAheadSec(snapshotOf(r), ws, lastClaim, JOB_SEC) * 1000) / 1000;

describe('the work ahead of a new job', () => {
  it('is nothing on an empty queue, and every running task of any workspace', () => {
    assert.equal(ahead([], 'ws_a'), 0);
    assert.equal(ahead(rows(['ws_b', 5, 'job.run', 1, 2], ['ws_c', 6, 'media.analyze', 1, 1, 300]), 'ws_a'), 2 * JOB_SEC + ANALYSIS_START_SEC + 300 / ANALYSIS_SPEED);
  });

  it("counts the workspace's own queued analyses, each by its media's duration, as well as its jobs", () => {
    assert.equal(ahead(rows(['ws_a', 1, 'media.analyze', 0, 2, 600], ['ws_a', 1, 'job.run', 0, 1]), 'ws_a'), 2 * ANALYSIS_START_SEC + 600 / ANALYSIS_SPEED + JOB_SEC);
  });

  it("counts of another workspace's queue the turns it gets before the job, no more", () => {
    // ws_b has 10 jobs queued. ws_a has nothing queued: the new job is its next claim.
    const other = ['ws_b', 5, 'job.run', 0, 10] as const;
    assert.equal(ahead(rows([...other]), 'ws_a', 9), JOB_SEC, 'ws_b was served longer ago: one of its tasks first');
    assert.equal(ahead(rows([...other]), 'ws_a', 3), 0, 'ws_a was served longer ago: its job first');
    assert.equal(ahead(rows([...other]), 'ws_a', 5), 0, 'a tie goes to the smaller id, as the claim orders them: ws_a before ws_b');
    assert.equal(ahead(rows([...other]), 'ws_c', 5), JOB_SEC, 'ws_b before ws_c');
    // ws_a has 3 tasks queued, so the job is its fourth claim: 3 or 4 of ws_b's come before it.
    const own = ['ws_a', 9, 'job.run', 0, 3] as const;
    assert.equal(ahead(rows([...own], [...other]), 'ws_a'), 3 * JOB_SEC + 4 * JOB_SEC);
    assert.equal(ahead(rows([...own], ['ws_b', 10, 'job.run', 0, 10]), 'ws_a'), 3 * JOB_SEC + 3 * JOB_SEC);
    // Never more than the other's queue.
    assert.equal(ahead(rows([...own], ['ws_b', 5, 'job.run', 0, 2]), 'ws_a'), 3 * JOB_SEC + 2 * JOB_SEC);
  });

  it("takes the turns' tasks as an average of that workspace's queue, and the snapshot's own turn over the one given", () => {
    // ws_b: 1 job and 1 analysis of 60 s; one turn is half of its queue.
    const b = rows(['ws_b', 5, 'job.run', 0, 1], ['ws_b', 5, 'media.analyze', 0, 1, 60]);
    assert.equal(ahead(b, 'ws_a', 9), (JOB_SEC + ANALYSIS_START_SEC + 60 / ANALYSIS_SPEED) / 2);
    assert.equal(ahead([...b, ...rows(['ws_a', 9, 'job.run', 0, 1])], 'ws_a', 0), JOB_SEC + JOB_SEC + ANALYSIS_START_SEC + 60 / ANALYSIS_SPEED, 'its own last claim 9 as queued, not the 0 given');
  });
});

describe('wait estimate', () => {
  it('reads each figure once for the creations that ask for it at once, and again once it is stale', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const reads = { queue: 0, turn: 0, duration: 0 };
    const later = () => new Promise((r) => setImmediate(r));
    const estimate = new WaitEstimate({
      queue: async () => (reads.queue++, await later(), rows(['ws_b', 1, 'job.run', 0, 7])),
      lastClaim: async () => (reads.turn++, await later(), 5),
      meanRecentDurationSec: async () => (reads.duration++, await later(), 2.5),
    });
    const asked = await Promise.all(Array.from({ length: 20 }, () => estimate.workAheadSec('ws_a')));
    assert.ok(asked.every((sec) => sec === 2.5), 'one of ws_b\'s jobs, 2.5 s each');
    assert.deepEqual(reads, { queue: 1, turn: 1, duration: 1 });
    // Its own creation counts at once: its next job has one more of its own and one more turn of ws_b's ahead.
    estimate.created('ws_a');
    assert.equal(await estimate.workAheadSec('ws_a'), 2.5 + 2 * 2.5);
    assert.deepEqual(reads, { queue: 1, turn: 1, duration: 1 });
    t.mock.timers.tick(ESTIMATE_REFRESH_MS);
    await Promise.all(Array.from({ length: 20 }, () => estimate.workAheadSec('ws_a')));
    assert.deepEqual(reads, { queue: 2, turn: 2, duration: 2 });
  });

  it('a read that fails is not kept: the next creation reads again', async () => {
    let calls = 0;
    const estimate = new WaitEstimate({
      queue: async () => {
        if (++calls === 1) throw new Error('connection lost');
        return rows(['ws_a', 1, 'job.run', 0, 3]);
      },
      lastClaim: () => 0,
      meanRecentDurationSec: () => null,
    });
    await assert.rejects(estimate.workAheadSec('ws_a'), /connection lost/);
    assert.equal(await estimate.workAheadSec('ws_a'), 15, 'three jobs of the default 5 s');
  });

  it('follows the jobs that end in this process, queued or running', async () => {
    const estimate = new WaitEstimate({
      queue: () => rows(['ws_a', 1, 'job.run', 0, 2], ['ws_b', 2, 'job.run', 1, 3]),
      lastClaim: () => 0,
      meanRecentDurationSec: () => 1,
    });
    assert.equal(await estimate.workAheadSec('ws_a'), 5);
    estimate.ended('ws_a', 'queued');
    estimate.ended('ws_b', 'running');
    assert.equal(await estimate.workAheadSec('ws_a'), 3);
    estimate.ended('ws_c', 'queued');
    assert.equal(await estimate.workAheadSec('ws_a'), 3, 'a workspace with nothing queued changes nothing');
  });
});
