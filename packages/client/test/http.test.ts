import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AbortError, APIConnectionError, InternalServerError, Rapport, RateLimitError, RedirectError, TimeoutError, UnexpectedResponseError,
} from '../src/index.ts';
import { apiError, fakeServer, job, json } from './fake-server.ts';

test('sends the API key and JSON, and reads JSON back', async () => {
  const s = await fakeServer((_req, res) => json(res, 200, { balance: 5, reserved: 1, available: 4, updatedAt: 'x' }));
  try {
    const client = new Rapport({ apiKey: 'rk_abc', baseUrl: `${s.url}/` });
    assert.equal((await client.credits.balance()).available, 4);
    assert.equal(s.requests[0]?.headers['service-api-key'], 'rk_abc');
    assert.equal(s.requests[0]?.url, '/v1/credits');
  } finally {
    await s.close();
  }
});

// A proxy's login page, or a base URL that points at another service, answers 200 with HTML: the
// SDK must say what came back and where, not throw JSON.parse's bare SyntaxError.
test('a JSON route answered 200 with a body that is not JSON throws UnexpectedResponseError, not retried', async () => {
  const page = `<!doctype html><html><head><title>Sign in</title></head>\n<body>${'x'.repeat(500)}</body></html>`;
  const s = await fakeServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-request-id': 'req_proxy' });
    res.end(page);
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 2 });
    const err = await client.credits.balance().catch((e: unknown) => e);
    assert.ok(err instanceof UnexpectedResponseError, String(err));
    assert.equal(err.status, 200);
    assert.equal(err.contentType, 'text/html; charset=utf-8');
    assert.equal(err.requestId, 'req_proxy');
    assert.match(err.message, /^GET \/v1\/credits answered 200 with text\/html, not JSON: "<!doctype html><html><head><title>Sign in<\/title><\/head> <body>x+…"/);
    assert.ok(err.message.includes(s.url), 'names the base URL to check');
    assert.ok(err.excerpt !== null && err.excerpt.length <= 201 && page.startsWith(err.excerpt.slice(0, 20)), String(err.excerpt));
    assert.equal(s.requests.length, 1);
    // Lists read their pages through the same path.
    await assert.rejects(async () => {
      await client.files.list();
    }, UnexpectedResponseError);
  } finally {
    await s.close();
  }
});

test('5xx on a GET is retried with backoff and then succeeds', async () => {
  const s = await fakeServer((_req, res, n) => (n < 3 ? apiError(res, 503, 'UNAVAILABLE') : json(res, 200, job())));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 2 });
    const started = Date.now();
    assert.equal((await client.jobs.retrieve('job_1')).id, 'job_1');
    assert.equal(s.requests.length, 3);
    assert.ok(Date.now() - started >= 0.75 * (500 + 1000), 'waited the backoff');
  } finally {
    await s.close();
  }
});

test('507 INSUFFICIENT_STORAGE (a full disk) is thrown at once, not retried', async () => {
  const s = await fakeServer((_req, res) => apiError(res, 507, 'INSUFFICIENT_STORAGE'));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 2 });
    await assert.rejects(client.jobs.retrieve('job_1'), (err: unknown) => err instanceof InternalServerError && err.code === 'INSUFFICIENT_STORAGE');
    assert.equal(s.requests.length, 1);
  } finally {
    await s.close();
  }
});

test('5xx beyond maxRetries is thrown', async () => {
  const s = await fakeServer((_req, res) => apiError(res, 500, 'INTERNAL'));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 1 });
    await assert.rejects(client.jobs.retrieve('job_1'), InternalServerError);
    assert.equal(s.requests.length, 2);
  } finally {
    await s.close();
  }
});

