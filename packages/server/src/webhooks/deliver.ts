// One webhook delivery attempt (decisions §8). Stateless: the outbox decides when to call it and
// records the outcome; this file only knows how to make one safe, signed POST and describe what
// happened.
//
// Rules: success is any 2xx within the timeout (10 s); redirects are not followed and count as
// failures; 410 asks us to stop (`gone`); `Retry-After` on 429/503 is parsed and capped at 1 h;
// the response body is read up to 4 KiB and dropped (a receiver cannot make us buffer much, and
// draining a little lets short answers finish cleanly); SSRF refusals make no connection.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { createGuardedAgent, isBlockedAddressError, refuseLiteralHost } from './address-guard.ts';
import { RETRY_AFTER_CAP_SEC } from './schedule.ts';
import { SIGNATURE_HEADER, signatureHeader } from './signing.ts';

export interface DeliveryRequest {
  url: string;
  /** The compact JSON envelope: the same bytes on every attempt. */
  body: string;
  /** The job's `webhook.headers`; never override the reserved ones. */
  headers: Record<string, string>;
  /** Signing secrets, newest first (two during a rotation's grace period). */
  secrets: string[];
  eventId: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** WEBHOOK_REQUIRE_HTTPS. */
  requireHttps: boolean;
  timeoutMs?: number;
  /** Clock for the signature's `t` (ms since epoch); durations use a monotonic clock. */
  now?: () => number;
}

export interface AttemptOutcome {
  /** A 2xx answer arrived within the timeout. */
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** No connection was made because the URL, scheme or address is not allowed. */
  refused: boolean;
  /** From Retry-After on 429/503, in seconds, capped at RETRY_AFTER_CAP_SEC. */
  retryAfterSec: number | null;
  /** The receiver answered 410: stop retrying this delivery. */
  gone: boolean;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_CAP_BYTES = 4096;
export const USER_AGENT = 'Rapport-Webhooks/1';

/**
 * Header names a job's `webhook.headers` can never set (compared case-insensitively): ours from
 * §8, plus those that frame or route the request, which would corrupt it or turn the delivery into
 * something else. The API may refuse them at job creation; here they are dropped silently.
 */
export const RESERVED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'content-type',
  'user-agent',
  SIGNATURE_HEADER,
  'service-event-id',
  'service-delivery-attempt',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
]);

export function isReservedHeader(name: string): boolean {
  return RESERVED_HEADER_NAMES.has(name.trim().toLowerCase());
}

/** The headers of one attempt: custom ones first, then ours, so ours always win. */
export function buildDeliveryHeaders(
  custom: Record<string, string>,
  fields: { signature: string; eventId: string; attempt: number; contentLength: number },
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(custom)) {
    if (!isReservedHeader(name)) headers[name] = value;
  }
  headers['Content-Type'] = 'application/json';
  headers['User-Agent'] = USER_AGENT;
  headers['Content-Length'] = String(fields.contentLength);
  headers[SIGNATURE_HEADER] = fields.signature;
  headers['service-event-id'] = fields.eventId;
  headers['service-delivery-attempt'] = String(fields.attempt);
  return headers;
}

/** `Retry-After` as whole seconds from now (delta-seconds or HTTP date), capped; null if absent or unusable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  let seconds: number;
  if (/^\d+$/.test(text)) seconds = Number(text);
  else {
    // Every HTTP-date form starts with a day name; this also keeps Date.parse from reading
    // something like "-5" as a year.
    if (!/^[A-Za-z]{3}/.test(text)) return null;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    seconds = Math.max(0, Math.ceil((at - nowMs) / 1000));
  }
  return Math.min(seconds, RETRY_AFTER_CAP_SEC);
}

// Sockets are reused across deliveries (a receiver that gets many events pays one handshake);
// the guard lives in the agent, so a reused socket was checked when it was opened.
const agents = new Map<string, http.Agent>();
function agentFor(protocol: 'http:' | 'https:', allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = createGuardedAgent(protocol, { allowPrivate, agentOptions: { keepAlive: true, maxFreeSockets: 16 } });
    agents.set(key, agent);
  }
  return agent;
}

/** Closes the shared keep-alive sockets (for shutdown and tests). Safe to call twice. */
export function closeDeliveryAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

