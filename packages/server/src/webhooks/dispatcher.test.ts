// End-to-end delivery through the real service: jobs end over the API, the dispatcher sends their
// events to a real receiver on loopback (WEBHOOK_ALLOW_PRIVATE=true), and every delivery is
// checked with our verifier and with Stripe's. The retry schedule is shortened so that retries
// happen in milliseconds instead of seconds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Stripe from 'stripe';
import { verifyWebhook } from '../../../client/src/webhooks.ts';
import { Receiver, startTestService, TEST_SECRET, type ReceivedRequest, type TestService } from '../../test/fixtures/webhook-receiver.ts';
import type { DeliveryRecord } from './webhooks.store.ts';

const stripe = new Stripe('sk_test_unused');
const FAST_RETRY = 40;
const METRICS_TOKEN = 'metrics-token-of-the-dispatcher-test';
const scheduleCalls: { attemptsMade: number; retryAfterSec: number | null }[] = [];

let svc: TestService;
const receiver = new Receiver();

before(async () => {
  await receiver.listen();
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: 'true', METRICS_TOKEN });
  svc.running.composed.webhooks?.configure({
    schedule: (attemptsMade, retryAfterSec) => {
      scheduleCalls.push({ attemptsMade, retryAfterSec });
      return attemptsMade < 4 ? FAST_RETRY : null;
    },
  });
});
after(async () => {
  await svc.close();
  await svc.close(); // close() is safe twice
  await receiver.close();
});

async function verifyBoth(r: ReceivedRequest, secret = TEST_SECRET): Promise<{ id: string; type: string }> {
  const header = r.headers['service-signature'] as string;
  const ours = await verifyWebhook(r.body, header, secret);
  const theirs = stripe.webhooks.constructEvent(r.body, header, secret);
  assert.equal(theirs.id, ours.id);
  return ours;
}

async function deliveriesOf(jobId: string): Promise<DeliveryRecord[]> {
  const res = await svc.api('GET', `/v1/webhooks/deliveries?jobId=${jobId}`);
  assert.equal(res.status, 200);
  return (res.json as { data: DeliveryRecord[] }).data;
}

