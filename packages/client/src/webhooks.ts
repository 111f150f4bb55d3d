// Verifying Rapport webhooks on the consumer's side (interface spec, Events; decisions §8).
//
// Runs unchanged in Node 20+, browsers, Deno and edge runtimes: the HMAC comes from Web Crypto
// (`globalThis.crypto.subtle`), which every one of them has, so the SDK needs no dependency and no
// `node:crypto` import. Web Crypto is async only, hence `verifyWebhook` returns a Promise.
//
// The checks follow the spec to the letter: `service-signature: t=<unix seconds>,v1=<hex>`, HMAC-
// SHA256 over `<t>.<raw body>` keyed with the UTF-8 bytes of the whole secret (`whsec_` prefix
// included), any matching `v1` accepted (two are sent while a rotated secret is in its grace
// period), constant-time comparison, and a timestamp tolerance of 300 s that cannot be switched
// off. The body must be the raw bytes received, not re-serialised JSON.
import { RapportError } from './core/errors.ts';
import type { Id, Timestamp } from './common-types.ts';
import type { JobError } from './job-types.ts';

/** The envelope every event shares. */
export interface WebhookEventEnvelope<TType extends string, TData> {
  /** Unique per event; de-duplicate on it, since an event can be delivered more than once. */
  id: Id;
  type: TType;
  /** When the event was created. */
  createdAt: Timestamp;
  /** When the job reached its terminal state. */
  timestamp: Timestamp;
  data: TData;
}

export type MatchingCompletedEvent = WebhookEventEnvelope<'matching.completed', { jobId: Id; matchingId: Id; status: 'succeeded' }>;
export type MatchingFailedEvent = WebhookEventEnvelope<'matching.failed', { jobId: Id; status: 'failed'; error: JobError }>;
export type ReportCompletedEvent = WebhookEventEnvelope<'report.completed', { jobId: Id; reportId: Id; status: 'succeeded' }>;
export type ReportFailedEvent = WebhookEventEnvelope<'report.failed', { jobId: Id; status: 'failed'; error: JobError }>;

/**
 * The events Rapport sends, discriminated by `type`. A verified event of a type added later is
 * still returned (its signature is valid), so give a `switch (event.type)` a default branch.
 */
export type WebhookEvent = MatchingCompletedEvent | MatchingFailedEvent | ReportCompletedEvent | ReportFailedEvent;
export type WebhookEventType = WebhookEvent['type'];

export const WEBHOOK_SIGNATURE_HEADER = 'service-signature';
export const DEFAULT_WEBHOOK_TOLERANCE_SEC = 300;

export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'no_matching_signature'
  /** The signature is valid but the body is not a UTF-8 JSON event envelope. */
  | 'invalid_body';

/** The delivery did not verify; answer it with 401 (`reason` says why, for your logs). */
export class WebhookVerificationError extends RapportError {
  override name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface VerifyWebhookOptions {
  /** Largest accepted |now − t| in seconds; default 300. Must be positive: it cannot be disabled. */
  toleranceSec?: number;
  /** The current time in unix seconds; default the system clock. */
  now?: number;
}

const encoder = new TextEncoder();
const HEX64 = /^[0-9a-fA-F]{64}$/;

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new RapportError('Web Crypto (globalThis.crypto.subtle) is not available: Node 20+ or a secure browser context is required');
  return s;
}

