// Issue 32, finding 2: /metrics was open to anyone, showed counts across every workspace and ran
// full-table counts on the event loop at each scrape. Now (decisions §12) it is 404 while
// METRICS_TOKEN is unset, 401 without the right bearer token, and its figures are this process's
// counters: a scrape reads nothing from the store.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, json, matchingBody, type ErrorJson, type TestApp } from './helpers.ts';

const TOKEN = 'a-metrics-token-for-the-test-0123';

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(async () => t.close());

  it('is 404 with the error body, with or without a key or a token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { 'service-api-key': t.main.apiKey }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      assert.equal(res.statusCode, 404);
      assert.equal(json<ErrorJson>(res).error.code, 'NOT_FOUND');
      assert.equal(json<ErrorJson>(res).error.requestId, res.headers['x-request-id']);
    }
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ METRICS_TOKEN: TOKEN });
  });
  after(async () => t.close());

  it('is 401 without the token, with another token, or with an API key', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token-at-all-0000' }, { authorization: TOKEN }, { 'service-api-key': t.main.apiKey }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      assert.equal(res.statusCode, 401, JSON.stringify(headers));
      assert.equal(json<ErrorJson>(res).error.code, 'UNAUTHENTICATED');
      assert.doesNotMatch(res.body, /rapport_/);
    }
  });

  it('answers counters kept in memory, reading nothing from the store', async () => {
    const mediaId = (await insertMedia(t.services, t.main.workspaceId)).id;
    const entityId = await insertEntity(t.services, t.main.workspaceId);
    const created = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(mediaId, entityId) });
    assert.equal(created.statusCode, 202);
    const backend = t.services.stores.backend as unknown as Record<string, unknown>;
    const webhooks = t.services.stores.webhooks as unknown as Record<string, unknown>;
    const reads: string[] = [];
    const spied: [Record<string, unknown>, string][] = [[backend, 'aggregate'], [webhooks, 'attemptCounts'], [webhooks, 'recentFirstAttemptLatencies']];
    const saved = spied.map(([o, k]) => o[k]);
    for (const [o, k] of spied) o[k] = async () => (reads.push(k), []);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.match(res.body, /rapport_job_events_total\{event="job.updated"\} [1-9]/);
      assert.match(res.body, /rapport_http_responses_total\{code="2xx"\} [1-9]/);
      assert.match(res.body, /process_resident_memory_bytes \d+/);
      assert.deepEqual(reads, [], 'a scrape reads no table');
    } finally {
      spied.forEach(([o, k], i) => (o[k] = saved[i]));
    }
  });
});