test('a POST carries a generated Idempotency-Key, the same on every retry', async () => {
  const s = await fakeServer((_req, res, n) => (n === 1 ? apiError(res, 500, 'INTERNAL') : json(res, 202, { jobId: 'job_1', status: 'queued' })));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const receipt = await client.matching.create({
      target: { type: 'entity_id', entityId: 'ent_a' }, group: [{ type: 'entity_id', entityId: 'ent_b' }],
    });
    assert.equal(receipt.jobId, 'job_1');
    const [a, b] = s.requests;
    assert.match(String(a?.headers['idempotency-key']), /^rapport-[0-9a-f-]{36}$/);
    assert.equal(a?.headers['idempotency-key'], b?.headers['idempotency-key']);
    assert.deepEqual(JSON.parse(String(a?.body)), {
      context: 'behavioral_compatibility', target: { type: 'entity_id', entityId: 'ent_a' }, group: [{ type: 'entity_id', entityId: 'ent_b' }],
    });
    await client.feedback.create({ resultId: 'mat_1', rating: 5 }, { idempotencyKey: 'mine' });
    assert.equal(s.requests[2]?.headers['idempotency-key'], 'mine');
    // A key in the body is sent as the header too (the server refuses two different keys).
    await client.reports.create({ target: { type: 'entity_id', entityId: 'e' }, idempotencyKey: 'in-body' });
    assert.equal(s.requests[3]?.headers['idempotency-key'], 'in-body');
  } finally {
    await s.close();
  }
});

test('a PATCH (no idempotency key) is not retried after a 5xx', async () => {
  const s = await fakeServer((_req, res) => apiError(res, 500, 'INTERNAL'));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 3 });
    await assert.rejects(client.entities.update('ent_1', { label: 'Ann' }), InternalServerError);
    assert.equal(s.requests.length, 1);
  } finally {
    await s.close();
  }
});

test('429 waits retryAfter seconds, then retries', async () => {
  const s = await fakeServer((_req, res, n) =>
    n === 1 ? apiError(res, 429, 'RATE_LIMITED', { retryAfter: 1 }, { 'retry-after': '1' }) : json(res, 200, job()));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const started = Date.now();
    await client.jobs.retrieve('job_1');
    assert.ok(Date.now() - started >= 1000, 'waited Retry-After');
    assert.equal(s.requests.length, 2);
  } finally {
    await s.close();
  }
});

test('onRetry is told before each wait: why, how long, which attempt (issue 40 item 9: the CLI says it is waiting)', async () => {
  const s = await fakeServer((_req, res, n) =>
    n === 1 ? apiError(res, 429, 'RATE_LIMITED', { retryAfter: 1 }, { 'retry-after': '1' }) : json(res, 200, job()));
  try {
    const notices: unknown[] = [];
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, onRetry: (r) => { notices.push(r); throw new Error('a notice never breaks the request'); } });
    await client.jobs.retrieve('job_1');
    assert.equal(notices.length, 1);
    const [n] = notices as { reason: string; attempt: number; waitSec: number; status: number; method: string; path: string }[];
    assert.deepEqual([n?.reason, n?.attempt, n?.status, n?.method, n?.path], ['rate_limited', 1, 429, 'GET', '/v1/jobs/job_1']);
    assert.ok(n!.waitSec >= 1 && n!.waitSec < 1.2, `waits Retry-After: ${n?.waitSec}`);
  } finally {
    await s.close();
  }
});

test('429 with a Retry-After above maxRetryAfterSec is thrown at once', async () => {
  const s = await fakeServer((_req, res) => apiError(res, 429, 'RATE_LIMITED', { retryAfter: 50 }, { 'retry-after': '50' }));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetryAfterSec: 5 });
    const err = await client.jobs.retrieve('job_1').catch((e: unknown) => e);
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.retryAfter, 50);
    assert.equal(s.requests.length, 1);
  } finally {
    await s.close();
  }
});

test('connection failures are retried, then thrown as APIConnectionError', async () => {
  const s = await fakeServer((_req, res) => void res.socket?.destroy());
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 1 });
    await assert.rejects(client.files.retrieve('med_1'), APIConnectionError);
    assert.equal(s.requests.length, 2);
  } finally {
    await s.close();
  }
});