async function deliveryOf(jobId: string, status?: DeliveryRecord['status'], timeoutMs = 5000): Promise<DeliveryRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [d] = await deliveriesOf(jobId);
    if (d && (!status || d.status === status)) {
      const full = await svc.api('GET', `/v1/webhooks/deliveries/${d.id}`);
      assert.equal(full.status, 200);
      return full.json as DeliveryRecord;
    }
    if (Date.now() > deadline) throw new Error(`delivery of ${jobId} did not reach ${status}: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhook dispatcher, end to end', () => {
  it('delivers each event once to a receiver that answers 200, signed for both verifiers', async () => {
    const jobs: string[] = [];
    for (let i = 0; i < 5; i++) jobs.push(await svc.endJob({ url: receiver.url('/ok'), headers: { 'x-tenant': 'acme' } }));
    await receiver.until(() => receiver.at('/ok').length >= 5);
    for (const jobId of jobs) assert.equal((await deliveryOf(jobId, 'succeeded')).status, 'succeeded');
    await sleep(4 * FAST_RETRY);
    const got = receiver.at('/ok');
    assert.equal(got.length, 5, 'each event exactly once');
    const ids = new Set<string>();
    for (const r of got) {
      const event = await verifyBoth(r);
      ids.add(event.id);
      assert.equal(r.headers['service-event-id'], event.id);
      assert.equal(r.headers['service-delivery-attempt'], '1');
      assert.equal(r.headers['user-agent'], 'Rapport-Webhooks/1');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['x-tenant'], 'acme');
      assert.equal(event.type, 'matching.failed');
      assert.ok(jobs.includes((JSON.parse(r.body.toString('utf8')) as { data: { jobId: string } }).data.jobId));
    }
    assert.equal(ids.size, 5);
    const d = await deliveryOf(jobs[0] as string, 'succeeded');
    assert.equal(d.attemptCount, 1);
    assert.equal(d.attempts?.length, 1);
    assert.equal(d.attempts?.[0]?.statusCode, 200);
    assert.equal(d.attempts?.[0]?.outcome, 'succeeded');
    assert.equal(typeof d.attempts?.[0]?.durationMs, 'number');
    assert.equal(d.eventType, 'matching.failed');
    assert.equal(d.nextAttemptAt, null);
  });

  it('sends the same event, same bytes, three times to a receiver that fails twice', async () => {
    receiver.on('/flaky', (res, n) => res.writeHead(n < 2 ? 500 : 200).end());
    const jobId = await svc.endJob({ url: receiver.url('/flaky') });
    await receiver.until(() => receiver.at('/flaky').length >= 3);
    const d = await deliveryOf(jobId, 'succeeded');
    await sleep(4 * FAST_RETRY);
    const got = receiver.at('/flaky');
    assert.equal(got.length, 3);
    const events = await Promise.all(got.map((r) => verifyBoth(r)));
    assert.equal(new Set(events.map((e) => e.id)).size, 1, 'the same event id every time');
    assert.ok(got.every((r) => r.body.equals((got[0] as ReceivedRequest).body)), 'the same body bytes every time');
    assert.deepEqual(got.map((r) => r.headers['service-delivery-attempt']), ['1', '2', '3']);
    assert.deepEqual(d.attempts?.map((a) => [a.attempt, a.statusCode, a.outcome]), [[1, 500, 'failed'], [2, 500, 'failed'], [3, 200, 'succeeded']]);
    assert.equal(d.attempts?.[0]?.error, 'HTTP 500 Internal Server Error');
  });

  it('stops at once on 410', async () => {
    receiver.on('/gone', (res) => res.writeHead(410).end());
    const jobId = await svc.endJob({ url: receiver.url('/gone') });
    const d = await deliveryOf(jobId, 'failed');
    await sleep(5 * FAST_RETRY);
    assert.equal(receiver.at('/gone').filter((r) => r.headers['service-event-id'] === d.eventId).length, 1);
    assert.equal(d.attemptCount, 1);
    assert.equal(d.attempts?.[0]?.outcome, 'gone');
    assert.equal(d.lastStatusCode, 410);
  });

  it('does not follow a redirect, and fails after the schedule ends', async () => {
    receiver.on('/moved', (res) => res.writeHead(302, { location: receiver.url('/target') }).end());
    const jobId = await svc.endJob({ url: receiver.url('/moved') });
    const d = await deliveryOf(jobId, 'failed');
    assert.equal(d.attemptCount, 4, 'the injected schedule allows 4 attempts');
    assert.equal(receiver.at('/target').length, 0, 'the redirect target was never called');
    assert.match(d.attempts?.[0]?.error ?? '', /^redirect not followed: HTTP 302/);
  });

  it('passes Retry-After to the schedule', async () => {
    receiver.on('/busy', (res, n) => (n === 0 ? res.writeHead(429, { 'retry-after': '7' }).end() : res.writeHead(200).end()));
    scheduleCalls.length = 0;
    const jobId = await svc.endJob({ url: receiver.url('/busy') });
    await deliveryOf(jobId, 'succeeded');
    assert.deepEqual(scheduleCalls, [{ attemptsMade: 1, retryAfterSec: 7 }]);
  });

  it('redelivers a succeeded delivery once, and a failed one for a single final attempt', async () => {
    const jobId = await svc.endJob({ url: receiver.url('/again') });
    const first = await deliveryOf(jobId, 'succeeded');
    const res = await svc.api('POST', `/v1/webhooks/deliveries/${first.id}/redeliver`);
    assert.equal(res.status, 202);
    assert.equal((res.json as DeliveryRecord).status, 'pending');
    await receiver.until(() => receiver.at('/again').filter((r) => r.headers['service-event-id'] === first.eventId).length >= 2);
    const again = await deliveryOf(jobId, 'succeeded');
    assert.equal(again.attemptCount, 2);
    const got = receiver.at('/again').filter((r) => r.headers['service-event-id'] === first.eventId);
    assert.deepEqual(got.map((r) => r.headers['service-delivery-attempt']), ['1', '2']);
    for (const r of got) await verifyBoth(r);

    // A failed delivery: one more attempt; when it fails too, the delivery is failed again at once.
    receiver.on('/down', (res) => res.writeHead(503).end());
    const failedJob = await svc.endJob({ url: receiver.url('/down') });
    const failed = await deliveryOf(failedJob, 'failed');
    assert.equal(failed.attemptCount, 4);
    assert.equal((await svc.api('POST', `/v1/webhooks/deliveries/${failed.id}/redeliver`)).status, 202);
    await receiver.until(() => receiver.at('/down').filter((r) => r.headers['service-event-id'] === failed.eventId).length >= 5);
    const refailed = await deliveryOf(failedJob, 'failed');
    await sleep(4 * FAST_RETRY);
    assert.equal(refailed.attemptCount, 5);
    assert.equal(receiver.at('/down').filter((r) => r.headers['service-event-id'] === failed.eventId).length, 5);

    assert.equal((await svc.api('POST', '/v1/webhooks/deliveries/dlv_nope/redeliver')).status, 404);
  });

  it('signs with both secrets during a rotation grace period, the new one first', async () => {
    const rotated = await svc.running.composed.services.workspace.rotateSigningSecret(svc.workspaceId);
    const jobId = await svc.endJob({ url: receiver.url('/rotated') });
    await deliveryOf(jobId, 'succeeded');
    const [r] = receiver.at('/rotated');
    assert.ok(r);
    const header = r.headers['service-signature'] as string;
    assert.equal(header.split(',').filter((p) => p.startsWith('v1=')).length, 2);
    await verifyBoth(r, rotated.current);
    await verifyBoth(r, TEST_SECRET);
  });

  it('keeps a slow destination from holding up others', async () => {
    const slow = new Receiver();
    await slow.listen();
    let releaseSlow: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (releaseSlow = resolve));
    slow.on('/slow', (res) => void gate.then(() => res.writeHead(200).end()));
    const perDestination = svc.running.composed.webhooks?.options.perDestination ?? 0;
    try {
      const slowJobs: string[] = [];
      for (let i = 0; i < perDestination + 4; i++) slowJobs.push(await svc.endJob({ url: slow.url('/slow') }));
      await slow.until(() => slow.at('/slow').length >= perDestination);
      await sleep(50);
      assert.equal(slow.at('/slow').length, perDestination, 'no more than perDestination attempts in flight to one destination');
      const started = Date.now();
      const fastJob = await svc.endJob({ url: receiver.url('/fast') });
      await deliveryOf(fastJob, 'succeeded', 2000);
      assert.ok(Date.now() - started < 1500, 'the fast receiver was served while the slow one held its slots');
      releaseSlow();
      for (const jobId of slowJobs) await deliveryOf(jobId, 'succeeded');
      assert.equal(slow.at('/slow').length, perDestination + 4);
    } finally {
      releaseSlow();
      await slow.close();
    }
  });

  it('lists deliveries newest first, filters by job and status, pages with a cursor', async () => {
    const all = await svc.api('GET', '/v1/webhooks/deliveries?limit=100');
    const data = (all.json as { data: DeliveryRecord[] }).data;
    assert.ok(data.length > 10);
    assert.ok(data.every((d) => d.attempts === undefined), 'the list leaves the attempt log out');
    const created = data.map((d) => d.createdAt);
    assert.deepEqual(created, [...created].sort().reverse());

    const page1 = await svc.api('GET', '/v1/webhooks/deliveries?limit=2');
    const p1 = page1.json as { data: DeliveryRecord[]; nextCursor: string | null };
    assert.equal(p1.data.length, 2);
    assert.ok(p1.nextCursor);
    const p2 = (await svc.api('GET', `/v1/webhooks/deliveries?limit=2&cursor=${p1.nextCursor}`)).json as { data: DeliveryRecord[] };
    assert.deepEqual(p2.data.map((d) => d.id), data.slice(2, 4).map((d) => d.id));

    const failed = (await svc.api('GET', '/v1/webhooks/deliveries?status=failed&limit=100')).json as { data: DeliveryRecord[] };
    assert.ok(failed.data.length >= 2 && failed.data.every((d) => d.status === 'failed'));
    assert.equal((await svc.api('GET', '/v1/webhooks/deliveries?status=nope')).status, 400);
    assert.equal((await svc.api('GET', '/v1/webhooks/deliveries?cursor=bad')).status, 400);
    assert.equal((await svc.api('GET', '/v1/webhooks/deliveries/dlv_nope')).status, 404);
    assert.deepEqual((await svc.api('GET', '/v1/webhooks/deliveries?jobId=job_nope')).json, { data: [], nextCursor: null });
  });

  it('exposes delivery metrics', async () => {
    const res = await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.text();
    assert.match(text, /rapport_webhook_attempts_total\{outcome="succeeded"\} \d+/);
    assert.match(text, /rapport_webhook_attempts_total\{outcome="gone"\} 1/);
    assert.match(text, /rapport_webhook_deliveries_ended_total\{status="failed"\} \d+/);
    assert.match(text, /rapport_webhook_first_attempt_latency_seconds\{quantile="0.5"\} [\d.e-]+/);
    const count = /rapport_webhook_first_attempt_latency_seconds_count (\d+)/.exec(text);
    assert.ok(count && Number(count[1]) > 10);
  });
});
