// Issue 32, finding 15 (verified, then fixed): the last-admin check of DELETE /v1/workspace/keys/:id
// read the keys, then revoked: two revokes at once of a workspace's two admin keys both saw two
// and both went through, leaving no admin key. The check and the revoke are now one transaction
// (on PostgreSQL under the workspace row's lock). Both backends (the API suite runs again on
// PostgreSQL).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, json, type TestApp } from './helpers.ts';

interface Key { id: string; scope: string; revokedAt: string | null; apiKey?: string }

describe('revoking admin keys at once', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000' });
  });
  after(() => t.close());

  it('never revokes the last live admin keys, however many revokes race', async () => {
    for (let round = 0; round < 5; round++) {
      // Three live admin keys: the one that asks and two new ones; the three revokes race.
      const made: Key[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload: { name: `race ${round}.${i}`, scope: 'admin' } });
        assert.equal(res.statusCode, 201, res.body);
        made.push(json<Key>(res));
      }
      // Read from the store: the key that asks may be the one revoked.
      const live = async () => (await t.services.workspace.listKeys(t.main.workspaceId)).filter((k) => k.scope === 'admin' && k.revokedAt === null);
      const admins = await live();
      assert.equal(admins.length, 3);
      const statuses = await Promise.all(admins.map((k) => call(t, t.main, { method: 'DELETE', url: `/v1/workspace/keys/${k.id}` }).then((r) => r.statusCode)));
      assert.deepEqual(statuses.sort(), [204, 204, 409], `round ${round}`);
      const left = await live();
      assert.equal(left.length, 1, 'one admin key is left');
      // The one left may be the key that asked or a new one: go on with it.
      const kept = made.find((k) => k.id === left[0]?.id);
      if (kept) t.main.apiKey = kept.apiKey as string;
    }
  });

  it('rotates the signing secret twice within 24 h keeping both rotated-out secrets, and refuses a third (issue 32, finding 14)', async () => {
    const first = await call(t, t.other, { method: 'POST', url: '/v1/workspace/signing-secret/rotate' });
    const second = await call(t, t.other, { method: 'POST', url: '/v1/workspace/signing-secret/rotate' });
    assert.deepEqual([first.statusCode, second.statusCode], [200, 200]);
    assert.equal((await t.services.workspace.signingSecrets(t.other.workspaceId)).secrets.length, 3, 'three sign at once');
    const third = await call(t, t.other, { method: 'POST', url: '/v1/workspace/signing-secret/rotate' });
    assert.equal(third.statusCode, 409, third.body);
    assert.equal(json<{ error: { code: string } }>(third).error.code, 'CONFLICT');
  });
});
