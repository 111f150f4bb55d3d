// Rate limits of decisions §4: fixed windows on the UTC minute, per API key (per IP without a
// valid key), X-RateLimit-* on every /v1 response, 429 with the error body and Retry-After equal
// to retryAfter, rejected requests not counted, per-class limits. A test that straddles a minute
// boundary is retried once (the window legitimately reset under it).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, call, insertEntity, insertMedia, json, matchingBody, msLeftInMinute, sleep, type ErrorJson, type Tenant, type TestApp } from './helpers.ts';
import { registeredRoutes } from './routes.ts';
import { MemoryRateLimitCounter, checkRateLimit } from '../src/http/rate-limit.ts';
import { loadConfig } from '../src/config.ts';

/** Runs `fn` inside one rate-limit window: waits out a window about to end, retries once on a roll-over. */
async function inOneWindow(fn: () => Promise<{ resets: string[] }>): Promise<void> {
  if (msLeftInMinute() < 3000) await sleep(msLeftInMinute() + 50);
  const first = await fn();
  if (new Set(first.resets).size <= 1) return;
  const second = await fn();
  assert.equal(new Set(second.resets).size, 1, 'the window rolled over twice');
}

function assertRateHeaders(res: LightMyRequestResponse, limit: number, what: string): void {
  assert.equal(res.headers['x-ratelimit-limit'], String(limit), `${what}: X-RateLimit-Limit`);
  assert.match(String(res.headers['x-ratelimit-remaining']), /^\d+$/, `${what}: X-RateLimit-Remaining`);
  const reset = Number(res.headers['x-ratelimit-reset']);
  assert.equal(reset, Math.floor(Date.now() / 60_000) * 60 + 60, `${what}: X-RateLimit-Reset is the next UTC minute`);
}

