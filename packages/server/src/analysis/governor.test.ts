// The governor pauses analysis processes while this process's event loop is busy, lets each run
// at least its share of the time meanwhile, continues them when the loop is free, holds them all
// on demand (benches) and continues a process it releases.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { setTimeout as sleep, setImmediate as yieldLoop } from 'node:timers/promises';
import { governAnalysis, governed, holdAnalyses } from './governor.ts';
import { processState } from './process-tree.ts';

const hasProc = processState(process.pid) !== null;
const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
after(() => sleeper.kill('SIGKILL'));
const pid = sleeper.pid as number;
const stopped = () => processState(pid) === 'T';
/** A signal takes effect when the process is next scheduled: waits (at most 5 s) for the state. */
async function becomes(want: boolean): Promise<boolean> {
  for (let i = 0; i < 250 && stopped() !== want; i++) await sleep(20);
  return stopped() === want;
}

/** Keeps the event loop busy for `ms`, letting it turn every 80 ms; answers the process's states seen. */
async function busyLoop(ms: number): Promise<{ stopped: number; running: number }> {
  const seen = { stopped: 0, running: 0 };
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const chunk = performance.now() + 80;
    while (performance.now() < chunk) {
      // busy
    }
    await yieldLoop();
    if (stopped()) seen.stopped++;
    else seen.running++;
  }
  return seen;
}

describe('the analysis governor', { skip: !hasProc && 'needs /proc' }, () => {
  it('pauses a process while the event loop is busy, but lets it run its share; continues it when the loop is free', async () => {
    const release = governAnalysis(pid, 0.3);
    try {
      const seen = await busyLoop(3000);
      assert.ok(seen.stopped > 0, `paused while busy (${JSON.stringify(seen)})`);
      assert.ok(seen.running > 0, `ran its share while busy (${JSON.stringify(seen)})`);
      assert.ok(await becomes(false), 'running again once the loop is free');
      holdAnalyses(true);
      assert.ok(await becomes(true), 'held');
      await sleep(300);
      assert.equal(stopped(), true, 'still held with a free loop');
      holdAnalyses(false);
      assert.ok(await becomes(false), 'no longer held');
      holdAnalyses(true);
      assert.ok(await becomes(true), 'held again');
    } finally {
      release();
      holdAnalyses(false);
    }
    assert.ok(await becomes(false), 'released: continued');
    assert.deepEqual(governed(), { count: 0, stopped: 0 });
  });

  it('never pauses a process whose share is 100 %', async () => {
    const release = governAnalysis(pid, 1);
    const seen = await busyLoop(600);
    release();
    assert.deepEqual(seen.stopped, 0);
    assert.deepEqual(governed(), { count: 0, stopped: 0 });
  });
});
