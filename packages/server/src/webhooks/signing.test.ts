// node:test's describe/it return promises that the runner itself awaits.
 
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import Stripe from 'stripe';
import { verifyWebhook } from '../../../client/src/webhooks.ts';
import { computeSignature, signatureHeader } from './signing.ts';

const stripe = new Stripe('sk_test_x');
const SECRET = 'whsec_test_3b1f0c2d9e8a7f6b5c4d3e2f1a0b9c8d';
const OLD_SECRET = 'whsec_old_00112233445566778899aabbccddeeff';
const body = JSON.stringify({
  id: 'evt_01HZX3K5Q8W2M9N4P7R6T1V0YB',
  type: 'matching.completed',
  createdAt: '2026-11-21T10:15:30.123Z',
  timestamp: '2026-11-21T10:15:30.000Z',
  data: { jobId: 'job_01HZX3K5Q8W2M9N4P7R6T1V0YB', matchingId: 'mat_01HZX3K5Q8W2M9N4P7R6T1V0YB', status: 'succeeded' },
});
const now = () => Math.floor(Date.now() / 1000);

describe('signatureHeader', () => {
  it('is t=<unix seconds>,v1=<hex> with HMAC-SHA256 over `${t}.${body}` keyed by the whole secret', () => {
    const t = 1_795_000_000;
    const expected = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
    assert.equal(signatureHeader(body, [SECRET], t), `t=${t},v1=${expected}`);
    // The `whsec_` prefix is part of the key: dropping it gives another signature.
    assert.notEqual(computeSignature(body, SECRET.slice('whsec_'.length), t), expected);
  });

  it('signs the same bytes whether given a string or a Buffer (non-ASCII included)', () => {
    const text = JSON.stringify({ id: 'evt_x', type: 'report.failed', data: { message: 'Zoë — 東京 ✓' } });
    assert.equal(computeSignature(Buffer.from(text, 'utf8'), SECRET, 42), computeSignature(text, SECRET, 42));
  });

  it('puts one v1 per secret, newest first', () => {
    const header = signatureHeader(body, [SECRET, OLD_SECRET], 100);
    assert.equal(header, `t=100,v1=${computeSignature(body, SECRET, 100)},v1=${computeSignature(body, OLD_SECRET, 100)}`);
  });

  it('refuses no secrets, empty secrets and non-integer timestamps', () => {
    assert.throws(() => signatureHeader(body, [], 1), TypeError);
    assert.throws(() => signatureHeader(body, [''], 1), TypeError);
    assert.throws(() => signatureHeader(body, [SECRET], 1.5), RangeError);
    assert.throws(() => signatureHeader(body, [SECRET], -1), RangeError);
  });
});

describe('signatures verify with our SDK and with stripe (an independent implementation)', () => {
  it('a single-secret header', async () => {
    const header = signatureHeader(body, [SECRET], now());
    const ours = await verifyWebhook(body, header, SECRET);
    assert.equal(ours.id, 'evt_01HZX3K5Q8W2M9N4P7R6T1V0YB');
    const theirs = stripe.webhooks.constructEvent(body, header, SECRET) as unknown as { id: string };
    assert.equal(theirs.id, ours.id);
    // Buffers, as a raw-body middleware hands them over.
    assert.equal((stripe.webhooks.constructEvent(Buffer.from(body), header, SECRET) as unknown as { id: string }).id, ours.id);
  });

  it('during a rotation both the new and the old secret verify the same header', async () => {
    const header = signatureHeader(body, [SECRET, OLD_SECRET], now());
    for (const secret of [SECRET, OLD_SECRET]) {
      assert.equal((await verifyWebhook(body, header, secret)).type, 'matching.completed');
      assert.doesNotThrow(() => stripe.webhooks.constructEvent(body, header, secret));
    }
  });

  it('both refuse a wrong secret or a modified body', async () => {
    const header = signatureHeader(body, [SECRET], now());
    await assert.rejects(verifyWebhook(body, header, 'whsec_other'), { reason: 'no_matching_signature' });
    assert.throws(() => stripe.webhooks.constructEvent(body, header, 'whsec_other'), /No signatures found/);
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    await assert.rejects(verifyWebhook(reserialised, header, SECRET), { reason: 'no_matching_signature' });
    assert.throws(() => stripe.webhooks.constructEvent(reserialised, header, SECRET), /No signatures found/);
  });

  it("stripe's own test header verifies with our SDK", async () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: now() });
    assert.equal((await verifyWebhook(body, header, SECRET)).type, 'matching.completed');
  });
});
