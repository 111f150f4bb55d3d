// /v1/workspace*: admin keys only (403 for standard keys), keys shown once and stored hashed,
// revocation, and signing-secret reveal and rotation.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, json, type ErrorJson, type Tenant, type TestApp } from '../../test/helpers.ts';
import { fileUpload } from '../files/files.fixtures.testkit.ts';

interface Key { id: string; scope: 'admin' | 'standard'; name: string | null; hint: string; createdAt: string; revokedAt: string | null; apiKey?: string }
interface Secret { signingSecret: string; previousSigningSecret: string | null; previousExpiresAt: string | null }

describe('workspace administration', () => {
  let t: TestApp;
  let standard: Tenant;
  before(async () => {
    t = await buildTestApp();
    const res = await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload: { scope: 'standard', name: 'app' } });
    standard = { ...t.main, apiKey: json<Key>(res).apiKey ?? '' };
  });
  after(async () => t.close());

  it('GET /v1/workspace answers the workspace of the key', async () => {
    const res = await call(t, t.main, { method: 'GET', url: '/v1/workspace' });
    assert.equal(res.statusCode, 200);
    const ws = json<{ id: string; name: string; createdAt: string }>(res);
    assert.equal(ws.id, t.main.workspaceId);
    assert.equal(ws.name, 'default');
  });

  it('GET /v1/workspace shows the quotas in force and what the workspace holds against them', async () => {
    type Figures = { apiKeys: number; mediaBytes: number };
    const get = async () => json<{ quotas: Figures; usage: Figures }>(await call(t, t.main, { method: 'GET', url: '/v1/workspace' }));
    const before = await get();
    // The configuration's defaults (MAX_API_KEYS 20, MEDIA_QUOTA_BYTES 50 GiB); the admin key and `app`.
    assert.deepEqual(before.quotas, { apiKeys: 20, mediaBytes: 50 * 1024 ** 3 });
    assert.deepEqual(before.usage, { apiKeys: 2, mediaBytes: 0 });
    const upload = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload('WEBVTT\n\n00:00.000 --> 00:01.000\n<v Ann>Hello\n', 'talk.vtt') });
    assert.equal(upload.statusCode, 201, upload.body);
    await t.services.stores.workspaces.setQuotas(t.main.workspaceId, { apiKeys: 5 });
    const after = await get();
    assert.deepEqual(after.quotas, { apiKeys: 5, mediaBytes: 50 * 1024 ** 3 });
    assert.equal(after.usage.apiKeys, 2);
    assert.ok(after.usage.mediaBytes > 0, 'the transcript counts against the media quota');
  });

  it('403 FORBIDDEN for a standard key on every /v1/workspace route; the key works elsewhere', async () => {
    const routes: [string, string][] = [
      ['GET', '/v1/workspace'],
      ['GET', '/v1/workspace/keys'],
      ['POST', '/v1/workspace/keys'],
      ['DELETE', '/v1/workspace/keys/key_abc'],
      ['GET', '/v1/workspace/signing-secret'],
      ['POST', '/v1/workspace/signing-secret/rotate'],
    ];
    for (const [method, url] of routes) {
      const res = await call(t, standard, { method: method as 'GET', url, ...(method === 'POST' ? { payload: {} } : {}) });
      assert.equal(res.statusCode, 403, `${method} ${url}`);
      assert.equal(json<ErrorJson>(res).error.code, 'FORBIDDEN');
      assert.equal((await call(t, null, { method: method as 'GET', url })).statusCode, 401, `${method} ${url} without key`);
    }
    assert.equal((await call(t, standard, { method: 'GET', url: '/v1/credits' })).statusCode, 200);
  });

  it('creates keys (standard by default) shown once; lists them with hints only; the new key authenticates', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys' });
    assert.equal(res.statusCode, 201, res.body);
    const k = json<Key>(res);
    assert.equal(k.scope, 'standard');
    assert.equal(k.name, null);
    assert.match(k.apiKey ?? '', /^rk_[A-Za-z0-9]{32,}$/);
    assert.match(k.id, /^key_/);
    const list = json<{ data: Key[]; nextCursor: string | null }>(await call(t, t.main, { method: 'GET', url: '/v1/workspace/keys' }));
    assert.equal(list.data[0]?.id, k.id);
    assert.ok(list.data.every((x) => !('apiKey' in x)));
    assert.ok(!JSON.stringify(list).includes(k.apiKey ?? '-'));
    const stored = (await t.sql.all<{ hash: string }>('SELECT hash FROM api_keys'));
    assert.ok(stored.every((r) => r.hash !== k.apiKey));
    assert.equal((await call(t, { ...t.main, apiKey: k.apiKey ?? '' }, { method: 'GET', url: '/v1/files' })).statusCode, 200);
    const admin = json<Key>(await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload: { scope: 'admin', name: 'ops' } }));
    assert.equal((await call(t, { ...t.main, apiKey: admin.apiKey ?? '' }, { method: 'GET', url: '/v1/workspace' })).statusCode, 200);
  });

  it('pages the key list and validates create bodies', async () => {
    const page = json<{ data: Key[]; nextCursor: string | null }>(await call(t, t.main, { method: 'GET', url: '/v1/workspace/keys?limit=1' }));
    assert.equal(page.data.length, 1);
    assert.ok(page.nextCursor);
    const next = json<{ data: Key[] }>(await call(t, t.main, { method: 'GET', url: `/v1/workspace/keys?limit=1&cursor=${page.nextCursor}` }));
    assert.notEqual(next.data[0]?.id, page.data[0]?.id);
    for (const [payload, pointer] of [[{ scope: 'root' }, '/scope'], [{ name: '' }, '/name'], [{ name: 'x'.repeat(65) }, '/name'], [{ other: 1 }, '/other']] as const) {
      const res = await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload });
      assert.equal(res.statusCode, 400);
      assert.ok(json<ErrorJson>(res).error.details?.some((d) => d.path === pointer));
    }
  });

  it('revokes a key: 204, it stops authenticating, listed with revokedAt; unknown and foreign keys are 404', async () => {
    const k = json<Key>(await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload: { name: 'temp' } }));
    const del = await call(t, t.main, { method: 'DELETE', url: `/v1/workspace/keys/${k.id}` });
    assert.equal(del.statusCode, 204);
    assert.equal((await call(t, { ...t.main, apiKey: k.apiKey ?? '' }, { method: 'GET', url: '/v1/files' })).statusCode, 401);
    const listed = json<{ data: Key[] }>(await call(t, t.main, { method: 'GET', url: '/v1/workspace/keys?limit=100' })).data.find((x) => x.id === k.id);
    assert.ok(listed?.revokedAt);
    assert.equal((await call(t, t.main, { method: 'DELETE', url: '/v1/workspace/keys/key_doesnotexist00000000000' })).statusCode, 404);
    const foreign = json<{ data: Key[] }>(await call(t, t.other, { method: 'GET', url: '/v1/workspace/keys' })).data[0];
    assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/workspace/keys/${foreign?.id}` })).statusCode, 404);
  });

  it('409 when revoking the last live admin key', async () => {
    const keys = json<{ data: Key[] }>(await call(t, t.other, { method: 'GET', url: '/v1/workspace/keys' })).data;
    assert.equal(keys.length, 1);
    const res = await call(t, t.other, { method: 'DELETE', url: `/v1/workspace/keys/${keys[0]?.id}` });
    assert.equal(res.statusCode, 409);
    assert.equal(json<ErrorJson>(res).error.code, 'CONFLICT');
  });

  it('reveals the signing secret and rotates it; the old one stays in its grace period', async () => {
    const s = json<Secret>(await call(t, t.main, { method: 'GET', url: '/v1/workspace/signing-secret' }));
    assert.deepEqual(s, { signingSecret: t.main.signingSecret, previousSigningSecret: null, previousExpiresAt: null });
    const rotated = await call(t, t.main, { method: 'POST', url: '/v1/workspace/signing-secret/rotate' });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const r = json<Secret>(rotated);
    assert.match(r.signingSecret, /^whsec_/);
    assert.notEqual(r.signingSecret, t.main.signingSecret);
    assert.equal(r.previousSigningSecret, t.main.signingSecret);
    const hours = (Date.parse(r.previousExpiresAt ?? '') - Date.now()) / 3_600_000;
    assert.ok(hours > 23.9 && hours <= 24, String(hours));
    assert.deepEqual(json<Secret>(await call(t, t.main, { method: 'GET', url: '/v1/workspace/signing-secret' })), r);
    const other = json<Secret>(await call(t, t.other, { method: 'GET', url: '/v1/workspace/signing-secret' }));
    assert.equal(other.signingSecret, t.other.signingSecret);
  });

  it('every administration route is in the OpenAPI document', async () => {
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(await call(t, null, { method: 'GET', url: '/v1/openapi.json' }));
    for (const [p, m] of [['/v1/workspace', 'get'], ['/v1/workspace/keys', 'get'], ['/v1/workspace/keys', 'post'], ['/v1/workspace/keys/{keyId}', 'delete'], ['/v1/workspace/signing-secret', 'get'], ['/v1/workspace/signing-secret/rotate', 'post'], ['/v1/entities/merge', 'post'], ['/v1/credits/transactions', 'get'], ['/v1/feedback', 'post']] as const) {
      assert.ok(doc.paths[p]?.[m], `${m} ${p}`);
    }
  });
});
