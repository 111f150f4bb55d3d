// The admin commands of decisions §3 (`runAdminCommand`), each run in a child process with
// DATA_DIR set, as `rapport workspace create` etc. run: their output, and their effect on the
// store, checked by opening the same DATA_DIR afterwards.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { composeService } from '../src/compose/compose.ts';
import { tempDir, type EmbeddedServices } from './helpers.ts';
import { storeDb } from '../src/compose/stores.ts';

const dataDir = tempDir('rapport-cli-');
const SCRIPT = path.join(import.meta.dirname, 'fixtures', 'admin-cli.ts');

function admin(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; json: Record<string, unknown> | null; stderr: string }> {
  const child = spawn(process.execPath, [SCRIPT, ...args], { env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        json = null;
      }
      resolve({ code, json, stderr });
    });
  });
}

async function withService<T>(fn: (s: EmbeddedServices) => Promise<T>): Promise<T> {
  const composed = await composeService(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { engine: null, logger: false });
  try {
    storeDb(composed.services.stores);
    return await fn(composed.services as EmbeddedServices);
  } finally {
    await composed.close();
  }
}

describe('admin commands', () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  let workspaceId = '';
  let keyId = '';
  let standardKey = '';

  it('workspace create NAME prints { workspaceId, apiKey, signingSecret }', async () => {
    const r = await admin(['workspace', 'create', 'Acme']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(r.json ?? {}).sort(), ['apiKey', 'signingSecret', 'workspaceId']);
    workspaceId = String(r.json?.workspaceId);
    assert.match(workspaceId, /^ws_[A-Za-z0-9]{20,}$/);
    assert.match(String(r.json?.apiKey), /^rk_[A-Za-z0-9]{32,}$/);
    assert.match(String(r.json?.signingSecret), /^whsec_.+/);
    await withService(async (s) => {
      const auth = await s.workspace.authenticate(String(r.json?.apiKey));
      assert.deepEqual([auth?.workspaceId, auth?.scope], [workspaceId, 'admin']);
      assert.equal((await s.workspace.signingSecrets(workspaceId)).current, r.json?.signingSecret);
      const stored = (await s.stores.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys WHERE hash = ?', String(r.json?.apiKey)))?.n;
      assert.equal(stored, 0, 'keys are stored hashed');
    });
  });

  it('key create makes a key of the asked scope', async () => {
    const r = await admin(['key', 'create', '--workspace', workspaceId, '--scope', 'standard', '--name', 'ci']);
    assert.equal(r.code, 0, r.stderr);
    keyId = String(r.json?.keyId);
    standardKey = String(r.json?.apiKey);
    assert.match(keyId, /^key_/);
    assert.equal(r.json?.scope, 'standard');
    await withService(async (s) => assert.equal((await s.workspace.authenticate(standardKey))?.scope, 'standard'));
    assert.equal((await admin(['key', 'create', '--workspace', workspaceId, '--scope', 'root'])).code, 2);
  });

  it('key revoke ends the key', async () => {
    const r = await admin(['key', 'revoke', '--workspace', workspaceId, keyId]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json?.keyId, keyId);
    assert.ok(r.json?.revokedAt);
    await withService(async (s) => assert.equal(await s.workspace.authenticate(standardKey), null));
    assert.equal((await admin(['key', 'revoke', '--workspace', workspaceId, 'key_doesnotexist000000000'])).code, 2);
  });

  it('secret rotate gives a new secret; the old one signs for 24 h more', async () => {
    const before = await withService((s) => s.workspace.signingSecrets(workspaceId));
    const r = await admin(['secret', 'rotate', '--workspace', workspaceId]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(String(r.json?.signingSecret), /^whsec_/);
    assert.notEqual(r.json?.signingSecret, before.current);
    const validUntil = Date.parse(String(r.json?.previousSecretValidUntil));
    assert.ok(Math.abs(validUntil - (Date.now() + 24 * 3600 * 1000)) < 60_000, 'about 24 h');
    const after = await withService((s) => s.workspace.signingSecrets(workspaceId));
    assert.deepEqual(after.secrets, [r.json?.signingSecret, before.current]);
  });

  it('credits grant adds to the balance', async () => {
    const r = await admin(['credits', 'grant', '--workspace', workspaceId, '250']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json, { workspaceId, granted: 250, balance: 1250 });
    const kinds = await withService(async (s) => s.stores.db.all<{ kind: string; amount: number }>('SELECT kind, amount FROM credit_transactions WHERE workspace_id = ? ORDER BY seq', workspaceId));
    assert.deepEqual(kinds.map((k) => [k.kind, k.amount]), [['grant', 1000], ['grant', 250]]);
  });

  it("workspace limits sets the workspace's requests per minute by class, and --reset returns it to the configuration", async () => {
    const set = await admin(['workspace', 'limits', '--workspace', workspaceId, '--upload', '3', '--job-status', '500']);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(set.json?.overrides, { upload: 3, jobStatus: 500 });
    assert.equal((set.json?.limits as Record<string, number>).upload, 3);
    assert.equal((set.json?.limits as Record<string, number>).files, 30, 'the other classes keep the configured limits');
    const more = await admin(['workspace', 'limits', '--workspace', workspaceId, '--files', '7']);
    assert.deepEqual(more.json?.overrides, { upload: 3, jobStatus: 500, files: 7 }, 'a later call adds to them');
    assert.deepEqual(await withService((s) => s.stores.workspaces.getRateLimits(workspaceId)), { upload: 3, jobStatus: 500, files: 7 });
    assert.equal((await admin(['workspace', 'limits', '--workspace', workspaceId, '--upload', '0'])).code, 2);
    const reset = await admin(['workspace', 'limits', '--workspace', workspaceId, '--reset']);
    assert.deepEqual(reset.json?.overrides, {});
    assert.equal(await withService((s) => s.stores.workspaces.getRateLimits(workspaceId)), null);
  });

  it('workspace limits sets the workspace\'s key and storage quotas; the operator\'s key create is not held to them', async () => {
    const set = await admin(['workspace', 'limits', '--workspace', workspaceId, '--api-keys', '2', '--media-bytes', '5000']);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(set.json?.quotaOverrides, { apiKeys: 2, mediaBytes: 5000 });
    assert.deepEqual(set.json?.quotas, { apiKeys: 2, mediaBytes: 5000 });
    assert.equal((set.json?.usage as { apiKeys: number }).apiKeys >= 1, true);
    assert.deepEqual(await withService((s) => s.stores.workspaces.getQuotas(workspaceId)), { apiKeys: 2, mediaBytes: 5000 });
    for (let i = 0; i < 3; i++) assert.equal((await admin(['key', 'create', '--workspace', workspaceId])).code, 0, 'the operator may go past the quota');
    assert.equal((await admin(['workspace', 'limits', '--workspace', workspaceId, '--api-keys', '0'])).code, 2);
    assert.equal((await admin(['workspace', 'limits', '--workspace', workspaceId, '--media-bytes', 'x'])).code, 2);
    const reset = await admin(['workspace', 'limits', '--workspace', workspaceId, '--reset']);
    assert.deepEqual(reset.json?.quotaOverrides, {});
    assert.deepEqual(reset.json?.quotas, { apiKeys: 20, mediaBytes: 50 * 1024 ** 3 }, 'the configuration\'s defaults');
  });

  it('refuses bad usage (2), unknown workspaces (2) and bad configuration (78)', async () => {
    const [noName, unknown, noWorkspace, badAmount, badConfig] = await Promise.all([
      admin(['workspace', 'create']),
      admin(['frobnicate']),
      admin(['secret', 'rotate', '--workspace', 'ws_doesnotexist0000000000']),
      admin(['credits', 'grant', '--workspace', workspaceId, '1.5']),
      admin(['workspace', 'create', 'x'], { LOG_LEVEL: 'loud', PORT: 'x' }),
    ]);
    assert.deepEqual([noName.code, unknown.code, noWorkspace.code, badAmount.code], [2, 2, 2, 2]);
    assert.equal(badConfig.code, 78);
    assert.match(badConfig.stderr, /LOG_LEVEL/);
    assert.match(badConfig.stderr, /PORT/);
  });

  it('answers an unknown command without opening the store', async () => {
    const fresh = tempDir('rapport-cli-unknown-');
    try {
      const r = await admin(['frobnicate'], { DATA_DIR: fresh });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Admin commands/);
      assert.deepEqual(readdirSync(fresh), []);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
