import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  APIError, AuthenticationError, ConflictError, InsufficientCreditsError, InternalServerError, NotFoundError,
  PayloadTooLargeError, PermissionDeniedError, Rapport, RateLimitError, UnsupportedMediaTypeError, ValidationError,
} from '../src/index.ts';
import { apiError, fakeServer } from './fake-server.ts';
import type { FakeServer } from './fake-server.ts';

const cases: [number, string, new (...a: never[]) => APIError][] = [
  [400, 'VALIDATION_FAILED', ValidationError],
  [400, 'REFERENCE_NOT_FOUND', ValidationError],
  [401, 'UNAUTHENTICATED', AuthenticationError],
  [402, 'INSUFFICIENT_CREDITS', InsufficientCreditsError],
  [403, 'FORBIDDEN', PermissionDeniedError],
  [404, 'NOT_FOUND', NotFoundError],
  [409, 'CONFLICT', ConflictError],
  [409, 'IDEMPOTENCY_KEY_IN_USE', ConflictError],
  [413, 'PAYLOAD_TOO_LARGE', PayloadTooLargeError],
  [415, 'UNSUPPORTED_MEDIA_TYPE', UnsupportedMediaTypeError],
  [422, 'IDEMPOTENCY_KEY_REUSED', ConflictError],
  [429, 'RATE_LIMITED', RateLimitError],
  [500, 'INTERNAL', InternalServerError],
];

let server: FakeServer;
let next: [number, string] = [500, 'INTERNAL'];
before(async () => {
  server = await fakeServer((_req, res) => {
    const [status, code] = next;
    const extra = status === 400 ? { details: [{ path: '/group/0/mediaId', message: 'not found' }] } : status === 429 ? { retryAfter: 60 } : {};
    apiError(res, status, code, extra, status === 429 ? { 'retry-after': '60' } : {});
  });
});
after(() => server.close());

test('every error status maps to its class, carrying status, code, message, request id and headers', async () => {
  const client = new Rapport({ apiKey: 'rk_test', baseUrl: server.url, maxRetries: 0 });
  for (const [status, code, cls] of cases) {
    next = [status, code];
    const err = await client.jobs.retrieve('job_x').then(() => assert.fail('no error'), (e: unknown) => e);
    assert.ok(err instanceof cls, `${status} ${code} → ${(err as Error).name}`);
    assert.ok(err instanceof APIError);
    assert.equal(err.status, status);
    assert.equal(err.code, code);
    assert.equal(err.message, `${code} happened`);
    assert.equal(err.requestId, 'req_err');
    assert.equal(err.headers.get('x-request-id'), 'req_test');
    if (err instanceof ValidationError) assert.deepEqual(err.details, [{ path: '/group/0/mediaId', message: 'not found' }]);
    if (err instanceof RateLimitError) assert.equal(err.retryAfter, 60);
  }
});

test('a non-JSON error body still gives a typed error with the status', async () => {
  const s = await fakeServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<h1>bad gateway</h1>');
  });
  try {
    const client = new Rapport({ apiKey: 'rk_test', baseUrl: s.url, maxRetries: 0 });
    const err = await client.credits.balance().catch((e: unknown) => e);
    assert.ok(err instanceof InternalServerError);
    assert.equal(err.status, 502);
    assert.equal(err.body, '<h1>bad gateway</h1>');
  } finally {
    await s.close();
  }
});

test('a client without an API key is refused at construction', () => {
  const saved = process.env.RAPPORT_API_KEY;
  delete process.env.RAPPORT_API_KEY;
  try {
    assert.throws(() => new Rapport({ baseUrl: 'http://127.0.0.1:1' }), /no API key/);
  } finally {
    if (saved !== undefined) process.env.RAPPORT_API_KEY = saved;
  }
});