test('a slow answer is a TimeoutError; the caller can abort with a signal', async () => {
  const s = await fakeServer((_req, res) => void setTimeout(() => json(res, 200, job()), 1000));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 0, timeoutMs: 100 });
    await assert.rejects(client.jobs.retrieve('job_1'), TimeoutError);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const slow = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 3 });
    const started = Date.now();
    await assert.rejects(slow.jobs.retrieve('job_1', { signal: ac.signal }), AbortError);
    assert.ok(Date.now() - started < 800, 'abort is immediate and not retried');
  } finally {
    await s.close();
  }
});

test('path parameters are URL-encoded; 204 resolves to undefined; by-job null stays null', async () => {
  const s = await fakeServer((req, res) => {
    if (req.method === 'DELETE' && req.url.startsWith('/v1/files/')) return void res.writeHead(204).end();
    if (req.url.startsWith('/v1/matching/by-job/')) return json(res, 200, null);
    return json(res, 200, { id: 'ent_1', tags: [] });
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    await client.entities.untag('ent_1', 'a b/c');
    assert.equal(s.requests[0]?.url, '/v1/entities/ent_1/tags/a%20b%2Fc');
    assert.equal(await client.files.delete('med_1'), undefined);
    assert.equal(await client.matching.byJob('job_1'), null);
  } finally {
    await s.close();
  }
});

test('a redirect to another origin is refused: the API key never leaves the base URL origin', async () => {
  const elsewhere = await fakeServer((_req, res) => json(res, 200, { balance: 5, reserved: 1, available: 4, updatedAt: 'x' }));
  const s = await fakeServer((req, res) => {
    res.writeHead(req.url === '/v1/credits' ? 307 : 302, { location: `${elsewhere.url.replace('127.0.0.1', 'localhost')}/v1/credits` });
    res.end();
  });
  try {
    const client = new Rapport({ apiKey: 'rk_secret', baseUrl: s.url, maxRetries: 2 });
    await assert.rejects(client.credits.balance(), (err: unknown) => err instanceof RedirectError && err.status === 307 && /localhost/.test(err.location ?? ''));
    await assert.rejects(client.jobs.retrieve('job_1'), (err: unknown) => err instanceof RedirectError && err.status === 302);
    assert.equal(elsewhere.requests.length, 0, 'nothing reached the other origin');
    assert.equal(s.requests.length, 2, 'a refused redirect is not retried');
  } finally {
    await s.close();
    await elsewhere.close();
  }
});

test('a redirect within the base URL origin is followed with the key; a POST is re-sent by 307 only', async () => {
  const s = await fakeServer((req, res) => {
    if (req.url === '/v1/credits') {
      res.writeHead(301, { location: '/api/v1/credits' }).end();
      return;
    }
    if (req.url === '/v1/reports/jobs') {
      res.writeHead(307, { location: '/api/v1/reports/jobs' }).end();
      return;
    }
    if (req.url === '/v1/matching/jobs') {
      res.writeHead(302, { location: '/api/v1/matching/jobs' }).end();
      return;
    }
    if (req.url === '/api/v1/credits') return json(res, 200, { balance: 5, reserved: 1, available: 4, updatedAt: 'x' });
    return json(res, 202, { jobId: 'job_1', status: 'queued' });
  });
  try {
    const client = new Rapport({ apiKey: 'rk_secret', baseUrl: s.url });
    assert.equal((await client.credits.balance()).available, 4);
    assert.equal(s.requests[1]?.headers['service-api-key'], 'rk_secret');
    const target = { type: 'entity_id', entityId: 'ent_a' } as const;
    assert.equal((await client.reports.create({ target })).jobId, 'job_1');
    assert.equal(s.requests[3]?.method, 'POST');
    assert.equal(JSON.parse(s.requests[3]?.body.toString() ?? '{}').target.entityId, 'ent_a', 'the body is sent again');
    await assert.rejects(client.matching.create({ target, group: [target] }), (err: unknown) => err instanceof RedirectError && err.status === 302);
  } finally {
    await s.close();
  }
});
