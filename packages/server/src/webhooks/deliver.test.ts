// node:test's describe/it return promises that the runner itself awaits.
 
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import Stripe from 'stripe';
import { verifyWebhook } from '../../../client/src/webhooks.ts';
import { closeDeliveryAgents, deliverOnce, parseRetryAfter } from './deliver.ts';
import type { DeliveryRequest } from './deliver.ts';

const SECRET = 'whsec_deliver_test_0a1b2c3d4e5f60718293';
const OLD_SECRET = 'whsec_deliver_old_ffeeddccbbaa99887766';
const body = JSON.stringify({
  id: 'evt_01HZX3K5Q8W2M9N4P7R6T1V0YD',
  type: 'matching.failed',
  createdAt: '2026-11-21T10:15:30.123Z',
  timestamp: '2026-11-21T10:15:30.000Z',
  data: { jobId: 'job_01HZX3K5Q8W2M9N4P7R6T1V0YD', status: 'failed', error: { code: 'target_not_found', message: 'Zoë ✓' } },
});

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver whose path says how to answer; it records every connection and request. */
class Receiver {
  server = http.createServer((req, res) => this.handle(req, res));
  connections = 0;
  requests: Received[] = [];
  port = 0;

  async listen(host: string): Promise<void> {
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve, reject) => this.server.once('error', reject).listen(0, host, resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      this.requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answers: Record<string, () => void> = {
        '/ok': () => res.writeHead(200).end('thanks'),
        '/accepted': () => res.writeHead(202).end(),
        '/fail': () => res.writeHead(500).end('oops'),
        '/gone': () => res.writeHead(410).end(),
        '/redirect': () => res.writeHead(302, { location: '/ok' }).end(),
        '/busy': () => res.writeHead(429, { 'retry-after': '120' }).end(),
        '/busy-date': () => res.writeHead(503, { 'retry-after': new Date(Date.now() + 90_000).toUTCString() }).end(),
        '/busy-long': () => res.writeHead(429, { 'retry-after': '99999' }).end(),
        '/big': () => res.writeHead(200).end(Buffer.alloc(1024 * 1024, 'x')),
        '/endless-body': () => res.writeHead(200).write('still going'),
        '/hang': () => undefined,
      };
      (answers[path] ?? (() => res.writeHead(404).end()))();
    });
  }
}

const v4 = new Receiver();
const v6 = new Receiver();
let hasV6 = true;

before(async () => {
  await v4.listen('127.0.0.1');
  await v6.listen('::1').catch(() => (hasV6 = false));
});
after(async () => {
  closeDeliveryAgents();
  await v4.close();
  if (hasV6) await v6.close();
});
beforeEach(() => {
  v4.requests = [];
});

function attempt(path: string, overrides: Partial<DeliveryRequest> = {}) {
  return deliverOnce({
    url: `http://127.0.0.1:${v4.port}${path}`,
    body,
    headers: {},
    secrets: [SECRET],
    eventId: 'evt_01HZX3K5Q8W2M9N4P7R6T1V0YD',
    attempt: 1,
    allowPrivate: true,
    requireHttps: false,
    ...overrides,
  });
}