function outcome(started: number, fields: Partial<AttemptOutcome>): AttemptOutcome {
  return {
    ok: false,
    statusCode: null,
    error: null,
    refused: false,
    retryAfterSec: null,
    gone: false,
    ...fields,
    durationMs: Math.round(performance.now() - started),
  };
}

function describeError(err: Error & { code?: string }): string {
  return err.code && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err.message;
}

export async function deliverOnce(req: DeliveryRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const now = req.now ?? Date.now;
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return outcome(started, { refused: true, error: 'refused: the webhook URL is not a valid absolute URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return outcome(started, { refused: true, error: `refused: ${url.protocol} URLs are not delivered to (http or https only)` });
  }
  if (url.protocol === 'http:' && req.requireHttps) {
    return outcome(started, { refused: true, error: 'refused: plain http is not allowed (WEBHOOK_REQUIRE_HTTPS=true)' });
  }
  // The agent refuses literal addresses too; checking here gives the same answer without any I/O.
  const literal = refuseLiteralHost(url.hostname, { allowPrivate: req.allowPrivate });
  if (literal) return outcome(started, { refused: true, error: literal.message });

  const body = Buffer.from(req.body, 'utf8');
  const t = Math.floor(now() / 1000);
  let headers: Record<string, string>;
  try {
    headers = buildDeliveryHeaders(req.headers, {
      signature: signatureHeader(body, req.secrets, t),
      eventId: req.eventId,
      attempt: req.attempt,
      contentLength: body.length,
    });
  } catch (err) {
    return outcome(started, { error: `signing failed: ${(err as Error).message}` });
  }

  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    // Set once the status line has arrived; later errors or timeouts no longer change the verdict.
    let answered: Partial<AttemptOutcome> | null = null;
    const finish = (fields: Partial<AttemptOutcome>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome(started, fields));
    };

    let request: http.ClientRequest;
    try {
      const client = url.protocol === 'https:' ? https : http;
      request = client.request(url, { method: 'POST', headers, agent: agentFor(url.protocol as 'http:' | 'https:', req.allowPrivate) });
    } catch (err) {
      // Invalid custom header names or values (e.g. with CR/LF) throw synchronously.
      resolve(outcome(started, { error: `request not sent: ${describeError(err as Error)}` }));
      return;
    }

    const timer = setTimeout(() => {
      // After a status line has arrived only the body read is cut short; the status stands.
      if (answered) {
        request.destroy();
        finish(answered);
      } else {
        request.destroy(new Error(`timeout: no answer within ${timeoutMs} ms`));
      }
    }, timeoutMs);

    request.on('error', (err: Error & { code?: string }) => {
      if (answered) return finish(answered);
      if (isBlockedAddressError(err)) return finish({ refused: true, error: err.message });
      finish({ error: describeError(err) });
    });

    request.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const fields: Partial<AttemptOutcome> = { statusCode: status };
      if (status >= 200 && status < 300) fields.ok = true;
      else if (status >= 300 && status < 400) {
        const location = res.headers.location ? ` to ${res.headers.location.slice(0, 200)}` : '';
        fields.error = `redirect not followed: HTTP ${status}${location}`;
      } else {
        fields.error = `HTTP ${status}${res.statusMessage ? ` ${res.statusMessage.slice(0, 100)}` : ''}`;
        if (status === 410) fields.gone = true;
        if (status === 429 || status === 503) fields.retryAfterSec = parseRetryAfter(res.headers['retry-after'], now());
      }
      answered = fields;
      const settle = (): void => finish(fields);
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= RESPONSE_BODY_CAP_BYTES) {
          res.destroy();
          settle();
        }
      });
      res.on('end', settle);
      res.on('close', settle);
      res.on('error', settle);
    });

    request.end(body);
  });
}
