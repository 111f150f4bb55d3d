// Without WEBHOOK_ALLOW_PRIVATE, deliveries to loopback, private and link-local addresses are
// refused before any connection: the attempt is logged as refused and the receiver sees nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Receiver, startTestService, type TestService } from '../../test/fixtures/webhook-receiver.ts';
import type { DeliveryRecord } from './webhooks.store.ts';

let svc: TestService;
const receiver = new Receiver();

before(async () => {
  await receiver.listen();
  svc = await startTestService({ METRICS_TOKEN: 'metrics-token-of-the-ssrf-test' });
  // One attempt each: a refusal is a failed attempt like any other, so the schedule would retry it.
  svc.running.composed.webhooks?.configure({ schedule: () => null });
});
after(async () => {
  await svc.close();
  await receiver.close();
});

async function finalDelivery(jobId: string): Promise<DeliveryRecord> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const list = (await svc.api('GET', `/v1/webhooks/deliveries?jobId=${jobId}`)).json as { data: DeliveryRecord[] };
    const d = list.data[0];
    if (d && d.status !== 'pending') return (await svc.api('GET', `/v1/webhooks/deliveries/${d.id}`)).json as DeliveryRecord;
    if (Date.now() > deadline) throw new Error(`delivery of ${jobId} still pending`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('webhook dispatcher without WEBHOOK_ALLOW_PRIVATE', () => {
  const cases: [string, (port: number) => string, RegExp][] = [
    ['127.0.0.1', (p) => `http://127.0.0.1:${p}/hook`, /loopback/],
    ['::1', (p) => `http://[::1]:${p}/hook`, /loopback/],
    ['::ffff:127.0.0.1', (p) => `http://[::ffff:127.0.0.1]:${p}/hook`, /loopback/],
    ['10.0.0.1', (p) => `http://10.0.0.1:${p}/hook`, /private/],
    ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/', /link-local/],
    ['a name that resolves to loopback', (p) => `http://localhost:${p}/hook`, /loopback/],
  ];
  for (const [name, url, range] of cases) {
    it(`refuses ${name} without connecting, and logs the attempt as refused`, async () => {
      // Refused at creation now (webhook-destination.test.ts); a job that holds one anyway is still refused at delivery.
      const jobId = await svc.endJob({ url: url(receiver.port) }, { direct: true });
      const d = await finalDelivery(jobId);
      assert.equal(d.status, 'failed');
      assert.equal(d.attempts?.length, 1);
      const [attempt] = d.attempts ?? [];
      assert.equal(attempt?.outcome, 'refused');
      assert.equal(attempt?.statusCode, null);
      assert.match(attempt?.error ?? '', /^refused: /);
      assert.match(attempt?.error ?? '', range);
      assert.equal(receiver.connections, 0, 'no connection reached the receiver');
    });
  }

  it('counts each refusal in /metrics', async () => {
    // The count this test makes, whatever the tests before it left (or whether they ran).
    const refused = async () => {
      const text = await (await fetch(`${svc.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-of-the-ssrf-test' } })).text();
      return Number(/rapport_webhook_attempts_total\{outcome="refused"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await refused();
    const d = await finalDelivery(await svc.endJob({ url: `http://127.0.0.1:${receiver.port}/hook` }, { direct: true }));
    assert.equal(d.attempts?.[0]?.outcome, 'refused');
    assert.equal(await refused(), before + 1);
  });
});
