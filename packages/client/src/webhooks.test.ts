// node:test's describe/it return promises that the runner itself awaits.
 
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { signatureHeaderFor, verifyWebhook, WebhookVerificationError } from './webhooks.ts';
import type { WebhookEvent } from './webhooks.ts';

const SECRET = 'whsec_client_test_5f4e3d2c1b0a99887766';
const T = 1_795_000_000;
const event = {
  id: 'evt_01HZX3K5Q8W2M9N4P7R6T1V0YC',
  type: 'report.failed',
  createdAt: '2026-11-21T10:15:30.123Z',
  timestamp: '2026-11-21T10:15:29.000Z',
  data: { jobId: 'job_01HZX3K5Q8W2M9N4P7R6T1V0YC', status: 'failed', error: { code: 'target_not_found', message: 'Zoë not found ✓' } },
};
const body = JSON.stringify(event);
const sign = (payload: string, secret: string, t: number) => createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof WebhookVerificationError, `expected WebhookVerificationError, got ${String(err)}`);
    assert.equal(err.name, 'WebhookVerificationError');
    return err.reason;
  }
  assert.fail('verification passed but should not have');
}

describe('verifyWebhook', () => {
  it('returns the parsed event for a valid delivery (string and bytes)', async () => {
    const header = `t=${T},v1=${sign(body, SECRET, T)}`;
    const parsed: WebhookEvent = await verifyWebhook(body, header, SECRET, { now: T });
    assert.deepEqual(parsed, event);
    assert.deepEqual(await verifyWebhook(new TextEncoder().encode(body), header, SECRET, { now: T }), event);
    assert.deepEqual(await verifyWebhook(Buffer.from(body), header, SECRET, { now: T }), event);
    // The union narrows on `type`.
    if (parsed.type === 'report.failed') assert.equal(parsed.data.error.code, 'target_not_found');
  });

  it('accepts any matching v1, in any position (secret rotation), and ignores unknown schemes', async () => {
    const other = sign(body, 'whsec_new_secret', T);
    const ours = sign(body, SECRET, T);
    for (const header of [`t=${T},v1=${other},v1=${ours}`, `t=${T},v1=${ours},v1=${other}`, `v0=abc, t=${T} , v1=${ours.toUpperCase()}`]) {
      assert.equal((await verifyWebhook(body, header, SECRET, { now: T })).id, event.id);
    }
  });

  it("accepts Node's header list form; two headers with two timestamps are malformed", async () => {
    const header = `t=${T},v1=${sign(body, SECRET, T)}`;
    assert.equal((await verifyWebhook(body, [header], SECRET, { now: T })).id, event.id);
    assert.equal(await reasonOf(verifyWebhook(body, [header, header], SECRET, { now: T })), 'malformed_header');
  });

  it('accepts timestamps exactly at the tolerance on both sides, and a custom tolerance', async () => {
    const header = `t=${T},v1=${sign(body, SECRET, T)}`;
    assert.deepEqual(await verifyWebhook(body, header, SECRET, { now: T + 300 }), event);
    assert.deepEqual(await verifyWebhook(body, header, SECRET, { now: T - 300 }), event);
    assert.deepEqual(await verifyWebhook(body, header, SECRET, { now: T + 3000, toleranceSec: 3000 }), event);
    assert.equal(await reasonOf(verifyWebhook(body, header, SECRET, { now: T + 3001, toleranceSec: 3000 })), 'timestamp_too_old');
  });

  it('verifies against the system clock by default', async () => {
    const t = Math.floor(Date.now() / 1000);
    assert.equal((await verifyWebhook(body, await signatureHeaderFor(body, SECRET, t), SECRET)).id, event.id);
  });

  it('missing_header: absent or empty header', async () => {
    for (const header of [undefined, null, '', '   ', []]) assert.equal(await reasonOf(verifyWebhook(body, header, SECRET, { now: T })), 'missing_header');
  });

  it('malformed_header: no t, bad t, repeated t, no v1, bad hex', async () => {
    const good = sign(body, SECRET, T);
    const headers = [
      `v1=${good}`,
      `t=abc,v1=${good}`,
      `t=-5,v1=${good}`,
      `t=${T},t=${T},v1=${good}`,
      `t=${T}`,
      `t=${T},v1=`,
      `t=${T},v1=${good.slice(1)}`,
      `t=${T},v1=${'z'.repeat(64)}`,
      'garbage',
    ];
    for (const header of headers) assert.equal(await reasonOf(verifyWebhook(body, header, SECRET, { now: T })), 'malformed_header', header);
  });

  it('timestamp_too_old and timestamp_too_new, one second past the tolerance', async () => {
    const header = `t=${T},v1=${sign(body, SECRET, T)}`;
    assert.equal(await reasonOf(verifyWebhook(body, header, SECRET, { now: T + 301 })), 'timestamp_too_old');
    assert.equal(await reasonOf(verifyWebhook(body, header, SECRET, { now: T - 301 })), 'timestamp_too_new');
    assert.equal(await reasonOf(verifyWebhook(body, header, SECRET, { now: T + 61, toleranceSec: 60 })), 'timestamp_too_old');
  });

  it('no_matching_signature: wrong secret, secret without its whsec_ prefix, changed body, changed t', async () => {
    const header = `t=${T},v1=${sign(body, SECRET, T)}`;
    assert.equal(await reasonOf(verifyWebhook(body, header, 'whsec_wrong', { now: T })), 'no_matching_signature');
    const unprefixed = `t=${T},v1=${sign(body, SECRET.slice(6), T)}`;
    assert.equal(await reasonOf(verifyWebhook(body, unprefixed, SECRET, { now: T })), 'no_matching_signature');
    assert.equal(await reasonOf(verifyWebhook(`${body} `, header, SECRET, { now: T })), 'no_matching_signature');
    const shifted = `t=${T + 1},v1=${sign(body, SECRET, T)}`;
    assert.equal(await reasonOf(verifyWebhook(body, shifted, SECRET, { now: T })), 'no_matching_signature');
  });

  it('invalid_body: a correctly signed body that is not a JSON envelope', async () => {
    for (const raw of ['not json', '[1,2]', 'null', '{"id":"evt_x","type":"x"}']) {
      const header = `t=${T},v1=${sign(raw, SECRET, T)}`;
      assert.equal(await reasonOf(verifyWebhook(raw, header, SECRET, { now: T })), 'invalid_body', raw);
    }
    const invalidUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    const mac = createHmac('sha256', SECRET).update(Buffer.concat([Buffer.from(`${T}.`), invalidUtf8])).digest('hex');
    assert.equal(await reasonOf(verifyWebhook(invalidUtf8, `t=${T},v1=${mac}`, SECRET, { now: T })), 'invalid_body');
  });

  it('refuses to run without a timestamp check or without a secret (programming errors)', async () => {
    const header = `t=${T},v1=${sign(body, SECRET, T)}`;
    await assert.rejects(verifyWebhook(body, header, SECRET, { now: T, toleranceSec: 0 }), TypeError);
    await assert.rejects(verifyWebhook(body, header, SECRET, { now: T, toleranceSec: Infinity }), TypeError);
    await assert.rejects(verifyWebhook(body, header, '', { now: T }), TypeError);
  });
});

describe('signatureHeaderFor', () => {
  it('builds the header the service sends', async () => {
    assert.equal(await signatureHeaderFor(body, SECRET, T), `t=${T},v1=${sign(body, SECRET, T)}`);
    assert.equal(await signatureHeaderFor(Buffer.from(body), SECRET, T), `t=${T},v1=${sign(body, SECRET, T)}`);
    await assert.rejects(signatureHeaderFor(body, SECRET, 1.5), RangeError);
  });
});
