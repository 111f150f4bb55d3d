// Workspaces, their API keys (stored as SHA-256 hashes: a key is shown once, at creation) and
// their webhook signing secrets.
import { createHash } from 'node:crypto';
import type { Sql } from '../store/sql.ts';
import { newId, nowIso, randomToken } from '../ids.ts';
import { grantCredits } from '../credits/credits.ledger.ts';
import type { RateLimitConfig } from '../config.ts';
import { parseQuotas, quotasJson, QuotaExceeded, type QuotaOverrides, type QuotaUsage } from './quotas.ts';

/** The rate-limit classes an operator set for one workspace (the others follow the configuration). */
export type RateLimitOverrides = Partial<RateLimitConfig>;

/** A key that authenticated, with its workspace's rate-limit overrides. */
export type AuthenticatedKey = ApiKeyRecord & { rateLimits: RateLimitOverrides | null; liveKeys: number };

export type KeyScope = 'admin' | 'standard';

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  scope: KeyScope;
  name: string | null;
  hint: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface WorkspaceRecord {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface SigningSecrets {
  /** Newest first: the current one, then each rotated-out secret still in its own 24 h grace period (at most two). */
  secrets: string[];
  current: string;
  previousExpiresAt: string | null;
}

/** Grace period during which a rotated-out secret still signs (decisions §3). */
export const SECRET_GRACE_MS = 24 * 3600 * 1000;

export function hashKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export function generateApiKey(): string {
  return `rk_${randomToken(40)}`;
}

export function generateSigningSecret(): string {
  return `whsec_${randomToken(40)}`;
}

export interface WorkspaceStore {
  anyWorkspace(): Promise<WorkspaceRecord | null>;
  createWorkspace(input: { name: string; apiKey: string; signingSecret: string; initialCredits: number }): Promise<{ workspace: WorkspaceRecord; key: ApiKeyRecord }>;
  getWorkspace(id: string): Promise<WorkspaceRecord | null>;
  authenticate(apiKey: string): Promise<AuthenticatedKey | null>;
  /** A new key; with `maxActive`, refused (QuotaExceeded, nothing written) when the workspace already holds that many active keys. */
  createKey(workspaceId: string, input: { apiKey: string; scope: KeyScope; name: string | null }, maxActive?: number): Promise<ApiKeyRecord>;
  /**
   * At start, the key named by SERVICE_API_KEY: created as an admin key of the workspace if
   * unknown; a revoked one stays revoked and one of another workspace is left there ('elsewhere'),
   * since a restart never undoes an operator's change (decisions §3).
   */
  ensureKey(workspaceId: string, apiKey: string): Promise<'created' | 'live' | 'revoked' | 'elsewhere'>;
  /** Whether `secret` is or ever was the workspace's signing secret (since secrets were recorded). */
  wasSigningSecret(workspaceId: string, secret: string): Promise<boolean>;
  listKeys(workspaceId: string): Promise<ApiKeyRecord[]>;
  revokeKey(workspaceId: string, keyId: string): Promise<ApiKeyRecord | null>;
  /**
   * Revokes the key unless it is the workspace's last live admin key ('last_admin'), checked and
   * done atomically: two revokes at once cannot remove the last two (issue 32, finding 15).
   */
  revokeUnlessLastAdmin(workspaceId: string, keyId: string): Promise<ApiKeyRecord | null | 'last_admin'>;
  getSigningSecrets(workspaceId: string, now?: number): Promise<SigningSecrets>;
  setSigningSecret(workspaceId: string, secret: string): Promise<void>;
  /** Throws RotationTooSoon while two rotated-out secrets are in their grace (unless `force`). */
  rotateSigningSecret(workspaceId: string, newSecret: string, now?: number, force?: boolean): Promise<SigningSecrets>;
  getRateLimits(workspaceId: string): Promise<RateLimitOverrides | null>;
  /** Replaces the workspace's overrides; null (or an empty object) returns it to the configuration's limits. */
  setRateLimits(workspaceId: string, limits: RateLimitOverrides | null): Promise<void>;
  getQuotas(workspaceId: string): Promise<QuotaOverrides | null>;
  /** Replaces the workspace's quota overrides; null (or an empty object) returns it to the configuration's. */
  setQuotas(workspaceId: string, quotas: QuotaOverrides | null): Promise<void>;
  /** Active keys and stored media bytes of the workspace. */
  usage(workspaceId: string): Promise<QuotaUsage>;
}

export function rateLimitsJson(limits: RateLimitOverrides | null): string | null {
  return limits && Object.keys(limits).length > 0 ? JSON.stringify(limits) : null;
}

export function parseRateLimits(json: string | null | undefined): RateLimitOverrides | null {
  return json ? (JSON.parse(json) as RateLimitOverrides) : null;
}

export interface KeyRow {
  id: string;
  workspace_id: string;
  scope: KeyScope;
  name: string | null;
  hint: string;
  created_at: string;
  revoked_at: string | null;
}

export const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  scope: r.scope,
  name: r.name,
  hint: r.hint,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export interface WsRow {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_at: number | null;
  /** The secret rotated out before the previous one, while its own grace lasts (issue 32, finding 14). */
  older_signing_secret: string | null;
  older_secret_expires_at: number | null;
}

/** Rotated-out secrets of a row still in their grace period, newest first. */
function graced(r: WsRow, now: number): { secret: string; expiresAt: number }[] {
  return [
    { secret: r.previous_signing_secret, expiresAt: r.previous_secret_expires_at ?? 0 },
    { secret: r.older_signing_secret ?? null, expiresAt: r.older_secret_expires_at ?? 0 },
  ].filter((g): g is { secret: string; expiresAt: number } => g.secret !== null && g.expiresAt > now);
}

/** Thrown when a rotation would end a rotated-out secret's grace early: two are still in theirs. */
export class RotationTooSoon extends Error {
  readonly until: number;
  constructor(until: number) {
    super(`two rotated-out signing secrets are still in their grace period, the older until ${new Date(until).toISOString()}`);
    this.name = 'RotationTooSoon';
    this.until = until;
  }
}

/**
 * The columns after rotating to `newSecret` at `now`: the current secret is graced 24 h from now,
 * the one graced before keeps its own end; at most three secrets are valid at once, so while two
 * are graced RotationTooSoon is thrown. `force` (an operator's SIGNING_SECRET at start) ends the
 * older grace instead. Before, a second rotation ended the first one's grace at once.
 */
export function rotatedColumns(r: WsRow, newSecret: string, now: number, force = false): [string, string, number, string | null, number | null] {
  const live = graced(r, now);
  if (live.length >= 2 && !force) throw new RotationTooSoon(Math.min(...live.map((g) => g.expiresAt)));
  const keep = live[0] ?? null;
  return [newSecret, r.signing_secret, now + SECRET_GRACE_MS, keep?.secret ?? null, keep?.expiresAt ?? null];
}

export const toWorkspace = (r: WsRow): WorkspaceRecord => ({ id: r.id, name: r.name, createdAt: r.created_at, updatedAt: r.updated_at });

export function signingSecretsOf(workspaceId: string, r: WsRow | undefined, now: number): SigningSecrets {
  if (!r) throw new Error(`workspace ${workspaceId} does not exist`);
  const live = graced(r, now);
  return {
    current: r.signing_secret,
    secrets: [r.signing_secret, ...live.map((g) => g.secret)],
    previousExpiresAt: live[0] ? new Date(live[0].expiresAt).toISOString() : null,
  };
}

/** What is shown of a key: its first 7 and last 4 characters. */
export function keyHint(apiKey: string): string {
  return `${apiKey.slice(0, 7)}…${apiKey.slice(-4)}`;
}

export class SqlWorkspaceStore implements WorkspaceStore {
  private readonly db: Sql;
  constructor(db: Sql) {
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
      await tx.run('INSERT INTO workspaces (id, name, signing_secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', id, input.name, input.signingSecret, now, now);
      if (input.initialCredits > 0) await grantCredits(tx, id, input.initialCredits);
      const key = await insertKey(tx, id, input.apiKey, 'admin', 'bootstrap');
      return { workspace: { id, name: input.name, createdAt: now, updatedAt: now }, key };
    });
  }

  async getWorkspace(id: string): Promise<WorkspaceRecord | null> {
    const r = await this.db.get<WsRow>('SELECT * FROM workspaces WHERE id = ?', id);
    return r ? toWorkspace(r) : null;
  }

  async authenticate(apiKey: string): Promise<AuthenticatedKey | null> {
    const r = await this.db.get<KeyRow & { rate_limits_json: string | null; live_keys: number }>(
      `SELECT k.*, w.rate_limits_json,
         (SELECT COUNT(*) FROM api_keys l WHERE l.workspace_id = k.workspace_id AND l.revoked_at IS NULL) AS live_keys
       FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.hash = ? AND k.revoked_at IS NULL`,
      hashKey(apiKey),
    );
    return r ? { ...toKey(r), rateLimits: parseRateLimits(r.rate_limits_json), liveKeys: Number(r.live_keys) } : null;
  }

  async getRateLimits(workspaceId: string): Promise<RateLimitOverrides | null> {
    return parseRateLimits((await this.db.get<{ j: string | null }>('SELECT rate_limits_json AS j FROM workspaces WHERE id = ?', workspaceId))?.j);
  }

  async setRateLimits(workspaceId: string, limits: RateLimitOverrides | null): Promise<void> {
    await this.db.run('UPDATE workspaces SET rate_limits_json = ?, updated_at = ? WHERE id = ?', rateLimitsJson(limits), nowIso(), workspaceId);
  }

  async createKey(workspaceId: string, input: { apiKey: string; scope: KeyScope; name: string | null }, maxActive?: number): Promise<ApiKeyRecord> {
    if (maxActive === undefined) return insertKey(this.db, workspaceId, input.apiKey, input.scope, input.name);
    return this.db.transaction(async (tx) => {
      // The workspace row's lock makes creations of one workspace count one after the other, so
      // that two at once cannot both take the last place.
      await tx.get(`SELECT id FROM workspaces WHERE id = ?${tx.dialect.forUpdate}`, workspaceId);
      const active = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = ? AND revoked_at IS NULL', workspaceId))?.n ?? 0;
      if (active >= maxActive) throw new QuotaExceeded('apiKeys', maxActive, active);
      return insertKey(tx, workspaceId, input.apiKey, input.scope, input.name);
    });
  }

  async getQuotas(workspaceId: string): Promise<QuotaOverrides | null> {
    return parseQuotas((await this.db.get<{ j: string | null }>('SELECT quotas_json AS j FROM workspaces WHERE id = ?', workspaceId))?.j);
  }

  async setQuotas(workspaceId: string, quotas: QuotaOverrides | null): Promise<void> {
    await this.db.run('UPDATE workspaces SET quotas_json = ?, updated_at = ? WHERE id = ?', quotasJson(quotas), nowIso(), workspaceId);
  }

  async usage(workspaceId: string): Promise<QuotaUsage> {
    const r = await this.db.get<{ keys: number; bytes: number }>(
      'SELECT (SELECT COUNT(*) FROM api_keys WHERE workspace_id = w.id AND revoked_at IS NULL) AS keys, w.media_bytes AS bytes FROM workspaces w WHERE w.id = ?',
      workspaceId,
    );
    return { apiKeys: Number(r?.keys ?? 0), mediaBytes: Number(r?.bytes ?? 0) };
  }

  async ensureKey(workspaceId: string, apiKey: string): Promise<'created' | 'live' | 'revoked' | 'elsewhere'> {
    // Two processes starting with the same SERVICE_API_KEY: the unique hash lets one insert.
    const inserted = await this.db.run(
      `INSERT INTO api_keys (id, workspace_id, hash, hint, name, scope, created_at) VALUES (?, ?, ?, ?, 'SERVICE_API_KEY', 'admin', ?)
       ON CONFLICT (hash) DO NOTHING`,
      newId('key'), workspaceId, hashKey(apiKey), keyHint(apiKey), nowIso(),
    );
    if (inserted === 1) return 'created';
    const existing = await this.db.get<KeyRow>('SELECT * FROM api_keys WHERE hash = ?', hashKey(apiKey));
    if (!existing || existing.workspace_id !== workspaceId) return 'elsewhere';
    return existing.revoked_at ? 'revoked' : 'live';
  }

  async wasSigningSecret(workspaceId: string, secret: string): Promise<boolean> {
    await this.rememberSecrets(workspaceId);
    return (await this.db.get('SELECT 1 AS x FROM signing_secret_history WHERE workspace_id = ? AND secret_hash = ?', workspaceId, hashKey(secret))) !== undefined;
  }

  private async rememberSecrets(workspaceId: string): Promise<void> {
    const r = await this.db.get<WsRow>('SELECT * FROM workspaces WHERE id = ?', workspaceId);
    for (const secret of [r?.signing_secret, r?.previous_signing_secret, r?.older_signing_secret]) {
      if (secret) await this.db.run('INSERT INTO signing_secret_history (workspace_id, secret_hash) VALUES (?, ?) ON CONFLICT DO NOTHING', workspaceId, hashKey(secret));
    }
  }

  async listKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
    return (await this.db.all<KeyRow>('SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at DESC, id', workspaceId)).map(toKey);
  }

  async revokeUnlessLastAdmin(workspaceId: string, keyId: string): Promise<ApiKeyRecord | null | 'last_admin'> {
    return this.db.transaction(async (tx) => {
      // The workspace row's lock orders key changes of one workspace (as createKey does): two
      // revokes at once count the live admin keys one after the other.
      await tx.get(`SELECT id FROM workspaces WHERE id = ?${tx.dialect.forUpdate}`, workspaceId);
      const key = await tx.get<KeyRow>('SELECT * FROM api_keys WHERE id = ? AND workspace_id = ?', keyId, workspaceId);
      if (!key) return null;
      if (key.revoked_at === null && key.scope === 'admin') {
        const admins = (await tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = ? AND scope = 'admin' AND revoked_at IS NULL", workspaceId))?.n ?? 0;
        if (admins <= 1) return 'last_admin';
      }
      const r = await tx.get<KeyRow>('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? RETURNING *', nowIso(), keyId);
      return r ? toKey(r) : null;
    });
  }

  async revokeKey(workspaceId: string, keyId: string): Promise<ApiKeyRecord | null> {
    const r = await this.db.get<KeyRow>(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND workspace_id = ? RETURNING *',
      nowIso(), keyId, workspaceId,
    );
    return r ? toKey(r) : null;
  }

  async getSigningSecrets(workspaceId: string, now: number = Date.now()): Promise<SigningSecrets> {
    return signingSecretsOf(workspaceId, await this.db.get<WsRow>('SELECT * FROM workspaces WHERE id = ?', workspaceId), now);
  }

  async setSigningSecret(workspaceId: string, secret: string): Promise<void> {
    await this.db.run('UPDATE workspaces SET signing_secret = ?, updated_at = ? WHERE id = ?', secret, nowIso(), workspaceId);
    await this.rememberSecrets(workspaceId);
  }

  async rotateSigningSecret(workspaceId: string, newSecret: string, now: number = Date.now(), force = false): Promise<SigningSecrets> {
    await this.db.transaction(async (tx) => {
      // The row's lock: two rotations at once each keep the other's grace.
      const r = await tx.get<WsRow>(`SELECT * FROM workspaces WHERE id = ?${tx.dialect.forUpdate}`, workspaceId);
      if (!r) throw new Error(`workspace ${workspaceId} does not exist`);
      await tx.run(
        `UPDATE workspaces SET signing_secret = ?, previous_signing_secret = ?, previous_secret_expires_at = ?,
         older_signing_secret = ?, older_secret_expires_at = ?, updated_at = ? WHERE id = ?`,
        ...rotatedColumns(r, newSecret, now, force), nowIso(now), workspaceId,
      );
    });
    await this.rememberSecrets(workspaceId);
    return this.getSigningSecrets(workspaceId, now);
  }
}

async function insertKey(tx: Sql, workspaceId: string, apiKey: string, scope: KeyScope, name: string | null): Promise<ApiKeyRecord> {
  const row: KeyRow = { id: newId('key'), workspace_id: workspaceId, scope, name, hint: keyHint(apiKey), created_at: nowIso(), revoked_at: null };
  await tx.run(
    'INSERT INTO api_keys (id, workspace_id, hash, hint, name, scope, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    row.id, workspaceId, hashKey(apiKey), row.hint, name, scope, row.created_at,
  );
  return toKey(row);
}

