// Issue 32, finding 14 (verified, then fixed): rotating the signing secret twice within 24 h ended
// the first rotated-out secret's grace at once (one slot for a previous secret): a receiver still
// verifying with it saw its deliveries fail. Now every rotated-out secret keeps its own 24 h, at
// most three secrets sign at once, and a third rotation while two are graced is refused (an
// operator's SIGNING_SECRET at start forces it). One suite, two backends.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, newWorkspace, postgresMissing } from '../store-backends.ts';
import { generateSigningSecret, RotationTooSoon, SECRET_GRACE_MS } from '../../src/workspace/workspace.store.ts';

const pgSkip = await postgresMissing();
const HOUR = 3600 * 1000;

for (const backend of BACKENDS) {
  describe(`signing secret rotations (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    it('keep each rotated-out secret for its own 24 h, three at most', async () => {
      const t = await backend.open();
      try {
        const ws = await newWorkspace(t.stores);
        const w = t.stores.workspaces;
        const first = (await w.getSigningSecrets(ws)).current;
        const t0 = Date.now();
        const second = generateSigningSecret();
        await w.rotateSigningSecret(ws, second, t0);
        const third = generateSigningSecret();
        const rotated = await w.rotateSigningSecret(ws, third, t0 + 2 * HOUR);
        assert.deepEqual(rotated.secrets, [third, second, first], 'the first still signs after a second rotation');
        assert.equal(rotated.previousExpiresAt, new Date(t0 + 2 * HOUR + SECRET_GRACE_MS).toISOString());
        // The first ends 24 h after its own rotation, the second 24 h after its own.
        assert.deepEqual((await w.getSigningSecrets(ws, t0 + SECRET_GRACE_MS + HOUR)).secrets, [third, second]);
        assert.deepEqual((await w.getSigningSecrets(ws, t0 + 2 * HOUR + SECRET_GRACE_MS + 1)).secrets, [third]);
        // A third rotation while two are graced would end one early: refused, nothing changed.
        await assert.rejects(w.rotateSigningSecret(ws, generateSigningSecret(), t0 + 3 * HOUR), (err) => err instanceof RotationTooSoon && err.until === t0 + SECRET_GRACE_MS);
        assert.deepEqual((await w.getSigningSecrets(ws, t0 + 3 * HOUR)).secrets, [third, second, first]);
        // Once the first's grace is over there is room again; an operator's rotation forces it.
        const fourth = generateSigningSecret();
        assert.deepEqual((await w.rotateSigningSecret(ws, fourth, t0 + SECRET_GRACE_MS + HOUR)).secrets, [fourth, third, second]);
        const fifth = generateSigningSecret();
        assert.deepEqual((await w.rotateSigningSecret(ws, fifth, t0 + SECRET_GRACE_MS + 2 * HOUR, true)).secrets, [fifth, fourth, third]);
        for (const s of [first, second, third, fourth, fifth]) assert.equal(await w.wasSigningSecret(ws, s), true);
      } finally {
        await t.close();
      }
    });
  });
}
