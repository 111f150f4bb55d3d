// The embedded engine's group commit (store/sqlite.ts), seen through job creation: creations asked
// in one turn of the event loop share a transaction, each in its own savepoint, so one that fails
// (credits) is undone alone; and the estimate figures stay current.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../helpers.ts';
import { storeDb } from '../../src/compose/stores.ts';
import { InsufficientCredits } from '../../src/credits/credits.ledger.ts';
import { DEFAULT_JOB_SEC } from '../../src/jobs/wait-estimate.ts';

// The embedded store's own group commit and synchronous transactions: not a PostgreSQL concern.
describe('job creation on the embedded engine', { skip: process.env.TEST_STORE === 'postgres' ? 'embedded store only' : false }, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ INITIAL_CREDITS: '3' });
  });
  after(() => t.close());

  const count = async (sql: string, ...p: string[]) => (await storeDb(t.services.stores).get<{ n: number }>(sql, ...p))?.n ?? 0;

  it('commits concurrent creations together and undoes only the one that cannot pay', async () => {
    const ws = t.main.workspaceId;
    const jobs = t.services.stores.jobs;
    const before = await jobs.workAheadSec(ws);
    const outcomes = await Promise.allSettled([1, 1, 5, 1].map((cost, i) => jobs.create({ workspaceId: ws, type: 'matching', label: `j${i}`, request: { i }, cost })));
    assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const rejected = outcomes[2] as PromiseRejectedResult;
    assert.ok(rejected.reason instanceof InsufficientCredits);
    const created = outcomes.filter((o): o is PromiseFulfilledResult<Awaited<ReturnType<typeof jobs.create>>> => o.status === 'fulfilled').map((o) => o.value);
    assert.deepEqual(created.map((j) => j.label), ['j0', 'j1', 'j3']);
    assert.equal(await count('SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?', ws), 3, 'the refused job left no row');
    assert.equal(await count("SELECT COUNT(*) AS n FROM tasks WHERE kind = 'job.run'"), 3, 'nor a task');
    assert.equal(await count("SELECT COUNT(*) AS n FROM credit_transactions WHERE kind = 'reserve' AND workspace_id = ?", ws), 3, 'nor a reservation');
    assert.equal((await storeDb(t.services.stores).get<{ r: number }>('SELECT reserved AS r FROM workspaces WHERE id = ?', ws))?.r, 3);
    for (const job of created) {
      const events = await jobs.eventsAfter(job.id, 0);
      assert.deepEqual(events.map((e) => [e.seq, e.event]), [[1, 'job.updated']]);
      assert.deepEqual(events[0]?.job, job, 'the first event carries the job as stored');
      assert.deepEqual(await jobs.get(ws, job.id), job);
    }
    // No job has finished: each job queued counts the default duration.
    assert.equal(await jobs.workAheadSec(ws), before + 3 * DEFAULT_JOB_SEC, 'the work ahead follows creations');
    // List order is creation order (newest first).
    const listed = await jobs.list(ws, {});
    assert.deepEqual(listed.data.map((j) => j.label), ['j3', 'j1', 'j0']);
  });

  it('a job that ends lowers the work ahead', async () => {
    const jobs = t.services.stores.jobs;
    const ws = t.main.workspaceId;
    const job = await jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 0 });
    const n = await jobs.workAheadSec(ws);
    await jobs.fail(job.id, { code: 'canceled', message: 'test' }, { type: 'report.failed', data: {}, webhook: undefined });
    assert.equal(await jobs.workAheadSec(ws), n - DEFAULT_JOB_SEC);
  });
});
