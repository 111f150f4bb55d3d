// The store suite, part 1 (one suite, two backends: the embedded store and PostgreSQL): jobs and
// their events, the credit ledger, idempotency keys and the task queue, with the transaction
// boundaries both backends promise.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import { InsufficientCredits } from '../../src/credits/credits.ledger.ts';
import type { Stores } from '../../src/compose/stores.ts';

const pgSkip = await postgresMissing();
const failed = { type: 'report.failed' as const, data: {}, webhook: undefined };

for (const backend of BACKENDS) {
  describe(`jobs, credits, idempotency and queue (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    let t: OpenedTestStores;
    let s: Stores;
    before(async () => {
      t = await backend.open();
      s = t.stores;
    });
    after(() => t?.close());

    it("writes a job's row, credit reservation, first event, task and idempotency answer together", async () => {
      const ws = await newWorkspace(s, 3);
      const scope = { workspaceId: ws, route: 'POST /v1/matching/jobs', key: 'k1' };
      assert.equal((await s.idempotency.take(scope, 'h')).state, 'new');
      const job = await s.jobs.create({
        workspaceId: ws, type: 'matching', label: 'first', request: { a: 1 }, cost: 1,
        onCreated: (j) => ({ scope, response: { statusCode: 202, body: { jobId: j.id }, headers: {} } }),
      });
      assert.equal(job.status, 'queued');
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?', ws), 1);
      assert.equal(await t.count("SELECT COUNT(*) AS n FROM tasks WHERE kind = 'job.run' AND ref_id = ?", job.id), 1);
      assert.deepEqual(await s.credits.balance(ws).then((b) => [b?.balance, b?.reserved, b?.available]), [3, 1, 2]);
      const events = await s.jobs.eventsAfter(job.id, 0);
      assert.deepEqual(events.map((e) => [e.seq, e.event]), [[1, 'job.updated']]);
      assert.deepEqual(events[0]?.job, job);
      assert.deepEqual(await s.jobs.get(ws, job.id), job);
      assert.equal(t.events.at(-1)?.jobId, job.id, 'the event was published after commit');
      const replay = await s.idempotency.take(scope, 'h');
      assert.equal(replay.state, 'replay');
      assert.deepEqual(replay.state === 'replay' && replay.response.body, { jobId: job.id });
    });

    it('a creation that cannot pay leaves no row, task, reservation or answer', async () => {
      const ws = await newWorkspace(s, 1);
      const outcomes = await Promise.allSettled([1, 5, 1].map((cost, i) => s.jobs.create({ workspaceId: ws, type: 'report', label: `j${i}`, request: { i }, cost })));
      assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'rejected']);
      assert.ok((outcomes[1] as PromiseRejectedResult).reason instanceof InsufficientCredits);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?', ws), 1);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM tasks WHERE workspace_id = ?', ws), 1);
      assert.equal(await t.count("SELECT COUNT(*) AS n FROM credit_transactions WHERE workspace_id = ? AND kind = 'reserve'", ws), 1);
      assert.equal((await s.credits.balance(ws))?.reserved, 1);
    });

    it('a job ends exactly once: succeed and fail racing, one wins with its result, charge, event and outbox', async () => {
      const ws = await newWorkspace(s, 10);
      for (let round = 0; round < 5; round++) {
        const job = await s.jobs.create({ workspaceId: ws, type: 'report', request: { webhook: { url: 'https://hooks.example.com/x' } }, cost: 1 });
        assert.equal((await s.jobs.start(job.id))?.status, 'running');
        assert.equal((await s.jobs.progress(job.id, 'scoring', 0.5))?.progress, 0.5);
        assert.equal(await s.jobs.progress(job.id, 'scoring', 0.4), null, 'progress never goes back');
        const resultId = `rep_round${round}`;
        const ends = await Promise.all([
          s.jobs.succeed(job.id, { id: resultId, kind: 'report', payloadJson: '{"ok":true}', evidenceJson: null }, { type: 'report.completed', data: { jobId: job.id }, webhook: { url: 'https://hooks.example.com/x' } }),
          s.jobs.fail(job.id, { code: 'canceled', message: 'race' }, { ...failed, webhook: { url: 'https://hooks.example.com/x' } }),
          s.jobs.fail(job.id, { code: 'canceled', message: 'race' }, { ...failed, webhook: { url: 'https://hooks.example.com/y' } }),
        ]);
        assert.equal(ends.filter((j) => j !== null).length, 1, 'exactly one end wins');
        const terminal = (await s.jobs.eventsAfter(job.id, 0)).filter((e) => e.event !== 'job.updated');
        assert.equal(terminal.length, 1);
        assert.equal(await t.count('SELECT COUNT(*) AS n FROM events WHERE job_id = ?', job.id), 1, 'one outbox event');
        assert.equal(await t.count('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE job_id = ?', job.id), 1, 'one delivery');
        assert.equal(await t.count('SELECT COUNT(*) AS n FROM tasks WHERE ref_id = ?', job.id), 0, 'its task is gone');
        const won = ends.find((j) => j !== null);
        assert.equal(await t.count('SELECT COUNT(*) AS n FROM results WHERE job_id = ?', job.id), won?.status === 'succeeded' ? 1 : 0);
        if (won?.status === 'succeeded') assert.equal((await s.results.get(ws, resultId, 'report'))?.payloadJson, '{"ok":true}');
      }
      const b = await s.credits.balance(ws);
      assert.equal(b?.reserved, 0, 'every reservation was charged or released once');
      const charged = await t.count("SELECT COUNT(*) AS n FROM credit_transactions WHERE workspace_id = ? AND kind = 'charge'", ws);
      assert.equal(b?.balance, 10 - charged);
    });

    it("numbers a workspace's events in commit order and lists jobs newest first with cursors", async () => {
      const ws = await newWorkspace(s, 100);
      const jobs = await Promise.all(Array.from({ length: 12 }, (_, i) => s.jobs.create({ workspaceId: ws, type: 'matching', label: `n${i}`, request: {}, cost: 1 })));
      await Promise.all(jobs.map((j) => s.jobs.start(j.id)));
      const all = await s.jobs.workspaceEventsAfter(ws, 0);
      assert.equal(all.length, 24);
      assert.deepEqual(all.map((e) => e.id), [...all.map((e) => e.id)].sort((a, b) => a - b));
      assert.equal(await s.jobs.latestWorkspaceEventId(ws), all.at(-1)?.id);
      const tail = await s.jobs.workspaceEventsAfter(ws, all[19]?.id ?? 0);
      assert.equal(tail.length, 4);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await s.jobs.list(ws, { limit: 5, ...(cursor ? { cursor } : {}) });
        seen.push(...page.data.map((j) => j.label ?? ''));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      assert.equal(seen.length, 12);
      assert.equal(new Set(seen).size, 12);
      const running = await s.jobs.list(ws, { status: 'running', limit: 50 });
      assert.equal(running.data.length, 12);
      assert.equal((await s.jobs.list(ws, { status: 'queued' })).data.length, 0);
    });

    it('idempotency keys: in flight, mismatch, release, replay and purge', async () => {
      const ws = await newWorkspace(s);
      const scope = { workspaceId: ws, route: 'POST /v1/x', key: 'k' };
      const takes = await Promise.all([s.idempotency.take(scope, 'a'), s.idempotency.take(scope, 'a'), s.idempotency.take(scope, 'a')]);
      assert.deepEqual(takes.map((r) => r.state).sort(), ['in_flight', 'in_flight', 'new'], 'one of three concurrent takes wins');
      assert.equal((await s.idempotency.take(scope, 'b')).state, 'mismatch');
      await s.idempotency.release(scope);
      assert.equal((await s.idempotency.take(scope, 'b')).state, 'new');
      await s.idempotency.complete(scope, { statusCode: 201, body: { id: 1 }, headers: { location: '/x' } });
      const replay = await s.idempotency.take(scope, 'b');
      assert.deepEqual(replay.state === 'replay' && replay.response, { statusCode: 201, body: { id: 1 }, headers: { location: '/x' } });
      assert.ok((await s.idempotency.purgeExpired(Date.now() + 25 * 3600 * 1000)) >= 1);
      assert.equal((await s.idempotency.take(scope, 'c')).state, 'new');
    });

    it('credits: grants and transactions page newest first', async () => {
      const ws = await newWorkspace(s, 5);
      assert.equal(await s.credits.grant(ws, 7), 12);
      const first = await s.credits.transactions(ws, 1, undefined);
      assert.deepEqual(first.data.map((x) => [x.kind, x.amount, x.balanceAfter]), [['grant', 7, 12]]);
      const second = await s.credits.transactions(ws, 5, first.nextCursor ?? undefined);
      assert.deepEqual(second.data.map((x) => [x.kind, x.amount]), [['grant', 5]]);
      assert.equal(second.nextCursor, null);
    });

    // The queue is global to the store: each queue test opens its own.
    const fresh = async (fn: (q: OpenedTestStores) => Promise<void>) => {
      const q = await backend.open();
      try {
        await fn(q);
      } finally {
        await q.close();
      }
    };

    it('queue: a claimed task is leased to one worker, renewed, retried after its lease ran out, and completed', () => fresh(async ({ stores: s }) => {
      const ws = await newWorkspace(s, 100);
      const job = await s.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      const now = Date.now() + 1000;
      const first = await s.queue.claim('w1', 10_000, now);
      assert.equal(first?.refId, job.id);
      assert.equal(first?.attempts, 1);
      assert.equal(await s.queue.claim('w2', 10_000, now + 1), null, 'leased: nobody else gets it');
      assert.equal(await s.queue.renew(first?.id ?? 0, 'w1', 10_000, now + 5000), true);
      assert.equal(await s.queue.claim('w2', 10_000, now + 12_000), null, 'the renewal holds it');
      assert.equal(await s.queue.renew(first?.id ?? 0, 'w2', 10_000, now), false, 'only its owner renews');
      // w1 dies: after its lease runs out, w2 takes the task over, as attempt 2.
      const retaken = await s.queue.claim('w2', 10_000, now + 16_000);
      assert.deepEqual([retaken?.id, retaken?.attempts], [first?.id, 2]);
      assert.equal(await s.queue.renew(first?.id ?? 0, 'w1', 10_000, now + 16_000), false, 'the dead owner lost it');
      await s.queue.reschedule(retaken?.id ?? 0, 'w2', now + 20_000, 'waiting', false);
      assert.equal(await s.queue.claim('w3', 10_000, now + 17_000), null, 'not due yet');
      const again = await s.queue.claim('w3', 10_000, now + 20_000);
      assert.equal(again?.attempts, 2, 'a wait is not an attempt');
      assert.equal(await s.queue.depth('job.run'), 1);
      await s.queue.complete(again?.id ?? 0, 'w3');
      assert.equal(await s.queue.depth('job.run'), 0);
    }));

    it('queue: claims take turns between workspaces, and concurrent claims never share a task', () => fresh(async ({ stores: s }) => {
      const busy = await newWorkspace(s, 100);
      const quiet = await newWorkspace(s, 100);
      const other = await newWorkspace(s, 100);
      for (let i = 0; i < 6; i++) await s.jobs.create({ workspaceId: busy, type: 'report', request: {}, cost: 1 });
      await s.jobs.create({ workspaceId: quiet, type: 'report', request: {}, cost: 1 });
      await s.jobs.create({ workspaceId: other, type: 'report', request: {}, cost: 1 });
      const now = Date.now() + 1000;
      const order: string[] = [];
      for (let i = 0; i < 4; i++) {
        const task = await s.queue.claim(`w${i}`, 60_000, now);
        order.push(task?.workspaceId === busy ? 'busy' : task?.workspaceId === quiet ? 'quiet' : 'other');
      }
      // The busy workspace queued first, yet the others are served within the first three claims.
      assert.deepEqual([...order.slice(0, 3)].sort(), ['busy', 'other', 'quiet']);
      assert.equal(order[3], 'busy');
      const claimed = await Promise.all(Array.from({ length: 6 }, (_, i) => s.queue.claim(`c${i}`, 60_000, now)));
      const ids = claimed.filter((c) => c !== null).map((c) => c.id);
      assert.equal(ids.length, 4, 'the four tasks left');
      assert.equal(new Set(ids).size, ids.length, 'no task claimed twice');
    }));
  });
}