function signedBytes(body: string | Uint8Array, t: number): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${t}.`);
  const payload = typeof body === 'string' ? encoder.encode(body) : body;
  const bytes = new Uint8Array(prefix.length + payload.length);
  bytes.set(prefix, 0);
  bytes.set(payload, prefix.length);
  return bytes;
}

async function hmacHex(secret: string, data: Uint8Array<ArrayBuffer>): Promise<string> {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('the webhook signing secret must be a non-empty string');
  const key = await subtle().importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await subtle().sign('HMAC', key, data));
  let hex = '';
  for (const byte of mac) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Equal-length strings compared without an early exit, so timing does not reveal a prefix. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function parseSignatureHeader(header: string): { t: number; signatures: string[] } {
  let t: number | null = null;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    const key = (eq < 0 ? item : item.slice(0, eq)).trim();
    const value = eq < 0 ? '' : item.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== null || !/^\d{1,15}$/.test(value)) {
        throw new WebhookVerificationError('malformed_header', 'service-signature: `t` must appear once, as unix seconds');
      }
      t = Number(value);
    } else if (key === 'v1') {
      if (!HEX64.test(value)) throw new WebhookVerificationError('malformed_header', 'service-signature: each `v1` must be 64 hex characters');
      signatures.push(value.toLowerCase());
    }
    // Other schemes are ignored, so a future scheme can be added beside v1 without breaking anyone.
  }
  if (t === null) throw new WebhookVerificationError('malformed_header', 'service-signature: no `t=` timestamp');
  if (signatures.length === 0) throw new WebhookVerificationError('malformed_header', 'service-signature: no `v1=` signature');
  return { t, signatures };
}

function parseEvent(body: string | Uint8Array): WebhookEvent {
  let parsed: unknown;
  try {
    const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
    parsed = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('invalid_body', 'the webhook body is not valid UTF-8 JSON');
  }
  const event = parsed as Partial<Record<keyof WebhookEvent, unknown>> | null;
  if (
    typeof event !== 'object' ||
    event === null ||
    Array.isArray(event) ||
    typeof event.id !== 'string' ||
    typeof event.type !== 'string' ||
    typeof event.data !== 'object' ||
    event.data === null
  ) {
    throw new WebhookVerificationError('invalid_body', 'the webhook body is not an event envelope { id, type, createdAt, timestamp, data }');
  }
  return parsed as WebhookEvent;
}

/**
 * Verifies a delivery and returns its event, or throws WebhookVerificationError.
 *
 * @param rawBody the request body exactly as received (string or bytes), never re-serialised JSON
 * @param signatureHeader the `service-signature` header value (`req.headers['service-signature']`)
 * @param secret the workspace signing secret (`whsec_…`)
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | readonly string[] | null | undefined,
  secret: string,
  opts: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const tolerance = opts.toleranceSec ?? DEFAULT_WEBHOOK_TOLERANCE_SEC;
  if (!Number.isFinite(tolerance) || tolerance <= 0) {
    throw new TypeError('toleranceSec must be a positive number of seconds; the timestamp check cannot be disabled');
  }
  // Node types unknown request headers as `string | string[]`; a repeated header is read as one
  // list, so two timestamps make it malformed rather than letting either one through.
  const header = typeof signatureHeader === 'string' ? signatureHeader : Array.isArray(signatureHeader) ? signatureHeader.join(',') : '';
  if (header.trim() === '') {
    throw new WebhookVerificationError('missing_header', 'no service-signature header: is this request from Rapport?');
  }
  const { t, signatures } = parseSignatureHeader(header);

  // The signature is checked before the time, so a timestamp error is only ever reported for a
  // genuine delivery (a clock problem), never as a hint to a forger.
  const expected = await hmacHex(secret, signedBytes(rawBody, t));
  let matched = false;
  for (const candidate of signatures) matched = constantTimeEqual(expected, candidate) || matched;
  if (!matched) {
    throw new WebhookVerificationError(
      'no_matching_signature',
      'no v1 signature matches: check the signing secret and that the body is the raw bytes received',
    );
  }

  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (now - t > tolerance) {
    throw new WebhookVerificationError('timestamp_too_old', `the signature timestamp is ${now - t} s old (tolerance ${tolerance} s)`);
  }
  if (t - now > tolerance) {
    throw new WebhookVerificationError('timestamp_too_new', `the signature timestamp is ${t - now} s in the future (tolerance ${tolerance} s)`);
  }
  return parseEvent(rawBody);
}

/**
 * A valid `service-signature` value for `body` at unix time `t`, to build signed requests in
 * your own tests: `await signatureHeaderFor(body, secret, Math.floor(Date.now() / 1000))`.
 */
export async function signatureHeaderFor(body: string | Uint8Array, secret: string, t: number): Promise<string> {
  if (!Number.isSafeInteger(t) || t < 0) throw new RangeError('t must be a non-negative integer of unix seconds');
  return `t=${t},v1=${await hmacHex(secret, signedBytes(body, t))}`;
}
