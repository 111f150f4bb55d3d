// The authentication cache of WorkspaceService (issue 21): requests that find a key's entry
// expired while its lookup runs share that lookup, and a key revoked during a lookup is not
// remembered as valid.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteDatabase } from '../store/sqlite.ts';
import { AUTH_CACHE_MS, WorkspaceService } from './workspace.service.ts';
import { generateApiKey, generateSigningSecret, SqlWorkspaceStore } from './workspace.store.ts';

async function setUp() {
  const store = new SqlWorkspaceStore(await SqliteDatabase.open(':memory:'));
  const apiKey = generateApiKey();
  const { workspace, key } = await store.createWorkspace({ name: 'w', apiKey, signingSecret: generateSigningSecret(), initialCredits: 0 });
  let lookups = 0;
  let gate: Promise<void> = Promise.resolve();
  const authenticate = store.authenticate.bind(store);
  store.authenticate = async (k: string) => {
    lookups++;
    // Read at once, answered when the gate opens: a lookup that was in flight during a revoke.
    const read = await authenticate(k);
    await gate;
    return read;
  };
  const service = new WorkspaceService(store, 0, { maxApiKeys: 100, mediaQuotaBytes: 1e12 });
  return { service, apiKey, workspaceId: workspace.id, keyId: key.id, lookups: () => lookups, hold: (g: Promise<void>) => (gate = g) };
}

describe('authentication cache', () => {
  it('twenty requests arriving while a key is looked up share one lookup, and again once the entry expired', async () => {
    const s = await setUp();
    const now = Date.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => s.service.authenticate(s.apiKey, now)));
    assert.ok(answers.every((a) => a?.workspaceId === s.workspaceId));
    assert.equal(s.lookups(), 1);
    await s.service.authenticate(s.apiKey, now + AUTH_CACHE_MS - 1);
    assert.equal(s.lookups(), 1);
    await Promise.all(Array.from({ length: 20 }, () => s.service.authenticate(s.apiKey, now + AUTH_CACHE_MS)));
    assert.equal(s.lookups(), 2);
  });

  it('a key revoked here while its lookup was in flight is not remembered', async () => {
    const s = await setUp();
    let open = () => undefined as void;
    s.hold(new Promise<void>((r) => (open = r)));
    const inFlight = s.service.authenticate(s.apiKey);
    await new Promise((r) => setImmediate(r));
    await s.service.revokeKey(s.workspaceId, s.keyId);
    open();
    // The lookup read the key before the revoke; its caller may be let in, no later request is.
    await inFlight;
    s.hold(Promise.resolve());
    assert.equal(await s.service.authenticate(s.apiKey), null);
  });
});
