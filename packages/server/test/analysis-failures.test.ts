// An analysis that runs out of memory or whose process is killed (issue 20): the media fails
// with internal_error, the job waiting on it fails with internal_error, and the service goes on
// answering and analysing the next media; a shutdown while an analysis runs leaves no process
// behind (neither the analysis process, reaped, nor the decoder-like process it started). The
// engine is the real one; for the media the test chooses, its analysis process is replaced by
// test/fixtures/analysis-hog.child.ts, which fills memory or hangs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createEngine } from '../src/analysis/create-engine.ts';
import { analyzeInChild } from '../src/analysis/analysis-process.ts';
import { descendants, processState } from '../src/analysis/process-tree.ts';
import type { AnalysisEngine } from '../src/analysis/engine.ts';
import type { Media } from '../src/files/files.schemas.ts';
import { fileUpload, twoVoiceWav } from '../src/files/files.fixtures.testkit.ts';
import { buildTestApp, call, json, waitFor, type TestApp } from './helpers.ts';

const HOG = path.join(import.meta.dirname, 'fixtures', 'analysis-hog.child.ts');
const hasProc = processState(process.pid) !== null;
type Plan = 'real' | 'buffers' | 'hang';

describe('an analysis over its memory limit, or killed', { skip: !hasProc && 'needs /proc' }, () => {
  let t: TestApp;
  /** What the next new media's analyses run: set before each upload. */
  let next: Plan = 'real';
  const plans = new Map<string, Plan>();
  const calls = new Map<string, number>();

  before(async () => {
    const real = createEngine();
    const engine: AnalysisEngine = {
      ...real,
      analyzeMedia: (input) => {
        const plan = plans.get(input.path) ?? next;
        plans.set(input.path, plan);
        calls.set(input.path, (calls.get(input.path) ?? 0) + 1);
        return plan === 'real' ? real.analyzeMedia(input) : analyzeInChild({ ...input, path: plan }, { entry: HOG });
      },
    };
    // 512 MB: the memory-filling stand-in reaches it within a second; a real 24 s analysis needs a third of it.
    // The tests poll every 25 ms for as long as an analysis takes, which on a loaded host is long enough to
    // reach a limit of 1000 a minute: the limits are out of the way so a 429 never stands in for an answer.
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '100000', RATE_LIMIT_JOB_STATUS: '100000', ANALYSIS_MEMORY_MB: '512', WORKER_CONCURRENCY: '1' }, { engine });
    t.composed.worker?.start();
  });
  after(async () => t.close());

  const upload = async (plan: Plan, seconds = 12): Promise<string> => {
    next = plan;
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(twoVoiceWav(seconds), `${plan}.wav`) });
    assert.equal(res.statusCode, 201, res.body);
    return json<Media>(res).id;
  };
  const settled = (id: string) =>
    waitFor(async () => {
      const res = await call(t, t.main, { method: 'GET', url: `/v1/files/${id}` });
      assert.equal(res.statusCode, 200, res.body);
      const m = json<Media>(res);
      return m.analysis.status === 'ready' || m.analysis.status === 'failed' ? m : null;
    }, 60_000, `analysis of ${id}`);
  const createJob = async (mediaId: string): Promise<string> => {
    const res = await call(t, t.main, {
      method: 'POST',
      url: '/v1/matching/jobs',
      payload: {
        context: 'behavioral_compatibility',
        target: { type: 'media_target', mediaId, selector: { strategy: 'dominant' } },
        group: [{ type: 'media_target', mediaId, selector: { strategy: 'speaker_index', speaker_index: 1 } }],
      },
    });
    assert.equal(res.statusCode, 202, res.body);
    return json<{ jobId: string }>(res).jobId;
  };
  const jobSettled = (id: string) =>
    waitFor(async () => {
      const res = await call(t, t.main, { method: 'GET', url: `/v1/jobs/${id}` });
      assert.equal(res.statusCode, 200, res.body);
      const j = json<{ status: string; error: { code: string; message: string } | null }>(res);
      return j.status === 'succeeded' || j.status === 'failed' ? j : null;
    }, 60_000, `job ${id}`);
  const storagePath = async (id: string) => (await t.sql.get<{ storage_path: string }>('SELECT storage_path FROM media WHERE id = ?', id))?.storage_path ?? '';
  /** The stand-in analysis processes running now (children of this process). */
  const hogs = () => descendants(process.pid).filter((d) => {
    try {
      return readFileSync(`/proc/${d.pid}/cmdline`, 'utf8').includes('analysis-hog.child.ts');
    } catch {
      return false;
    }
  });

  it('over ANALYSIS_MEMORY_MB: the media and its job fail with internal_error at the first attempt; the service answers meanwhile', async () => {
    const id = await upload('buffers');
    const jobId = await createJob(id);
    const health = await call(t, null, { method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    const m = await settled(id);
    assert.equal(m.analysis.status, 'failed');
    assert.equal(m.analysis.error?.code, 'internal_error');
    assert.match(m.analysis.error?.message ?? '', /ran out of its 512 MB memory limit \(ANALYSIS_MEMORY_MB\)/);
    assert.equal(calls.get(await storagePath(id)), 1, 'not retried: it would run out again');
    const job = await jobSettled(jobId);
    assert.equal(job.status, 'failed');
    assert.equal(job.error?.code, 'internal_error');
    assert.deepEqual(hogs(), []);
  });

  it('a killed analysis process is retried, and fails with internal_error after the last attempt', async () => {
    const id = await upload('hang');
    // Kill every attempt's process as soon as it runs (as the system's OOM killer would).
    let killed = 0;
    const killer = setInterval(() => {
      for (const h of hogs()) {
        try {
          process.kill(h.pid, 'SIGKILL');
          killed++;
        } catch {
          // already gone
        }
      }
    }, 50);
    try {
      const m = await settled(id);
      assert.equal(m.analysis.status, 'failed');
      assert.equal(m.analysis.error?.code, 'internal_error');
      assert.match(m.analysis.error?.message ?? '', /after several attempts \(.*was killed \(SIGKILL\)/);
    } finally {
      clearInterval(killer);
    }
    assert.equal(calls.get(await storagePath(id)), 3);
    assert.ok(killed >= 3);
  });

  it('the next media is analysed as usual', async () => {
    const m = await settled(await upload('real', 24));
    assert.equal(m.analysis.status, 'ready', JSON.stringify(m.analysis.error));
    assert.ok(m.analysis.speakers.length >= 2);
  });

  it('a shutdown during an analysis leaves no process behind: the analysis process is killed and reaped, what it started is killed', async () => {
    const id = await upload('hang');
    const [hog] = await waitFor(() => {
      const h = hogs();
      return h.length === 1 && descendants(h[0]?.pid ?? 0).length === 1 ? h : null;
    }, 30_000, 'the analysis process and the process it started');
    assert.ok(hog);
    const [started] = descendants(hog.pid);
    assert.ok(started);
    await t.close();
    assert.equal(processState(hog.pid), null, 'the analysis process is gone, and reaped (no zombie)');
    await waitFor(() => {
      const state = processState(started.pid);
      return state === null || state === 'Z';
    }, 5000, `process ${started.pid} started by the analysis to end`);
    assert.deepEqual(descendants(process.pid), [], 'no child of the service is left');
    assert.ok(id);
  });
});
