// Issue 41, findings 10 and 11: a known path with a trailing slash was answered 405 naming the
// methods of the path without it (an unknown path is 404, decisions §1); and routes that take no
// body refused `Content-Type: application/json` with an empty body (400 INVALID_JSON), which many
// clients send on every request. On both backends (the API suite runs again on PostgreSQL).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from './helpers.ts';

describe('routing edges', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('answers 404 NOT_FOUND for a known path with a trailing slash, with or without a key', async () => {
    for (const url of ['/v1/workspace/keys/', '/v1/files/', '/v1/credits/', '/v1/jobs/job_doesnotexist0000000000/', '/v1/matching/jobs/']) {
      for (const who of [null, t.main]) {
        for (const method of ['GET', 'POST', 'DELETE'] as const) {
          const res = await call(t, who, { method, url });
          assert.equal(res.statusCode, 404, `${method} ${url} (${who ? 'key' : 'no key'}): ${res.body}`);
          assert.equal(json<ErrorJson>(res).error.code, 'NOT_FOUND');
          assert.equal(res.headers.allow, undefined);
        }
      }
    }
  });

  it('still answers 405 with Allow for a known path and a method it does not take', async () => {
    const res = await call(t, null, { method: 'PUT', url: '/v1/workspace/keys' });
    assert.equal(res.statusCode, 405, res.body);
    assert.equal(json<ErrorJson>(res).error.code, 'METHOD_NOT_ALLOWED');
    assert.match(String(res.headers.allow), /POST/);
  });
});
