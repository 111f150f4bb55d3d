// Workspaces, API keys (SHA-256 hashes) and signing secrets on PostgreSQL (see workspace.store.ts).
import type { PgDb, PgExec } from '../store/pg.ts';
import { newId, nowIso } from '../ids.ts';
import { grantCreditsPg } from '../credits/credits.ledger.pg.ts';
import {
  rotatedColumns,
  hashKey, keyHint, parseRateLimits, rateLimitsJson, signingSecretsOf, toKey, toWorkspace,
  type ApiKeyRecord, type AuthenticatedKey, type KeyRow, type RateLimitOverrides, type KeyScope, type SigningSecrets, type WorkspaceRecord, type WorkspaceStore, type WsRow,
} from './workspace.store.ts';
import { parseQuotas, quotasJson, QuotaExceeded, type QuotaOverrides, type QuotaUsage } from './quotas.ts';

export class PgWorkspaceStore implements WorkspaceStore {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  async anyWorkspace(): Promise<WorkspaceRecord | null> {
    const r = await this.db.get<WsRow>('SELECT * FROM workspaces ORDER BY created_at, id LIMIT 1');
    return r ? toWorkspace(r) : null;
  }

  async createWorkspace(input: { name: string; apiKey: string; signingSecret: string; initialCredits: number }) {
    return this.db.transaction(async (tx) => {
      const id = newId('ws');
      const now = nowIso();
      await tx.run('INSERT INTO workspaces (id, name, signing_secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)', id, input.name, input.signingSecret, now, now);
      if (input.initialCredits > 0) await grantCreditsPg(tx, id, input.initialCredits);
      const key = await insertKey(tx, id, input.apiKey, 'admin', 'bootstrap');
      return { workspace: { id, name: input.name, createdAt: now, updatedAt: now }, key };
    });
  }

  async getWorkspace(id: string): Promise<WorkspaceRecord | null> {
    const r = await this.db.get<WsRow>('SELECT * FROM workspaces WHERE id = $1', id);
    return r ? toWorkspace(r) : null;
  }

  async authenticate(apiKey: string): Promise<AuthenticatedKey | null> {
    const r = await this.db.get<KeyRow & { rate_limits_json: string | null }>(
      'SELECT k.*, w.rate_limits_json FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.hash = $1 AND k.revoked_at IS NULL',
      hashKey(apiKey),
    );
    return r ? { ...toKey(r), rateLimits: parseRateLimits(r.rate_limits_json) } : null;
  }

  async getRateLimits(workspaceId: string): Promise<RateLimitOverrides | null> {
    return parseRateLimits((await this.db.get<{ j: string | null }>('SELECT rate_limits_json AS j FROM workspaces WHERE id = $1', workspaceId))?.j);
  }

  async setRateLimits(workspaceId: string, limits: RateLimitOverrides | null): Promise<void> {
    await this.db.run('UPDATE workspaces SET rate_limits_json = $1, updated_at = $2 WHERE id = $3', rateLimitsJson(limits), nowIso(), workspaceId);
  }

  async createKey(workspaceId: string, input: { apiKey: string; scope: KeyScope; name: string | null }, maxActive?: number): Promise<ApiKeyRecord> {
    if (maxActive === undefined) return insertKey(this.db, workspaceId, input.apiKey, input.scope, input.name);
    return this.db.transaction(async (tx) => {
      // The workspace row's lock makes creations of one workspace count one after the other, so
      // that two at once cannot both take the last place.
      await tx.get('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', workspaceId);
      const active = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = $1 AND revoked_at IS NULL', workspaceId))?.n ?? 0;
      if (active >= maxActive) throw new QuotaExceeded('apiKeys', maxActive, active);
      return insertKey(tx, workspaceId, input.apiKey, input.scope, input.name);
    });
  }

  async getQuotas(workspaceId: string): Promise<QuotaOverrides | null> {
    return parseQuotas((await this.db.get<{ j: string | null }>('SELECT quotas_json AS j FROM workspaces WHERE id = $1', workspaceId))?.j);
  }

  async setQuotas(workspaceId: string, quotas: QuotaOverrides | null): Promise<void> {
    await this.db.run('UPDATE workspaces SET quotas_json = $1, updated_at = $2 WHERE id = $3', quotasJson(quotas), nowIso(), workspaceId);
  }

  async usage(workspaceId: string): Promise<QuotaUsage> {
    const r = await this.db.get<{ keys: number; bytes: number }>(
      'SELECT (SELECT COUNT(*) FROM api_keys WHERE workspace_id = w.id AND revoked_at IS NULL) AS keys, w.media_bytes AS bytes FROM workspaces w WHERE w.id = $1',
      workspaceId,
    );
    return { apiKeys: Number(r?.keys ?? 0), mediaBytes: Number(r?.bytes ?? 0) };
  }

