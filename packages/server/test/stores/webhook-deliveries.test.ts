// The webhook delivery store and the dispatcher on both engines (one suite, two backends), with
// the network replaced by a programmable `send`: leases between two processes (two openings of
// one store), an expired lease, redelivery in every state, hand-back at close, and the global cap.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import type { AttemptOutcome, DeliveryRequest } from '../../src/webhooks/deliver.ts';
import { WebhookDispatcher, type DispatcherOptions } from '../../src/webhooks/dispatcher.ts';
import type { WebhookStore } from '../../src/webhooks/webhooks.store.ts';

const pgSkip = await postgresMissing();
const OK: AttemptOutcome = { ok: true, statusCode: 200, durationMs: 1, error: null, refused: false, retryAfterSec: null, gone: false };
const FAIL: AttemptOutcome = { ok: false, statusCode: 500, durationMs: 1, error: 'HTTP 500', refused: false, retryAfterSec: null, gone: false };

for (const backend of BACKENDS) {
  describe(`webhook delivery store and dispatcher (${backend.name})`, { skip: (backend.name === 'postgres' && pgSkip) || false }, () => {
    let t: OpenedTestStores;
    let store: WebhookStore;
    let workspaceId: string;
    const opened: OpenedTestStores[] = [];
    const dispatchers: WebhookDispatcher[] = [];

    beforeEach(async () => {
      t = await backend.open();
      opened.push(t);
      store = t.stores.webhooks;
      workspaceId = await newWorkspace(t.stores);
    });
    afterEach(async () => {
      for (const d of dispatchers.splice(0)) await d.close();
      for (const o of opened.splice(0).reverse()) await o.close();
    });

    /** Ends `n` jobs through the job store, each with a webhook to `url`; returns the delivery ids. */
    async function endJobs(n: number, url = 'http://receiver.test/hook'): Promise<string[]> {
      const jobs = t.stores.jobs;
      for (let i = 0; i < n; i++) {
        const job = await jobs.create({ workspaceId, type: 'report', request: {}, cost: 0 });
        await jobs.fail(job.id, { code: 'canceled', message: 'x' }, { type: 'report.failed', data: { jobId: job.id, status: 'failed' }, webhook: { url } });
      }
      return (await t.rows<{ id: string }>('SELECT id FROM webhook_deliveries WHERE url = ? ORDER BY seq', url)).slice(-n).map((r) => r.id);
    }

    function dispatcher(s: WebhookStore, send: (req: DeliveryRequest) => Promise<AttemptOutcome>, opts: Partial<DispatcherOptions> = {}): WebhookDispatcher {
      const d = new WebhookDispatcher({ store: s, secrets: async () => ['whsec_unit_test_secret'], allowPrivate: true, requireHttps: false, send }, { pollMs: 20, ...opts });
      dispatchers.push(d);
      d.start();
      return d;
    }

    async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!(await predicate())) {
        if (Date.now() > deadline) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 10));
      }
    }

    const statusOf = async (id: string) => (await store.get(workspaceId, id))?.status;

    it('two processes on one store never send the same attempt twice', async () => {
      const ids = await endJobs(300);
      const sent: string[] = [];
      const send = async (req: DeliveryRequest) => {
        sent.push(req.eventId);
        await new Promise((r) => setTimeout(r, Math.random() * 3));
        return OK;
      };
      const other = await backend.open(t);
      opened.push(other);
      dispatcher(store, send);
      dispatcher(other.stores.webhooks, send);
      const succeeded = () => t.count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'");
      await until(async () => (await succeeded()) === ids.length);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(sent.length, ids.length);
      assert.equal(new Set(sent).size, ids.length, 'each event sent once');
    });

    it('takes over a delivery whose lease expired (its process died) and logs the lost attempt', async () => {
      const [id] = await endJobs(1);
      const dead = await store.claim(id as string, 'dead-process', Date.now(), 100);
      assert.equal(dead?.attempt, 1);
      const sent: DeliveryRequest[] = [];
      dispatcher(store, async (req) => (sent.push(req), OK));
      await until(async () => (await statusOf(id as string)) === 'succeeded');
      const d = await store.get(workspaceId, id as string);
      assert.deepEqual(d?.attempts?.map((a) => a.outcome), ['interrupted', 'succeeded']);
      assert.equal(sent[0]?.attempt, 2);
      // The dead process's late answer cannot change the delivery any more.
      assert.equal(await store.record(dead as NonNullable<typeof dead>, 'dead-process', FAIL, () => 1000, Date.now()), null);
      assert.equal(await statusOf(id as string), 'succeeded');
    });

    it('redelivers: pending moves to now; finished gets one final attempt; in flight gets one more after', async () => {
      const [a, b, c] = await endJobs(3);
      const now = Date.now();
      // Pending, waiting for a retry: due now, the schedule goes on.
      const ca = await store.claim(a as string, 'p', now, 30_000);
      await store.record(ca as NonNullable<typeof ca>, 'p', FAIL, () => 60_000, now);
      assert.ok(Date.parse((await store.get(workspaceId, a as string))?.nextAttemptAt ?? '') >= now + 59_000);
      assert.ok(await store.redeliver(workspaceId, a as string, now));
      const again = await store.claim(a as string, 'p', now, 30_000);
      assert.equal(again?.attempt, 2);
      assert.equal(await store.record(again as NonNullable<typeof again>, 'p', FAIL, () => 60_000, now), 'pending');

      // Failed: one attempt whose failure is final.
      const cb = await store.claim(b as string, 'p', now, 30_000);
      assert.equal(await store.record(cb as NonNullable<typeof cb>, 'p', { ...FAIL, gone: true, statusCode: 410 }, () => 1, now), 'failed');
      assert.ok(await store.redeliver(workspaceId, b as string, now));
      assert.equal(await statusOf(b as string), 'pending');
      const rb = await store.claim(b as string, 'p', now, 30_000);
      assert.equal(await store.record(rb as NonNullable<typeof rb>, 'p', FAIL, () => 1, now), 'failed');

      // In flight: remembered, and served right after the attempt under way (even a success).
      const cc = await store.claim(c as string, 'p', now, 30_000);
      assert.ok(await store.redeliver(workspaceId, c as string, now));
      assert.equal(await store.record(cc as NonNullable<typeof cc>, 'p', OK, () => 1, now), 'pending');
      const rc = await store.claim(c as string, 'p', now, 30_000);
      assert.equal(rc?.attempt, 2);
      assert.equal(await store.record(rc as NonNullable<typeof rc>, 'p', FAIL, () => 1, now), 'failed', 'the extra attempt after a success is final');

      assert.equal(await store.redeliver('ws_other', a as string, now), false, 'another workspace cannot see it');
    });

    it('hands attempts still in flight back at close, due again at once', async () => {
      const [id] = await endJobs(1);
      let started = false;
      const d = dispatcher(store, () => {
        started = true;
        return new Promise<AttemptOutcome>(() => undefined); // never answers
      }, { closeGraceMs: 50 });
      await until(() => started);
      await d.close();
      await d.close();
      const after = await store.get(workspaceId, id as string);
      assert.equal(after?.status, 'pending');
      assert.deepEqual(after?.attempts?.map((a) => a.outcome), ['interrupted']);
      assert.equal((await store.dueCandidates(Date.now(), { destinations: [], workspaces: [] }, 10, 10)).length, 1, 'claimable at once by the next process');
    });

    it('keeps to the global cap and to the per-destination limit', async () => {
      await endJobs(10, 'http://a.test/hook');
      await endJobs(10, 'http://b.test/hook');
      let active = 0;
      let peak = 0;
      const perHost = new Map<string, number>();
      let peakPerHost = 0;
      let done = 0;
      dispatcher(store, async (req) => {
        const host = new URL(req.url).host;
        active++;
        perHost.set(host, (perHost.get(host) ?? 0) + 1);
        peak = Math.max(peak, active);
        peakPerHost = Math.max(peakPerHost, perHost.get(host) ?? 0);
        await new Promise((r) => setTimeout(r, 5));
        active--;
        perHost.set(host, (perHost.get(host) ?? 0) - 1);
        done++;
        return OK;
      }, { maxInFlight: 3, perDestination: 2 });
      await until(() => done === 20);
      assert.equal(peak, 3);
      assert.equal(peakPerHost, 2);
    });

    it('retries on the schedule and fails when it ends', async () => {
      const [id] = await endJobs(1);
      const attempts: number[] = [];
      dispatcher(store, async (req) => (attempts.push(req.attempt), FAIL), { schedule: (n) => (n < 3 ? 10 : null) });
      await until(async () => (await statusOf(id as string)) === 'failed');
      assert.deepEqual(attempts, [1, 2, 3]);
      const d = await store.get(workspaceId, id as string);
      assert.equal(d?.nextAttemptAt, null);
      assert.equal(d?.lastError, 'HTTP 500');
    });
  });
}
