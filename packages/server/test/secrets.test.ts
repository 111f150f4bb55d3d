// Findings 6 and 7 of issue 20: a restart never undoes an operator's change to the bootstrap
// credentials (decisions §3), and no secret is kept in the idempotency table for a replay.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, json, testSecret, type ErrorJson, type TestApp } from './helpers.ts';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(async () => t.close());

const bootstrapAgain = (env: { serviceApiKey?: string | null; signingSecret?: string | null }) =>
  t.services.workspace.bootstrap({ serviceApiKey: env.serviceApiKey ?? null, signingSecret: env.signingSecret ?? null });

describe('restarts and the bootstrap credentials', () => {
  it('a revoked SERVICE_API_KEY stays revoked after a restart, with a warning', async () => {
    const created = json<{ id: string; apiKey: string }>(await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload: { scope: 'admin', name: 'ops' } }));
    const keys = json<{ data: { id: string; name: string | null }[] }>(await call(t, t.main, { method: 'GET', url: '/v1/workspace/keys' }));
    const bootKey = keys.data.find((k) => k.name === 'bootstrap');
    assert.ok(bootKey);
    const ops = { ...t.main, apiKey: created.apiKey };
    assert.equal((await call(t, ops, { method: 'DELETE', url: `/v1/workspace/keys/${bootKey.id}` })).statusCode, 204);
    const boot = await bootstrapAgain({ serviceApiKey: t.main.apiKey });
    assert.match(boot.warnings.join(' '), /revoked/);
    const res = await call(t, t.main, { method: 'GET', url: '/v1/workspace' });
    assert.equal(res.statusCode, 401);
    t.main = ops; // the tests below act as the operator's new key
  });

  it('a rotated secret is not overwritten by SIGNING_SECRET at restart; a new SIGNING_SECRET is a rotation with grace', async () => {
    const original = t.main.signingSecret;
    const rotated = json<{ signingSecret: string }>(await call(t, t.main, { method: 'POST', url: '/v1/workspace/signing-secret/rotate' }));
    await bootstrapAgain({ signingSecret: original });
    const after1 = await t.services.stores.workspaces.getSigningSecrets(t.main.workspaceId);
    assert.equal(after1.current, rotated.signingSecret, 'the rotated secret stays');
    const fresh = testSecret();
    await bootstrapAgain({ signingSecret: fresh });
    const after2 = await t.services.stores.workspaces.getSigningSecrets(t.main.workspaceId);
    assert.equal(after2.current, fresh);
    // Each rotated-out secret keeps its own 24 h (issue 32, finding 14): the original too.
    assert.deepEqual(after2.secrets, [fresh, rotated.signingSecret, original], 'the previous secrets keep signing');
    assert.ok(after2.previousExpiresAt);
    await bootstrapAgain({ signingSecret: fresh });
    assert.deepEqual((await t.services.stores.workspaces.getSigningSecrets(t.main.workspaceId)).secrets, [fresh, rotated.signingSecret, original], 'applying the same secret again changes nothing');
  });
});

describe('idempotency and secrets', () => {
  it('a key created with an Idempotency-Key is not stored for replay: the replay is a 409 without the key', async () => {
    const req = { method: 'POST' as const, url: '/v1/workspace/keys', payload: { name: 'ci' }, headers: { 'idempotency-key': 'create-ci-key' } };
    const first = await call(t, t.main, req);
    assert.equal(first.statusCode, 201);
    const { id, apiKey } = json<{ id: string; apiKey: string }>(first);
    const rows = (await t.sql.all<{ response_json: string | null }>('SELECT response_json FROM idempotency_keys'));
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => !(r.response_json ?? '').includes(apiKey)), 'the plaintext key is not in the idempotency table');
    const replay = await call(t, t.main, req);
    assert.equal(replay.statusCode, 409);
    assert.equal(json<ErrorJson>(replay).error.code, 'CONFLICT');
    assert.match(replay.body, new RegExp(id));
    assert.ok(!replay.body.includes(apiKey));
  });

  it('a signing-secret rotation with an Idempotency-Key keeps no copy of the secret either', async () => {
    const req = { method: 'POST' as const, url: '/v1/workspace/signing-secret/rotate', headers: { 'idempotency-key': 'rotate-1' } };
    const first = json<{ signingSecret: string }>(await call(t, t.main, req));
    const rows = (await t.sql.all<{ response_json: string | null }>('SELECT response_json FROM idempotency_keys'));
    assert.ok(rows.every((r) => !(r.response_json ?? '').includes(first.signingSecret)));
    assert.equal((await call(t, t.main, req)).statusCode, 409);
  });
});
