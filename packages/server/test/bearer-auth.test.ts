// Issue 33 item 13 (decisions §3): `Authorization: Bearer <key>` is accepted beside
// `Service-Api-Key`; both present with different keys is 401; the OpenAPI document says so.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, json, type ErrorJson, type TestApp } from './helpers.ts';

describe('Authorization: Bearer', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  const credits = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/v1/credits', headers });

  it('a key sent as Authorization: Bearer works like Service-Api-Key', async () => {
    const res = await credits({ authorization: `Bearer ${t.main.apiKey}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(typeof json<{ balance: number }>(res).balance, 'number');
    assert.equal((await credits({ authorization: `bearer  ${t.main.apiKey}` })).statusCode, 200, 'the scheme is case-insensitive');
    assert.equal((await credits({ authorization: `Bearer ${t.main.apiKey}`, 'service-api-key': t.main.apiKey })).statusCode, 200, 'both, the same key');
    // Admin routes see the key's scope as with the other header.
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/workspace', headers: { authorization: `Bearer ${t.main.apiKey}` } })).statusCode, 200);
  });

  it('an unknown bearer key, another scheme, or two different keys: 401 UNAUTHENTICATED with the error body', async () => {
    for (const headers of [{ authorization: 'Bearer rk_unknownunknownunknownunknownunknown' }, { authorization: `Basic ${t.main.apiKey}` }]) {
      const res = await credits(headers);
      assert.equal(res.statusCode, 401, JSON.stringify(headers));
      assert.equal(json<ErrorJson>(res).error.code, 'UNAUTHENTICATED');
    }
    const both = await credits({ authorization: `Bearer ${t.other.apiKey}`, 'service-api-key': t.main.apiKey });
    assert.equal(both.statusCode, 401);
    assert.match(json<ErrorJson>(both).error.message, /different keys/);
  });

  it('the OpenAPI document offers both schemes', async () => {
    const doc = json<{ security: unknown[]; components: { securitySchemes: Record<string, { type: string; scheme?: string }> } }>(await t.app.inject({ method: 'GET', url: '/v1/openapi.json' }));
    assert.deepEqual(doc.components.securitySchemes.bearer, { ...doc.components.securitySchemes.bearer, type: 'http', scheme: 'bearer' });
    assert.deepEqual(doc.security, [{ apiKey: [] }, { bearer: [] }]);
  });
});
