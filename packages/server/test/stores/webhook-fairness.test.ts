// Issue 41, finding 1: one workspace's dead webhook receivers delayed every other workspace's
// webhooks. With 400 deliveries to 8 origins that never answer, workspace B's webhook left 57 s
// after its job (the 8 origins took all 64 slots); with one dead origin and a distinct URL per
// job it left after 14 min (the saturated set was keyed by URL, the limit by origin, and a pass
// read at most 10 × 256 candidates oldest first). Deliveries now take turns between workspaces,
// a workspace holds at most half the slots, and a saturated origin costs one candidate. The
// network is a programmable `send`: a dead receiver's attempt never ends until the test does.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import type { AttemptOutcome, DeliveryRequest } from '../../src/webhooks/deliver.ts';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import { newId, nowIso } from '../../src/ids.ts';

const pgSkip = await postgresMissing();
const OK: AttemptOutcome = { ok: true, statusCode: 200, durationMs: 1, error: null, refused: false, retryAfterSec: null, gone: false };

for (const backend of BACKENDS) {
  describe(`webhook deliveries take turns between workspaces (${backend.name})`, { skip: (backend.name === 'postgres' && pgSkip) || false }, () => {
    let t: OpenedTestStores;
    let dispatcher: WebhookDispatcher | null = null;
    const hung: (() => void)[] = [];
    beforeEach(async () => {
      t = await backend.open();
    });
    afterEach(async () => {
      for (const end of hung.splice(0)) end();
      await dispatcher?.close();
      dispatcher = null;
      await t.close();
    });

    /** `n` due deliveries of one workspace written at once, to `urlOf(i)` (one event: the body does not matter here). */
    async function flood(workspaceId: string, n: number, urlOf: (i: number) => string): Promise<void> {
      const job = await t.stores.jobs.create({ workspaceId, type: 'report', request: {}, cost: 0 });
      const eventId = newId('evt');
      await t.exec('INSERT INTO events (id, workspace_id, job_id, type, body, created_at) VALUES (?, ?, ?, ?, ?, ?)', eventId, workspaceId, job.id, 'report.failed', '{}', nowIso());
      const at = Date.now() - 60_000;
      for (let i = 0; i < n; i++) {
        const url = urlOf(i);
        await t.exec(
          `INSERT INTO webhook_deliveries (id, workspace_id, event_id, job_id, url, destination, headers_json, status, attempts, next_attempt_at, created_at, updated_at, seq)
           VALUES (?, ?, ?, ?, ?, ?, '{}', 'pending', 0, ?, ?, ?, nextval('rapport_seq'))`,
          newId('dlv'), workspaceId, eventId, job.id, url, new URL(url).origin, at + i, nowIso(), nowIso(),
        );
      }
    }

    /** Starts the dispatcher: receivers on `.dead.test` hosts never answer; the others answer at once. */
    function start(onSent: (req: DeliveryRequest) => void): void {
      dispatcher = new WebhookDispatcher({
        store: t.stores.webhooks, secrets: async () => ['whsec_unit_test_secret'], allowPrivate: true, requireHttps: false,
        send: (req) => {
          onSent(req);
          if (!new URL(req.url).hostname.endsWith('.dead.test')) return Promise.resolve(OK);
          return new Promise((resolve) => hung.push(() => resolve({ ...OK, ok: false, statusCode: null, error: 'timed out' })));
        },
      }, { pollMs: 100, closeGraceMs: 10 });
      dispatcher.start();
    }

    /** How long after its job ended workspace B's webhook was sent, A's flood in flight. */
    async function delayOfB(sent: DeliveryRequest[]): Promise<number> {
      const b = await newWorkspace(t.stores);
      const job = await t.stores.jobs.create({ workspaceId: b, type: 'report', request: {}, cost: 0 });
      const ended = Date.now();
      await t.stores.jobs.fail(job.id, { code: 'canceled', message: 'x' }, { type: 'report.failed', data: { jobId: job.id }, webhook: { url: 'http://alive.test/hook' } });
      dispatcher?.wake();
      const deadline = ended + 5000;
      while (!sent.some((r) => r.url === 'http://alive.test/hook')) {
        if (Date.now() > deadline) return Infinity;
        await new Promise((r) => setTimeout(r, 5));
      }
      return Date.now() - ended;
    }

    it("sends B's webhook at once while A's 400 deliveries to 8 dead origins are in flight", async () => {
      const a = await newWorkspace(t.stores);
      await flood(a, 400, (i) => `http://r${i % 8}.dead.test/hook`);
      const sent: DeliveryRequest[] = [];
      start((req) => sent.push(req));
      // A's attempts start (and hang): at most half the slots.
      const deadline = Date.now() + 5000;
      while (sent.length < 32 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(sent.length, 32, 'one workspace holds at most half of the 64 slots');
      const ms = await delayOfB(sent);
      console.log(`${backend.name}: B's webhook ${ms} ms after its job, A's 400 deliveries to 8 dead origins in flight`);
      assert.ok(ms < 2000, `B waited ${ms} ms`);
    });

    it("sends B's webhook at once while 3,000 of A's deliveries, each its own URL, wait for one dead origin", async () => {
      const a = await newWorkspace(t.stores);
      await flood(a, 3000, (i) => `http://one.dead.test/hook?n=${i}`);
      const sent: DeliveryRequest[] = [];
      start((req) => sent.push(req));
      const deadline = Date.now() + 5000;
      while (sent.length < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(sent.length, 8, 'the dead origin holds its 8 slots');
      const ms = await delayOfB(sent);
      console.log(`${backend.name}: B's webhook ${ms} ms after its job, 3,000 of A's deliveries waiting for one dead origin`);
      assert.ok(ms < 2000, `B waited ${ms} ms`);
    });
  });
}