describe('rate limits', () => {
  let t: TestApp;
  let routes: Awaited<ReturnType<typeof registeredRoutes>>;
  before(async () => {
    t = await buildTestApp();
    routes = await registeredRoutes(t.services);
  });
  after(() => t.close());

  it('X-RateLimit-* on every /v1 response, errors and 404s included; none outside /v1', async () => {
    if (msLeftInMinute() < 3000) await sleep(msLeftInMinute() + 50);
    const fresh = await t.services.workspace.createKey(t.main.workspaceId, 'standard', 'headers');
    const tenant: Tenant = { ...t.main, apiKey: fresh.apiKey };
    const cases: [string, Tenant | null, { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: object }, number][] = [
      ['200 list', tenant, { method: 'GET', url: '/v1/jobs' }, 200],
      ['404 unknown route', tenant, { method: 'GET', url: '/v1/nothing-here' }, 404],
      ['404 unknown route without a key', null, { method: 'GET', url: '/v1/nothing-here' }, 404],
      ['404 unknown id', tenant, { method: 'GET', url: '/v1/jobs/job_doesnotexist0000000000' }, 404],
      ['401 without a key', null, { method: 'GET', url: '/v1/jobs' }, 401],
      ['401 with an unknown key', { ...tenant, apiKey: 'rk_unknownunknownunknownunknownunknown' }, { method: 'GET', url: '/v1/jobs' }, 401],
      ['400 validation', tenant, { method: 'POST', url: '/v1/matching/jobs', payload: {} }, 400],
      ['405 wrong method', tenant, { method: 'DELETE', url: '/v1/matching/jobs' }, 405],
      ['200 public OpenAPI', null, { method: 'GET', url: '/v1/openapi.json' }, 200],
    ];
    let previousRemaining = Infinity;
    for (const [what, who, req, status] of cases) {
      const res = await call(t, who, req);
      assert.equal(res.statusCode, status, `${what}: ${res.body}`);
      assert.ok(res.headers['x-request-id'], `${what}: X-Request-Id`);
      assertRateHeaders(res, req.url.startsWith('/v1/jobs/') ? 60 : 100, what);
      if (who === tenant && !req.url.startsWith('/v1/jobs/')) {
        const remaining = Number(res.headers['x-ratelimit-remaining']);
        assert.ok(remaining < previousRemaining, `${what}: the key's remaining count goes down`);
        previousRemaining = remaining;
      }
    }
    const health = await call(t, null, { method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    assert.equal(health.headers['x-ratelimit-limit'], undefined, 'outside /v1 is not rate limited');
  });

  it('the 101st request in a window gets 429, the §4 body, and Retry-After == retryAfter', async () => {
    await inOneWindow(async () => {
      const key = await t.services.workspace.createKey(t.main.workspaceId, 'standard', 'burst');
      const tenant: Tenant = { ...t.main, apiKey: key.apiKey };
      const resets: string[] = [];
      for (let i = 1; i <= 100; i++) {
        const res = await call(t, tenant, { method: 'GET', url: '/v1/jobs?limit=1' });
        assert.equal(res.statusCode, 200, `request ${i}`);
        assert.equal(res.headers['x-ratelimit-remaining'], String(100 - i));
        resets.push(String(res.headers['x-ratelimit-reset']));
      }
      const limited = await call(t, tenant, { method: 'GET', url: '/v1/jobs?limit=1' });
      resets.push(String(limited.headers['x-ratelimit-reset']));
      if (new Set(resets).size > 1) return { resets };
      assert.equal(limited.statusCode, 429);
      const body = json<ErrorJson>(limited);
      assert.equal(body.error.code, 'RATE_LIMITED');
      assert.equal(typeof body.error.message, 'string');
      assert.equal(body.error.requestId, limited.headers['x-request-id']);
      assert.equal(typeof body.error.retryAfter, 'number');
      assert.ok(Number.isInteger(body.error.retryAfter) && (body.error.retryAfter ?? 0) >= 1 && (body.error.retryAfter ?? 0) <= 60);
      assert.equal(limited.headers['retry-after'], String(body.error.retryAfter));
      assertRateHeaders(limited, 100, '429');
      assert.equal(limited.headers['x-ratelimit-remaining'], '0');
      // Every route of the class is refused, for this key only; other keys and classes go on.
      const post = await call(t, tenant, { method: 'POST', url: '/v1/matching/jobs', payload: {} });
      assert.equal(post.statusCode, 429, 'the limit is checked before the body');
      assert.equal((await call(t, t.other, { method: 'GET', url: '/v1/jobs?limit=1' })).statusCode, 200, 'another key has its own count');
      assert.equal((await call(t, tenant, { method: 'GET', url: '/v1/jobs/job_doesnotexist0000000000' })).statusCode, 404, 'another class has its own count');
      return { resets };
    });
  });

  it('GET /v1/jobs/:id and /events share the job-status class of 60', async () => {
    const m = (await insertMedia(t.services, t.main.workspaceId, { kind: 'transcript' })).id;
    const e = await insertEntity(t.services, t.main.workspaceId);
    await inOneWindow(async () => {
      const key = await t.services.workspace.createKey(t.main.workspaceId, 'standard', 'status');
      const tenant: Tenant = { ...t.main, apiKey: key.apiKey };
      const jobId = json<{ jobId: string }>(await call(t, tenant, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(m, e) })).jobId;
      const resets: string[] = [];
      for (let i = 1; i <= 60; i++) {
        const res = await call(t, tenant, { method: 'GET', url: `/v1/jobs/${jobId}` });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['x-ratelimit-limit'], '60');
        resets.push(String(res.headers['x-ratelimit-reset']));
      }
      const limited = await call(t, tenant, { method: 'GET', url: `/v1/jobs/${jobId}` });
      const events = await call(t, tenant, { method: 'GET', url: `/v1/jobs/${jobId}/events` });
      resets.push(String(limited.headers['x-ratelimit-reset']), String(events.headers['x-ratelimit-reset']));
      if (new Set(resets).size > 1) return { resets };
      assert.equal(limited.statusCode, 429);
      assert.equal(events.statusCode, 429, 'the stream shares the class');
      assert.equal((await call(t, tenant, { method: 'GET', url: '/v1/jobs' })).statusCode, 200, 'the default class is separate');
      return { resets };
    });
  });

  it('report creation is limited to 20 per minute', async () => {
    const e = await insertEntity(t.services, t.main.workspaceId);
    await inOneWindow(async () => {
      const key = await t.services.workspace.createKey(t.main.workspaceId, 'standard', 'reports');
      const tenant: Tenant = { ...t.main, apiKey: key.apiKey };
      const resets: string[] = [];
      for (let i = 1; i <= 21; i++) {
        const res = await call(t, tenant, { method: 'POST', url: '/v1/reports/jobs', payload: { target: { type: 'entity_id', entityId: e } } });
        assert.equal(res.statusCode, i <= 20 ? 202 : 429, `report ${i}: ${res.body}`);
        assert.equal(res.headers['x-ratelimit-limit'], '20');
        resets.push(String(res.headers['x-ratelimit-reset']));
      }
      return { resets };
    });
  });

  it('the 11th upload in a window gets 429', async (ctx) => {
    if (!routes.some((r) => r.method === 'POST' && r.url === '/v1/files')) {
      ctx.skip('POST /v1/files is not registered yet');
      console.log('# skipped: the upload route POST /v1/files is not registered yet');
      return;
    }
    await inOneWindow(async () => {
      const key = await t.services.workspace.createKey(t.main.workspaceId, 'standard', 'uploads');
      const resets: string[] = [];
      const boundary = 'rapportboundary';
      const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\nnot media at all\r\n--${boundary}--\r\n`;
      for (let i = 1; i <= 11; i++) {
        const res = await t.app.inject({ method: 'POST', url: '/v1/files', payload, headers: { 'service-api-key': key.apiKey, 'content-type': `multipart/form-data; boundary=${boundary}` } });
        assert.equal(res.headers['x-ratelimit-limit'], '10');
        resets.push(String(res.headers['x-ratelimit-reset']));
        if (i <= 10) assert.notEqual(res.statusCode, 429, `upload ${i}`);
        else {
          assert.equal(res.statusCode, 429, res.body);
          assert.equal(res.headers['retry-after'], String(json<ErrorJson>(res).error.retryAfter));
        }
      }
      return { resets };
    });
  });

  it('requests without a valid key are counted per client address, apart from keys', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_DEFAULT: '3' });
    try {
      await inOneWindow(async () => {
        const resets: string[] = [];
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          const res = await call(limited, null, { method: 'GET', url: '/v1/jobs' });
          statuses.push(res.statusCode);
          resets.push(String(res.headers['x-ratelimit-reset']));
        }
        if (new Set(resets).size > 1) return { resets };
        assert.deepEqual(statuses, [401, 401, 401, 429]);
        assert.equal((await call(limited, limited.main, { method: 'GET', url: '/v1/jobs' })).statusCode, 200, 'a valid key has its own count');
        return { resets };
      });
    } finally {
      await limited.close();
    }
  });

  it("a workspace's own limits (set by an operator) replace the configuration's for that workspace only", async () => {
    await t.services.stores.workspaces.setRateLimits(t.other.workspaceId, { entities: 2 });
    try {
      await inOneWindow(async () => {
        // Fresh keys: nothing about them is cached yet.
        const own = await t.services.workspace.createKey(t.other.workspaceId, 'standard', 'limited');
        const main = await t.services.workspace.createKey(t.main.workspaceId, 'standard', 'default');
        const limited: Tenant = { ...t.other, apiKey: own.apiKey };
        const normal: Tenant = { ...t.main, apiKey: main.apiKey };
        const answers = [];
        for (let i = 0; i < 3; i++) answers.push(await call(t, limited, { method: 'GET', url: '/v1/entities' }));
        const other = await call(t, normal, { method: 'GET', url: '/v1/entities' });
        assert.deepEqual(answers.map((r) => r.statusCode), [200, 200, 429]);
        assert.equal(answers[0]?.headers['x-ratelimit-limit'], '2');
        assert.match(json<ErrorJson>(answers[2] as LightMyRequestResponse).error.message, /Rate limit of 2 requests per minute/);
        assert.equal(other.headers['x-ratelimit-limit'], '30', 'other workspaces keep the configured limit');
        return { resets: [...answers, other].map((r) => String(r.headers['x-ratelimit-reset'])) };
      });
    } finally {
      await t.services.stores.workspaces.setRateLimits(t.other.workspaceId, null);
    }
    assert.equal(await t.services.stores.workspaces.getRateLimits(t.other.workspaceId), null);
  });
});

describe('rate-limit counters', () => {
  const limits = loadConfig({ RATE_LIMIT_DEFAULT: '3' }).rateLimits;
  const minute = Date.UTC(2026, 10, 21, 10, 15, 0);

  it('rejected requests do not count; the next window starts from zero', async () => {
    const counter = new MemoryRateLimitCounter();
    const at = (offsetMs: number) => checkRateLimit(counter, limits, 'default', 'key:a', minute + offsetMs);
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push(await at(1000 + i));
    assert.deepEqual(seen.map((d) => d.allowed), [true, true, true, false, false, false]);
    assert.deepEqual(seen.map((d) => d.headers['x-ratelimit-remaining']), ['2', '1', '0', '0', '0', '0']);
    assert.deepEqual(await counter.take([{ key: 'default:key:a', limit: 3 }], minute), { allowed: false, counts: [3] }, 'refusals left the count at the limit');
    const next = await at(60_000);
    assert.equal(next.allowed, true);
    assert.equal(next.headers['x-ratelimit-remaining'], '2');
    assert.equal(next.headers['x-ratelimit-reset'], String((minute + 120_000) / 1000));
  });

  it('Retry-After counts whole seconds to the next UTC minute, at least 1', async () => {
    const counter = new MemoryRateLimitCounter();
    for (let i = 0; i < 3; i++) await checkRateLimit(counter, limits, 'default', 'key:b', minute + 59_000);
    assert.equal((await checkRateLimit(counter, limits, 'default', 'key:b', minute + 59_000)).retryAfterSec, 1);
    assert.equal((await checkRateLimit(counter, limits, 'default', 'key:b', minute + 59_999)).retryAfterSec, 1);
    const early = new MemoryRateLimitCounter();
    for (let i = 0; i < 3; i++) await checkRateLimit(early, limits, 'default', 'key:c', minute + 200);
    assert.equal((await checkRateLimit(early, limits, 'default', 'key:c', minute + 200)).retryAfterSec, 60);
  });
});