describe('deliverOnce to a real receiver (allowPrivate)', () => {
  it('2xx is success; the request carries the §8 headers and the exact body', async () => {
    const out = await attempt('/ok', { attempt: 3 });
    assert.deepEqual({ ...out, durationMs: 0 }, { ok: true, statusCode: 200, durationMs: 0, error: null, refused: false, retryAfterSec: null, gone: false });
    assert.ok(out.durationMs >= 0);
    const [got] = v4.requests;
    assert.ok(got);
    assert.equal(got.body, body);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['user-agent'], 'Rapport-Webhooks/1');
    assert.equal(got.headers['service-event-id'], 'evt_01HZX3K5Q8W2M9N4P7R6T1V0YD');
    assert.equal(got.headers['service-delivery-attempt'], '3');
    assert.equal((await verifyWebhook(got.body, got.headers['service-signature'], SECRET)).type, 'matching.failed');
    assert.equal((await attempt('/accepted')).ok, true);
  });

  it('every signature verifies with stripe too, also with two secrets during a rotation', async () => {
    await attempt('/ok', { secrets: [SECRET, OLD_SECRET] });
    const [got] = v4.requests;
    assert.ok(got);
    const header = String(got.headers['service-signature']);
    assert.equal(header.match(/v1=/g)?.length, 2);
    const stripe = new Stripe('sk_test_x');
    for (const secret of [SECRET, OLD_SECRET]) {
      assert.doesNotThrow(() => stripe.webhooks.constructEvent(got.body, header, secret));
      await verifyWebhook(got.body, header, secret);
    }
  });

  it('signs each attempt with a fresh t over the same body bytes', async () => {
    await attempt('/fail', { attempt: 1, now: () => 1_795_000_000_000 });
    await attempt('/ok', { attempt: 2, now: () => 1_795_000_005_500 });
    const [first, second] = v4.requests;
    assert.ok(first && second);
    assert.equal(first.body, second.body);
    assert.match(String(first.headers['service-signature']), /^t=1795000000,v1=[0-9a-f]{64}$/);
    assert.match(String(second.headers['service-signature']), /^t=1795000005,v1=[0-9a-f]{64}$/);
    assert.deepEqual([first.headers['service-delivery-attempt'], second.headers['service-delivery-attempt']], ['1', '2']);
    await verifyWebhook(second.body, second.headers['service-signature'], SECRET, { now: 1_795_000_005 });
  });

  it('custom headers are sent but can never override reserved ones (any case)', async () => {
    const headers = {
      'X-Team': 'blue',
      'Service-Signature': 't=1,v1=forged',
      'SERVICE-EVENT-ID': 'evt_forged',
      'service-delivery-attempt': '99',
      'content-type': 'text/plain',
      'User-Agent': 'evil',
      Host: 'internal.example',
      'Content-Length': '1',
    };
    const out = await attempt('/ok', { headers });
    assert.equal(out.ok, true);
    const [got] = v4.requests;
    assert.ok(got);
    assert.equal(got.headers['x-team'], 'blue');
    assert.equal(got.headers['service-event-id'], 'evt_01HZX3K5Q8W2M9N4P7R6T1V0YD');
    assert.equal(got.headers['service-delivery-attempt'], '1');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['user-agent'], 'Rapport-Webhooks/1');
    assert.equal(got.headers.host, `127.0.0.1:${v4.port}`);
    assert.equal(got.body, body);
    await verifyWebhook(got.body, got.headers['service-signature'], SECRET);
  });

  it('an invalid custom header value fails the attempt instead of throwing', async () => {
    const out = await attempt('/ok', { headers: { 'X-Bad': 'a\r\nInjected: 1' } });
    assert.equal(out.ok, false);
    assert.match(out.error ?? '', /request not sent/);
    assert.equal(v4.requests.length, 0);
  });

  it('500 is a failure', async () => {
    const out = await attempt('/fail');
    assert.equal(out.ok, false);
    assert.equal(out.statusCode, 500);
    assert.match(out.error ?? '', /HTTP 500/);
    assert.equal(out.gone, false);
  });

  it('410 is gone', async () => {
    const out = await attempt('/gone');
    assert.deepEqual([out.ok, out.statusCode, out.gone], [false, 410, true]);
  });

  it('302 is a failure and is not followed', async () => {
    const out = await attempt('/redirect');
    assert.deepEqual([out.ok, out.statusCode], [false, 302]);
    assert.match(out.error ?? '', /redirect not followed: HTTP 302 to \/ok/);
    assert.deepEqual(
      v4.requests.map((r) => r.path),
      ['/redirect'],
    );
  });

  it('Retry-After on 429/503 is parsed (seconds or HTTP date) and capped at 1 h', async () => {
    const busy = await attempt('/busy');
    assert.deepEqual([busy.ok, busy.statusCode, busy.retryAfterSec], [false, 429, 120]);
    const dated = await attempt('/busy-date');
    assert.equal(dated.statusCode, 503);
    assert.ok(dated.retryAfterSec !== null && dated.retryAfterSec >= 85 && dated.retryAfterSec <= 91, String(dated.retryAfterSec));
    assert.equal((await attempt('/busy-long')).retryAfterSec, 3600);
    assert.equal((await attempt('/fail')).retryAfterSec, null);
  });

  it('a large response body is cut at the cap and does not delay the outcome', async () => {
    const out = await attempt('/big');
    assert.equal(out.ok, true);
  });

  it('no answer within the timeout is a failure', async () => {
    const out = await attempt('/hang', { timeoutMs: 200 });
    assert.equal(out.ok, false);
    assert.equal(out.statusCode, null);
    assert.match(out.error ?? '', /timeout/);
    assert.ok(out.durationMs >= 190 && out.durationMs < 2000, String(out.durationMs));
  });

  it('a 2xx whose body never ends still counts, once the timeout cuts the read', async () => {
    const out = await attempt('/endless-body', { timeoutMs: 200 });
    assert.deepEqual([out.ok, out.statusCode, out.error], [true, 200, null]);
  });

  it('a closed port is a connection error, not a refusal', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const out = await attempt('/', { url: `http://127.0.0.1:${port}/` });
    assert.deepEqual([out.ok, out.refused, out.statusCode], [false, false, null]);
    assert.match(out.error ?? '', /ECONNREFUSED/);
  });
});

