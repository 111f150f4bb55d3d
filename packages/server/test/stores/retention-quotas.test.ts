// The store suite, issue 20 findings 9, 11 and 13 (one suite, two backends):
// - job event ids are numbered per workspace: one tenant's volume never moves another's ids, and
//   two processes writing one workspace's events at once give each number once, in commit order,
//   so that a reader resuming after an id never skips one;
// - the retention sweep deletes, in small batches, ended deliveries with their attempts, webhook
//   events nothing refers to, and job events of ended jobs, once older than the cutoff, and never
//   a pending delivery, its event, or the events of a live job; it records how far a workspace's
//   events were removed;
// - the active-key and media-byte quotas hold under concurrent creations.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import type { Stores } from '../../src/compose/stores.ts';
import { RetentionSweeper } from '../../src/retention/retention.ts';
import { QuotaExceeded } from '../../src/workspace/quotas.ts';
import { generateApiKey } from '../../src/workspace/workspace.store.ts';
import { newId } from '../../src/ids.ts';

const pgSkip = await postgresMissing();
const DAY = 24 * 3600 * 1000;
const failed = { type: 'report.failed' as const, data: {}, webhook: undefined };
const failedWithHook = { type: 'report.failed' as const, data: {}, webhook: { url: 'https://hooks.example.com/x' } };

