// Issue 41, findings 10 and 11: a known path with a trailing slash was answered 405 naming the
// methods of the path without it (an unknown path is 404, decisions §1); and routes that take no
// body refused `Content-Type: application/json` with an empty body (400 INVALID_JSON), which many
// clients send on every request. On both backends (the API suite runs again on PostgreSQL).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, json, type ErrorJson, type TestApp } from './helpers.ts';

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

  it('takes Content-Type: application/json with an empty body as no body on routes that take none', async () => {
    const media = await insertMedia(t.services, t.main.workspaceId);
    const entity = await insertEntity(t.services, t.main.workspaceId);
    const tagged = await call(t, t.main, { method: 'POST', url: `/v1/entities/${entity}/tags`, payload: { tags: ['vip'] } });
    assert.equal(tagged.statusCode, 200, tagged.body);
    const emptyJson = { 'content-type': 'application/json' };
    const cases: [string, 'POST' | 'DELETE', string, number][] = [
      ['delete a file', 'DELETE', `/v1/files/${media.id}`, 204],
      ['untag an entity', 'DELETE', `/v1/entities/${entity}/tags/vip`, 200],
      ['cancel a job', 'POST', '/v1/jobs/job_doesnotexist0000000000/cancel', 404],
      ['redeliver a delivery', 'POST', '/v1/webhooks/deliveries/dlv_doesnotexist0000000000/redeliver', 404],
      ['revoke a key', 'DELETE', '/v1/workspace/keys/key_doesnotexist0000000000', 404],
    ];
    for (const [what, method, url, status] of cases) {
      const res = await call(t, t.main, { method, url, headers: emptyJson, payload: '' });
      assert.equal(res.statusCode, status, `${what}: ${res.body}`);
    }
    // A route whose body is optional takes an empty one as none too (`{}`: keep the hints).
    const other = await insertMedia(t.services, t.main.workspaceId);
    const reanalyze = await call(t, t.main, { method: 'POST', url: `/v1/files/${other.id}/reanalyze`, headers: emptyJson, payload: '' });
    assert.notEqual(json<ErrorJson>(reanalyze).error?.code, 'INVALID_JSON', reanalyze.body);
  });

  it('still refuses an empty or broken JSON body on routes that need one, and a poisoned prototype', async () => {
    const emptyJson = { 'content-type': 'application/json' };
    for (const payload of ['', '{', '{"__proto__": {"x": 1}}']) {
      const res = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', headers: emptyJson, payload });
      assert.equal(res.statusCode, 400, `${payload}: ${res.body}`);
    }
    const empty = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', headers: emptyJson, payload: '' });
    assert.equal(json<ErrorJson>(empty).error.code, 'INVALID_JSON');
  });
});
