// A receipt's estimatedWaitSec shares the work ahead among the worker's slots: it was the jobs
// ahead times their mean duration, as if one job ran at a time, so with WORKER_CONCURRENCY 4 it
// told a client to wait four times too long (80 s where 20 s was right below). What the work
// ahead is (analyses, other workspaces' turns) is wait-estimate.test.ts and test/wait-estimate.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobService } from './jobs.service.ts';
import type { JobStore } from './jobs.store.ts';
import type { Job } from './jobs.schemas.ts';
import type { IdempotencyStore } from '../idempotency/idempotency.store.ts';
import type { AuthContext } from '../workspace/auth.ts';
import { waitSec } from './wait-estimate.ts';

/** A store whose queue holds `aheadSec` seconds of one slot's work ahead of a new job. */
function storeWith(aheadSec: number): JobStore {
  const fake: Pick<JobStore, 'workAheadSec' | 'create'> = {
    workAheadSec: async () => aheadSec,
    create: async (input) => {
      const job: Job = {
        id: 'job_1', type: input.type, status: 'queued', stage: 'queued', progress: 0,
        createdAt: new Date().toISOString(), startedAt: null, finishedAt: null, resultId: null, error: null,
      };
      input.onCreated?.(job);
      return job;
    },
  };
  return fake as JobStore;
}

const noIdempotency = {} as IdempotencyStore;
const auth = { workspaceId: 'ws_1', keyId: 'key_1', scope: 'admin' } as AuthContext;

async function receiptWait(jobs: JobStore, workerConcurrency: number): Promise<number | undefined> {
  const service = new JobService(jobs, noIdempotency, () => undefined, { workerConcurrency });
  const created = await service.create(auth, { type: 'matching', route: 'POST /v1/matching/jobs', body: {}, label: undefined, bodyKey: undefined, headerKey: undefined });
  return created.receipt.estimatedWaitSec;
}

describe('estimatedWaitSec and the worker concurrency', () => {
  it('shares the work ahead among the worker slots: 8 jobs of 10 s on 4 slots wait 20 s, not 80', async () => {
    assert.equal(await receiptWait(storeWith(8 * 10), 4), 20);
    assert.equal(await receiptWait(storeWith(8 * 10), 1), 80, 'one slot: one task after another');
    assert.equal(await receiptWait(storeWith(0), 4), 0, 'nothing ahead: no wait');
  });

  it('is the work ahead divided by the slots, rounded to 0.1 s', () => {
    assert.equal(waitSec(5, 2), 2.5);
    assert.equal(waitSec(7, 3), 2.3);
    assert.equal(waitSec(21, 4), 5.3);
  });

  it('refuses a concurrency that would make every estimate Infinity', () => {
    assert.throws(() => new JobService(storeWith(1), noIdempotency, () => undefined, { workerConcurrency: 0 }), RangeError);
  });
});