  async ensureKey(workspaceId: string, apiKey: string): Promise<'created' | 'live' | 'revoked' | 'elsewhere'> {
    // Two processes starting with the same SERVICE_API_KEY: the unique hash lets one insert.
    const inserted = await this.db.run(
      `INSERT INTO api_keys (id, workspace_id, hash, hint, name, scope, created_at) VALUES ($1, $2, $3, $4, 'SERVICE_API_KEY', 'admin', $5)
       ON CONFLICT (hash) DO NOTHING`,
      newId('key'), workspaceId, hashKey(apiKey), keyHint(apiKey), nowIso(),
    );
    if (inserted === 1) return 'created';
    const existing = await this.db.get<KeyRow>('SELECT * FROM api_keys WHERE hash = $1', hashKey(apiKey));
    if (!existing || existing.workspace_id !== workspaceId) return 'elsewhere';
    return existing.revoked_at ? 'revoked' : 'live';
  }

  async wasSigningSecret(workspaceId: string, secret: string): Promise<boolean> {
    await this.rememberSecrets(workspaceId);
    return (await this.db.get('SELECT 1 AS x FROM signing_secret_history WHERE workspace_id = $1 AND secret_hash = $2', workspaceId, hashKey(secret))) !== undefined;
  }

  private async rememberSecrets(workspaceId: string): Promise<void> {
    const r = await this.db.get<WsRow>('SELECT * FROM workspaces WHERE id = $1', workspaceId);
    for (const secret of [r?.signing_secret, r?.previous_signing_secret, r?.older_signing_secret]) {
      if (secret) await this.db.run('INSERT INTO signing_secret_history (workspace_id, secret_hash) VALUES ($1, $2) ON CONFLICT DO NOTHING', workspaceId, hashKey(secret));
    }
  }

  async listKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
    return (await this.db.all<KeyRow>('SELECT * FROM api_keys WHERE workspace_id = $1 ORDER BY created_at DESC, id', workspaceId)).map(toKey);
  }

  async revokeUnlessLastAdmin(workspaceId: string, keyId: string): Promise<ApiKeyRecord | null | 'last_admin'> {
    return this.db.transaction(async (tx) => {
      // The workspace row's lock orders key changes of one workspace (as createKey does): two
      // revokes at once count the live admin keys one after the other.
      await tx.get('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', workspaceId);
      const key = await tx.get<KeyRow>('SELECT * FROM api_keys WHERE id = $1 AND workspace_id = $2', keyId, workspaceId);
      if (!key) return null;
      if (key.revoked_at === null && key.scope === 'admin') {
        const admins = (await tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = $1 AND scope = 'admin' AND revoked_at IS NULL", workspaceId))?.n ?? 0;
        if (admins <= 1) return 'last_admin';
      }
      const r = await tx.get<KeyRow>('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING *', nowIso(), keyId);
      return r ? toKey(r) : null;
    });
  }

  async revokeKey(workspaceId: string, keyId: string): Promise<ApiKeyRecord | null> {
    const r = await this.db.get<KeyRow>(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 AND workspace_id = $3 RETURNING *',
      nowIso(), keyId, workspaceId,
    );
    return r ? toKey(r) : null;
  }

  async getSigningSecrets(workspaceId: string, now: number = Date.now()): Promise<SigningSecrets> {
    return signingSecretsOf(workspaceId, await this.db.get<WsRow>('SELECT * FROM workspaces WHERE id = $1', workspaceId), now);
  }

  async setSigningSecret(workspaceId: string, secret: string): Promise<void> {
    await this.db.run('UPDATE workspaces SET signing_secret = $1, updated_at = $2 WHERE id = $3', secret, nowIso(), workspaceId);
    await this.rememberSecrets(workspaceId);
  }

  async rotateSigningSecret(workspaceId: string, newSecret: string, now: number = Date.now(), force = false): Promise<SigningSecrets> {
    await this.db.transaction(async (tx) => {
      // The row's lock: two rotations at once each keep the other's grace.
      const r = await tx.get<WsRow>('SELECT * FROM workspaces WHERE id = $1 FOR UPDATE', workspaceId);
      if (!r) throw new Error(`workspace ${workspaceId} does not exist`);
      await tx.run(
        `UPDATE workspaces SET signing_secret = $1, previous_signing_secret = $2, previous_secret_expires_at = $3,
         older_signing_secret = $4, older_secret_expires_at = $5, updated_at = $6 WHERE id = $7`,
        ...rotatedColumns(r, newSecret, now, force), nowIso(now), workspaceId,
      );
    });
    await this.rememberSecrets(workspaceId);
    return this.getSigningSecrets(workspaceId, now);
  }
}

async function insertKey(tx: PgExec, workspaceId: string, apiKey: string, scope: KeyScope, name: string | null): Promise<ApiKeyRecord> {
  const row: KeyRow = { id: newId('key'), workspace_id: workspaceId, scope, name, hint: keyHint(apiKey), created_at: nowIso(), revoked_at: null };
  await tx.run(
    'INSERT INTO api_keys (id, workspace_id, hash, hint, name, scope, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    row.id, workspaceId, hashKey(apiKey), row.hint, name, scope, row.created_at,
  );
  return toKey(row);
}