for (const backend of BACKENDS) {
  describe(`event ids, retention and quotas (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    let t: OpenedTestStores;
    let s: Stores;
    before(async () => {
      t = await backend.open();
      s = t.stores;
    });
    after(() => t?.close());

    it("numbers job events per workspace: another tenant's volume does not move a workspace's ids", async () => {
      const busy = await newWorkspace(s, 100);
      const quiet = await newWorkspace(s, 100);
      for (let i = 0; i < 10; i++) {
        const j = await s.jobs.create({ workspaceId: busy, type: 'report', request: {}, cost: 1 });
        await s.jobs.start(j.id);
      }
      const mine = await s.jobs.create({ workspaceId: quiet, type: 'report', request: {}, cost: 1 });
      await s.jobs.start(mine.id);
      for (let i = 0; i < 5; i++) await s.jobs.create({ workspaceId: busy, type: 'report', request: {}, cost: 1 });
      await s.jobs.fail(mine.id, { code: 'canceled', message: 'x' }, failed);
      assert.deepEqual((await s.jobs.workspaceEventsAfter(quiet, 0)).map((e) => e.id), [1, 2, 3], 'the quiet workspace counts only its own events');
      assert.equal(await s.jobs.latestWorkspaceEventId(quiet), 3);
      assert.deepEqual((await s.jobs.workspaceEventsAfter(busy, 0)).map((e) => e.id), Array.from({ length: 25 }, (_, i) => i + 1));
      assert.deepEqual((await s.jobs.eventsAfter(mine.id, 0)).map((e) => [e.seq, e.id]), [[1, 1], [2, 2], [3, 3]]);
      assert.deepEqual(t.events.filter((e) => e.jobId === mine.id).map((e) => e.id), [1, 2, 3], 'published with the same ids');
    });

    it("two processes writing one workspace's events at once: each id once, in order, and a resuming reader skips none", async () => {
      const other = await backend.open(t);
      try {
        const ws = await newWorkspace(s, 1000);
        const seen: number[] = [];
        let last = 0;
        let writing = true;
        const reader = (async () => {
          while (writing) {
            for (const e of await s.jobs.workspaceEventsAfter(ws, last)) {
              seen.push(e.id);
              last = e.id;
            }
            await new Promise((r) => setTimeout(r, 2));
          }
        })();
        await Promise.all([s, other.stores].map(async (st) => {
          for (let i = 0; i < 15; i++) {
            const j = await st.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
            await st.jobs.start(j.id);
            await st.jobs.progress(j.id, 'scoring', 0.5);
          }
        }));
        writing = false;
        await reader;
        for (const e of await s.jobs.workspaceEventsAfter(ws, last)) seen.push(e.id);
        assert.deepEqual(seen, Array.from({ length: 90 }, (_, i) => i + 1), 'every id once, in order, none skipped by the reader');
      } finally {
        await other.close();
      }
    });

    it('the sweep deletes old ended deliveries, their attempts, unreferenced events and ended jobs\' events; never pending or live ones', async () => {
      const ws = await newWorkspace(s, 100);
      const now = Date.now();
      const old = now - 40 * DAY;
      // An old job that ended with a delivered webhook, one whose delivery is still pending, one
      // still running, and a recent one that ended.
      const ended = await s.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      await s.jobs.fail(ended.id, { code: 'canceled', message: 'x' }, failedWithHook);
      const pending = await s.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      await s.jobs.fail(pending.id, { code: 'canceled', message: 'x' }, failedWithHook);
      const running = await s.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      await s.jobs.start(running.id);
      const oldIso = new Date(old).toISOString();
      for (const id of [ended.id, pending.id, running.id]) {
        await t.exec('UPDATE job_events SET created_at = ? WHERE job_id = ?', old, id);
        await t.exec('UPDATE events SET created_at = ? WHERE job_id = ?', oldIso, id);
        await t.exec('UPDATE webhook_deliveries SET created_at = ?, updated_at = ? WHERE job_id = ?', oldIso, oldIso, id);
      }
      await t.exec("UPDATE webhook_deliveries SET status = 'succeeded', attempts = 1 WHERE job_id = ?", ended.id);
      const delivered = await t.count('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE job_id = ?', ended.id);
      assert.equal(delivered, 1);
      const dlv = (await s.webhooks.list(ws, { jobId: ended.id })).data[0]?.id as string;
      await t.exec("INSERT INTO delivery_attempts (delivery_id, attempt, at, status_code, duration_ms, error, outcome) VALUES (?, 1, ?, 200, 5, NULL, 'succeeded')", dlv, oldIso);
      const recent = await s.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      await s.jobs.fail(recent.id, { code: 'canceled', message: 'x' }, failed);
      const idsBefore = (await s.jobs.workspaceEventsAfter(ws, 0)).map((e) => [e.jobId, e.id] as const);

      // In batches of 1: a sweep goes on until nothing old is left.
      const one = await s.retention.sweepBatch(now - 30 * DAY, 1);
      assert.deepEqual(one, { deliveries: 1, events: 1, jobEvents: 1 }, 'one row of each kind at most per batch');
      const sweeper = new RetentionSweeper(s.retention, { retentionDays: 30 });
      const rest = await sweeper.sweep(now);
      await sweeper.close();
      assert.deepEqual(rest, { deliveries: 0, events: 0, jobEvents: 3 });

      assert.equal(await t.count('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE job_id = ?', ended.id), 0);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM delivery_attempts WHERE delivery_id = ?', dlv), 0);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM events WHERE job_id = ?', ended.id), 0);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM job_events WHERE job_id = ?', ended.id), 0);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM job_events WHERE job_id = ?', pending.id), 0, 'job events go with their job, whatever its webhook');
      assert.equal(await t.count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE job_id = ? AND status = 'pending'", pending.id), 1, 'a pending delivery stays');
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM events WHERE job_id = ?', pending.id), 1, 'and so does the event it sends');
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM job_events WHERE job_id = ?', running.id), 2, "a live job's events stay");
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM job_events WHERE job_id = ?', recent.id), 2, 'recent events stay');
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?', ws), 4, 'jobs and results are not touched');
      const highestGone = Math.max(...idsBefore.filter(([job]) => job === ended.id || job === pending.id).map(([, id]) => id));
      assert.equal(await s.jobs.prunedWorkspaceEventId(ws), highestGone);
      assert.deepEqual(await s.retention.sweepBatch(now - 30 * DAY, 10), { deliveries: 0, events: 0, jobEvents: 0 }, 'nothing left to sweep');
      // Numbering goes on after the removed ids.
      const next = await s.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      assert.equal((await s.jobs.eventsAfter(next.id, 0))[0]?.id, Math.max(...idsBefore.map(([, id]) => id)) + 1);
    });

    it('caps active keys under concurrent creations; a revoked key frees its place', async () => {
      const ws = await newWorkspace(s, 1); // holds its bootstrap key
      const tries = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => s.workspaces.createKey(ws, { apiKey: generateApiKey(), scope: 'standard', name: `k${i}` }, 3)));
      assert.equal(tries.filter((r) => r.status === 'fulfilled').length, 2, 'the bootstrap key and two more');
      assert.ok(tries.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof QuotaExceeded));
      assert.equal((await s.workspaces.usage(ws)).apiKeys, 3);
      const made = tries.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ id: string }>;
      await s.workspaces.revokeKey(ws, made.value.id);
      await s.workspaces.createKey(ws, { apiKey: generateApiKey(), scope: 'standard', name: 'again' }, 3);
      await assert.rejects(s.workspaces.createKey(ws, { apiKey: generateApiKey(), scope: 'standard', name: 'over' }, 3), QuotaExceeded);
      // Without a cap (the operator's command line) it is not held.
      await s.workspaces.createKey(ws, { apiKey: generateApiKey(), scope: 'standard', name: 'operator' });
      await s.workspaces.setQuotas(ws, { apiKeys: 7 });
      assert.deepEqual(await s.workspaces.getQuotas(ws), { apiKeys: 7 });
      await s.workspaces.setQuotas(ws, null);
      assert.equal(await s.workspaces.getQuotas(ws), null);
    });

    it("counts a workspace's stored media bytes: concurrent uploads never pass the quota, a delete gives them back", async () => {
      const ws = await newWorkspace(s, 1000);
      const media = (size: number) => ({
        id: newId('med'), workspaceId: ws, kind: 'transcript' as const, filename: 'a.vtt', contentType: 'text/vtt', sizeBytes: size, sha256: 'x',
        durationSec: null, label: null, storagePath: '/nowhere', transcript: null, analysisStatus: 'ready' as const,
      });
      const tries = await Promise.allSettled(Array.from({ length: 5 }, () => s.media.insert(media(400), 1000)));
      assert.equal(tries.filter((r) => r.status === 'fulfilled').length, 2);
      assert.ok(tries.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof QuotaExceeded));
      assert.equal((await s.workspaces.usage(ws)).mediaBytes, 800);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM media WHERE workspace_id = ?', ws), 2, 'a refused upload writes no row');
      const kept = (tries.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ id: string }>).value;
      await s.media.delete(ws, kept.id);
      assert.equal((await s.workspaces.usage(ws)).mediaBytes, 400);
      await s.media.insert(media(600), 1000);
      assert.equal((await s.workspaces.usage(ws)).mediaBytes, 1000);
    });
  });
}