describe('deliverOnce refusals (SSRF, scheme): no connection is made', () => {
  const refusedCases = () => [
    `http://127.0.0.1:${v4.port}/ok`,
    `http://[::1]:${v6.port || v4.port}/ok`,
    `http://[::ffff:127.0.0.1]:${v4.port}/ok`,
    `http://localhost:${v4.port}/ok`,
    `http://2130706433:${v4.port}/ok`, // 127.0.0.1 as one number; the URL parser normalises it
    `http://0x7f.1:${v4.port}/ok`,
  ];

  it('loopback targets, literal or resolved, are refused with allowPrivate=false', async () => {
    const before = { v4: v4.connections, v6: v6.connections };
    for (const url of refusedCases()) {
      const out = await attempt('/ok', { url, allowPrivate: false });
      assert.equal(out.refused, true, url);
      assert.equal(out.ok, false);
      assert.equal(out.statusCode, null);
      assert.match(out.error ?? '', /^refused: .*loopback/, url);
    }
    assert.deepEqual({ v4: v4.connections, v6: v6.connections }, before);
    assert.equal(v4.requests.length, 0);
  });

  it('names the resolved address when a host name is refused', async () => {
    const out = await attempt('/ok', { url: `http://localhost:${v4.port}/ok`, allowPrivate: false });
    assert.match(out.error ?? '', /localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
  });

  it('requireHttps refuses plain http before connecting', async () => {
    const before = v4.connections;
    const out = await attempt('/ok', { requireHttps: true });
    assert.equal(out.refused, true);
    assert.match(out.error ?? '', /plain http is not allowed/);
    assert.equal(v4.connections, before);
  });

  it('refuses other schemes and invalid URLs', async () => {
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'not a url']) {
      const out = await attempt('/ok', { url });
      assert.equal(out.refused, true, url);
    }
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, caps at an hour, ignores junk', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    assert.equal(parseRetryAfter('30', now), 30);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:02:00 GMT', now), 120);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('7200', now), 3600);
    assert.equal(parseRetryAfter('-5', now), null);
    assert.equal(parseRetryAfter('soon', now), null);
    assert.equal(parseRetryAfter(undefined, now), null);
  });
});
