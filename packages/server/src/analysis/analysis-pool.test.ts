// Warm analysis processes (issue 21, two workers against one): a process that answered may run the
// next analysis of the same workspace, never another workspace's, at most `reuse` analyses; it
// ends after an error, when idle too long, when the pool closes, and when its service exits
// without closing or is killed; its analysis of a real recording is the same as a fresh process's; a memory
// overrun in a reused process is tried once more in a fresh one.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MediaAnalysis } from '@rapport/analysis';
import { twoVoiceWav } from '../files/files.fixtures.testkit.ts';
import { AnalysisProcessPool, type PoolOptions } from './analysis-pool.ts';
import type { ChildAnalysisInput } from './analysis-process.ts';
import { descendants, processState } from './process-tree.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-pool-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const HOG = path.join(import.meta.dirname, '../../test/fixtures/analysis-hog.child.ts');
const hasProc = processState(process.pid) !== null;

/** A generated two-voice recording, `seconds` long (files.fixtures.testkit.ts). */
function conversation(seconds: number): string {
  const file = path.join(dir, `conv-${seconds}.wav`);
  writeFileSync(file, twoVoiceWav(seconds));
  return file;
}

/** The pids of this test's analysis processes (children of this process). */
const children = (): number[] => descendants(process.pid).map((d) => d.pid);

/** Runs `mode` (analysis-hog.child.ts) in the pool; answers the pid of the process that ran it. */
async function runIn(pool: AnalysisProcessPool, mode: string, workspaceId?: string, extra: Partial<ChildAnalysisInput> = {}): Promise<number> {
  let pid = 0;
  const before = new Set(children());
  await pool.analyze({
    path: mode, transcript: null, maxDurationSec: 3600, memoryLimitMb: 1024, signal: new AbortController().signal,
    // The process that runs it: the one that is new, or the only one there was.
    onProgress: () => (pid = children().find((p) => !before.has(p)) ?? children()[0] ?? 0),
    ...(workspaceId ? { workspaceId } : {}),
    ...extra,
  });
  return pid;
}

const hogPool = (options: Partial<PoolOptions> = {}) => new AnalysisProcessPool({ reuse: 20, maxIdle: 2, entry: HOG, ...options });

