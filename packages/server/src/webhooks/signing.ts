// Webhook signatures (interface spec, Events > Signature; decisions §3 and §8).
//
// The header is `t=<unix seconds>,v1=<hex>[,v1=<hex>]`: HMAC-SHA256 over `<t>.<raw body>`, keyed
// with the UTF-8 bytes of the whole secret string, `whsec_` prefix included (the same convention
// as Stripe, so `stripe.webhooks.constructEvent` verifies our deliveries). While a rotated secret
// is in its grace period the caller passes both secrets, newest first, and the header carries one
// `v1` entry per secret in that order; a consumer that knows either secret accepts the delivery.
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'service-signature';
export const SIGNATURE_SCHEME = 'v1';

/** Hex HMAC-SHA256 of `<t>.<body>` under one secret. */
export function computeSignature(body: string | Buffer, secret: string, t: number): string {
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  hmac.update(`${t}.`, 'utf8');
  // A Buffer is hashed as given, so the signed bytes are exactly the bytes that go on the wire.
  if (typeof body === 'string') hmac.update(body, 'utf8');
  else hmac.update(body);
  return hmac.digest('hex');
}

/**
 * The `service-signature` value for one attempt. `t` is the attempt's send time in unix seconds
 * (a fresh one on every attempt, so a captured request cannot be replayed past the tolerance).
 */
export function signatureHeader(body: string | Buffer, secrets: readonly string[], t: number): string {
  if (!Number.isSafeInteger(t) || t < 0) {
    throw new RangeError(`signature timestamp must be a non-negative integer of unix seconds, got ${t}`);
  }
  if (secrets.length === 0) throw new TypeError('at least one signing secret is required');
  const parts = [`t=${t}`];
  for (const secret of secrets) {
    // An empty key would still produce a valid-looking HMAC; refuse it loudly instead.
    if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('signing secrets must be non-empty strings');
    parts.push(`${SIGNATURE_SCHEME}=${computeSignature(body, secret, t)}`);
  }
  return parts.join(',');
}
