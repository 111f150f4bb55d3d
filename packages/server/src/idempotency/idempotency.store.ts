// Idempotency keys (decisions §5): scoped to workspace and route, kept 24 h. A key is taken
// (`in_flight`) before the work starts and completed with the response in the same transaction
// as the work itself (see JobStore.create), so a crash can never leave work done without its
// replayable answer. A key left in flight by a crashed request is taken over after a minute.
import { createHash } from 'node:crypto';
import type { SqliteDb } from '../store/sqlite.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const ABANDONED_AFTER_MS = 60 * 1000;

export interface StoredResponse {
  statusCode: number;
  body: unknown;
  headers: Record<string, string>;
}

export type TakeResult =
  | { state: 'new' }
  | { state: 'replay'; response: StoredResponse }
  | { state: 'in_flight' }
  | { state: 'mismatch' };

export interface IdempotencyScope {
  workspaceId: string;
  route: string;
  key: string;
}

/**
 * The fingerprint of a request for "same key, same request": the body without its own
 * `idempotencyKey` field, so that a retry may carry the key in the header instead.
 */
export function requestHash(body: unknown): string {
  let material = body;
  if (material && typeof material === 'object' && !Array.isArray(material) && 'idempotencyKey' in material) {
    const { idempotencyKey: _key, ...rest } = material as Record<string, unknown>;
    material = rest;
  }
  return createHash('sha256').update(JSON.stringify(material ?? null)).digest('hex');
}

export class SqliteIdempotencyStore {
  private readonly db: SqliteDb;
  constructor(db: SqliteDb) {
    this.db = db;
  }

  take(scope: IdempotencyScope, hash: string, now: number = Date.now()): TakeResult {
    return this.db.transaction(() => {
      const row = this.db.get<{ request_hash: string; state: string; status_code: number | null; response_json: string | null; created_at: number }>(
        'SELECT * FROM idempotency_keys WHERE workspace_id = ? AND route = ? AND key = ?',
        scope.workspaceId, scope.route, scope.key,
      );
      const expired = row && now - row.created_at > IDEMPOTENCY_TTL_MS;
      const abandoned = row && row.state === 'in_flight' && now - row.created_at > ABANDONED_AFTER_MS;
      if (!row || expired || abandoned) {
        this.db.run(
          `INSERT INTO idempotency_keys (workspace_id, route, key, request_hash, state, created_at) VALUES (?, ?, ?, ?, 'in_flight', ?)
           ON CONFLICT (workspace_id, route, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'in_flight',
           status_code = NULL, response_json = NULL, created_at = excluded.created_at`,
          scope.workspaceId, scope.route, scope.key, hash, now,
        );
        return { state: 'new' } as const;
      }
      if (row.request_hash !== hash) return { state: 'mismatch' } as const;
      if (row.state === 'in_flight') return { state: 'in_flight' } as const;
      const stored = JSON.parse(row.response_json ?? 'null') as { body: unknown; headers: Record<string, string> };
      return { state: 'replay', response: { statusCode: row.status_code ?? 200, body: stored.body, headers: stored.headers } } as const;
    });
  }

  /** Records the answer; call inside the transaction that did the work. */
  complete(scope: IdempotencyScope, response: StoredResponse): void {
    this.db.run(
      "UPDATE idempotency_keys SET state = 'done', status_code = ?, response_json = ? WHERE workspace_id = ? AND route = ? AND key = ?",
      response.statusCode, JSON.stringify({ body: response.body, headers: response.headers }), scope.workspaceId, scope.route, scope.key,
    );
  }

  /** Forgets keys past their 24 h; answers how many were removed. */
  purgeExpired(now: number = Date.now()): number {
    return this.db.run('DELETE FROM idempotency_keys WHERE created_at < ?', now - IDEMPOTENCY_TTL_MS);
  }

  /** Frees the key when the request failed before doing any work, so a retry may run it. */
  release(scope: IdempotencyScope): void {
    this.db.run("DELETE FROM idempotency_keys WHERE workspace_id = ? AND route = ? AND key = ? AND state = 'in_flight'", scope.workspaceId, scope.route, scope.key);
  }
}