describe('warm analysis processes', { skip: !hasProc && 'no /proc' }, () => {
  it('runs the next analysis of a workspace in the process that answered, and another workspace\'s in a process of its own', async () => {
    const pool = hogPool();
    const a1 = await runIn(pool, 'answer', 'ws_a');
    const a2 = await runIn(pool, 'answer', 'ws_a');
    const b1 = await runIn(pool, 'answer', 'ws_b');
    const a3 = await runIn(pool, 'answer', 'ws_a');
    assert.ok(a1 > 0 && b1 > 0);
    assert.equal(a2, a1);
    assert.equal(a3, a1);
    assert.notEqual(b1, a1);
    assert.deepEqual(pool.counts(), { idle: 2, live: 2 });
    await pool.close();
    assert.deepEqual(children(), []);
    assert.deepEqual(pool.counts(), { idle: 0, live: 0 });
  });

  it('ends a process after `reuse` analyses, keeps none without a workspace or with reuse 1, and at most maxIdle idle', async () => {
    const pool = hogPool({ reuse: 2, maxIdle: 1 });
    const first = await runIn(pool, 'answer', 'ws_a');
    assert.equal(await runIn(pool, 'answer', 'ws_a'), first);
    const third = await runIn(pool, 'answer', 'ws_a');
    assert.notEqual(third, first);
    assert.equal(processState(first), null, 'the process that ran its 2 analyses has ended');
    // A second workspace's idle process replaces the first's: one idle at most.
    await runIn(pool, 'answer', 'ws_b');
    assert.equal(pool.counts().idle, 1);
    await pool.close();
    const none = hogPool({ reuse: 1 });
    await runIn(none, 'answer', 'ws_a');
    await runIn(none, 'answer');
    assert.deepEqual(none.counts(), { idle: 0, live: 0 });
    assert.deepEqual(children(), []);
  });

  it('ends a process after an engine error or an abort, and an idle one after idleMs', async () => {
    const pool = hogPool({ idleMs: 100 });
    const pid = await runIn(pool, 'answer', 'ws_a');
    await assert.rejects(runIn(pool, 'fail', 'ws_a'), (err: Error & { code?: string }) => err.code === 'media_unreadable');
    assert.equal(processState(pid), null, 'the process whose analysis failed has ended');
    const next = await runIn(pool, 'answer', 'ws_a');
    await assert.rejects(runIn(pool, 'hang-without-end', 'ws_a', { signal: AbortSignal.timeout(200) }));
    assert.equal(processState(next), null, 'the process whose analysis was aborted has ended');
    const idle = await runIn(pool, 'answer', 'ws_a');
    assert.ok(![pid, next].includes(idle));
    for (let i = 0; i < 100 && processState(idle) !== null; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(processState(idle), null, 'the idle process ended');
    assert.deepEqual(pool.counts(), { idle: 0, live: 0 });
  });

  it('runs an analysis that ran out of memory in a reused process once more in a fresh one, and reports the overrun of the fresh one', async () => {
    // Which processes ran it is told by what the pool started and which processes ended: a child
    // filling its heap may die before its progress report leaves it.
    const heap = (pool: AnalysisProcessPool) =>
      assert.rejects(
        pool.analyze({ path: 'heap', transcript: null, maxDurationSec: 3600, memoryLimitMb: 256, signal: new AbortController().signal, workspaceId: 'ws_a', onProgress: () => undefined }),
        (err: Error & { code?: string }) => err.code === 'analysis_out_of_memory',
      );
    const pool = hogPool();
    const warm = await runIn(pool, 'answer', 'ws_a');
    await heap(pool);
    // memoryLimitMb differs from the warm process's: a process of its own, then no retry; the warm one waits.
    assert.equal(pool.started, 2);
    assert.notEqual(processState(warm), null);
    await pool.close();
    // The same limit: the warm process first (it ends), then one fresh process.
    const pool2 = hogPool();
    const warm2 = await runIn(pool2, 'answer', 'ws_a', { memoryLimitMb: 256 });
    assert.equal(pool2.started, 1);
    await heap(pool2);
    assert.equal(processState(warm2), null, 'the warm process ran it and was killed');
    assert.equal(pool2.started, 2, 'then one fresh process');
    assert.deepEqual(pool2.counts(), { idle: 0, live: 0 });
    await pool2.close();
    assert.deepEqual(children(), []);
  });

  it('analyses a recording in a reused process exactly as in a fresh one', async () => {
    const pool = new AnalysisProcessPool({ reuse: 20, maxIdle: 1 });
    const fresh = new AnalysisProcessPool({ reuse: 1, maxIdle: 1 });
    const input = (file: string, workspaceId?: string) => ({
      path: file, transcript: null, maxDurationSec: 3600, memoryLimitMb: 1024, signal: new AbortController().signal, onProgress: () => undefined, ...(workspaceId ? { workspaceId } : {}),
    });
    const long = conversation(40);
    const short = conversation(12);
    // The reused process analysed another recording first.
    await pool.analyze(input(long, 'ws_a'));
    const reused = await pool.analyze(input(short, 'ws_a'));
    const again = await pool.analyze(input(long, 'ws_a'));
    assert.equal(pool.counts().live, 1);
    // All but the speed it measured.
    const outcome = (a: MediaAnalysis) => ({ ...a, method: { ...a.method, realTimeFactor: 0 } });
    assert.deepEqual(outcome(reused), outcome(await fresh.analyze(input(short))));
    assert.deepEqual(outcome(again), outcome(await fresh.analyze(input(long))));
    await pool.close();
    assert.deepEqual(children(), []);
  });

  it('does not keep its service running: a service that exits without closing the pool ends, and its idle process with it; close() waits for the processes\' end', () => {
    const script = `
      import { AnalysisProcessPool } from ${JSON.stringify(path.join(import.meta.dirname, 'analysis-pool.ts'))};
      import { descendants } from ${JSON.stringify(path.join(import.meta.dirname, 'process-tree.ts'))};
      const pool = new AnalysisProcessPool({ reuse: 20, maxIdle: 1, entry: ${JSON.stringify(HOG)} });
      await pool.analyze({ path: 'answer', transcript: null, maxDurationSec: 60, memoryLimitMb: 512, signal: new AbortController().signal, workspaceId: 'ws', onProgress: () => undefined });
      console.log(JSON.stringify({ ...pool.counts(), pids: descendants(process.pid).map((d) => d.pid) }));
    `;
    // Closing it, the service waits for the process's end, with nothing else to keep it running.
    const closing = spawnSync(process.execPath, ['--input-type=module', '-e', `${script}; await pool.close(); console.log('closed');`], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(closing.status, 0, closing.stderr);
    assert.match(closing.stdout, /closed\n$/);
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 0, r.stderr);
    const { pids, ...counts } = JSON.parse(r.stdout.trim()) as { idle: number; live: number; pids: number[] };
    assert.deepEqual(counts, { idle: 1, live: 1 });
    assert.equal(pids.length, 1);
    // Its channel closed: it exits (or the kernel's parent-death signal ends it).
    for (let i = 0; i < 100 && processState(pids[0] ?? 0) !== null; i++) spawnSync('sleep', ['0.02']);
    assert.equal(processState(pids[0] ?? 0), null, 'the idle analysis process ended with its service');
  });

  it('an idle process ends when its service is killed (kill -9)', async () => {
    const script = `
      import { AnalysisProcessPool } from ${JSON.stringify(path.join(import.meta.dirname, 'analysis-pool.ts'))};
      import { descendants } from ${JSON.stringify(path.join(import.meta.dirname, 'process-tree.ts'))};
      const pool = new AnalysisProcessPool({ reuse: 20, maxIdle: 1, entry: ${JSON.stringify(HOG)} });
      await pool.analyze({ path: 'answer', transcript: null, maxDurationSec: 60, memoryLimitMb: 512, signal: new AbortController().signal, workspaceId: 'ws', onProgress: () => undefined });
      console.log(descendants(process.pid).map((d) => d.pid).join(' '));
      setInterval(() => undefined, 60_000);
    `;
    const service = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(createInterface({ input: service.stdout }), 'line')) as [string];
    const idle = Number(line.trim());
    assert.ok(idle > 0 && processState(idle) !== null, `the idle process runs (${line})`);
    service.kill('SIGKILL');
    await once(service, 'exit');
    for (let i = 0; i < 100; i++) {
      const state = processState(idle);
      if (state === null || state === 'Z') return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`the idle analysis process ${idle} still runs`);
  });
});
