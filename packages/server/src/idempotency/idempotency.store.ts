// Idempotency keys (decisions §5): scoped to workspace and route, kept 24 h. A key is taken
// (`in_flight`) before the work starts and completed with the response in the same transaction
// as the work itself (see JobStore.create), so a crash can never leave work done without its
// replayable answer. A key left in flight by a crashed request is taken over after a minute.
// Taking a key inserts it first: of two processes taking the same new key at once, exactly one
// inserts; the other reads the row, locked, and answers in_flight, replay or mismatch.
import { createHash } from 'node:crypto';
import type { Sql } from '../store/sql.ts';

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

export interface IdempotencyStore {
  /** Takes the key for a new request, or answers what the earlier request with it left. */
  take(scope: IdempotencyScope, hash: string, now?: number): Promise<TakeResult>;
  /** Records the answer of a request that did its work outside a store transaction. */
  complete(scope: IdempotencyScope, response: StoredResponse): Promise<void>;
  /** Forgets keys past their 24 h; answers how many were removed. */
  purgeExpired(now?: number): Promise<number>;
  /** Frees the key when the request failed before doing any work, so a retry may run it. */
  release(scope: IdempotencyScope): Promise<void>;
}

/** A key to complete inside the transaction that does the work (see JobStore.create). */
export interface KeyCompletion {
  scope: IdempotencyScope;
  response: StoredResponse;
}

/** What a stored key row turns into for a request that finds it. */
export function takeOutcome(
  row: { request_hash: string; state: string; status_code: number | null; response_json: string | null; created_at: number } | undefined,
  hash: string,
  now: number,
): TakeResult | 'take' {
  const expired = row && now - row.created_at > IDEMPOTENCY_TTL_MS;
  const abandoned = row && row.state === 'in_flight' && now - row.created_at > ABANDONED_AFTER_MS;
  if (!row || expired || abandoned) return 'take';
  if (row.request_hash !== hash) return { state: 'mismatch' };
  if (row.state === 'in_flight') return { state: 'in_flight' };
  const stored = JSON.parse(row.response_json ?? 'null') as { body: unknown; headers: Record<string, string> };
  return { state: 'replay', response: { statusCode: row.status_code ?? 200, body: stored.body, headers: stored.headers } };
}

export function completionParams(c: KeyCompletion): [number, string, string, string, string] {
  return [c.response.statusCode, JSON.stringify({ body: c.response.body, headers: c.response.headers }), c.scope.workspaceId, c.scope.route, c.scope.key];
}

/** Completes a key inside the caller's transaction. */
export async function completeKey(tx: Sql, c: KeyCompletion): Promise<void> {
  await tx.run("UPDATE idempotency_keys SET state = 'done', status_code = ?, response_json = ? WHERE workspace_id = ? AND route = ? AND key = ?", ...completionParams(c));
}

export class SqlIdempotencyStore implements IdempotencyStore {
  private readonly db: Sql;
  constructor(db: Sql) {
    this.db = db;
  }

  async take(scope: IdempotencyScope, hash: string, now: number = Date.now()): Promise<TakeResult> {
    return this.db.transaction(async (tx): Promise<TakeResult> => {
      const inserted = await tx.run(
        `INSERT INTO idempotency_keys (workspace_id, route, key, request_hash, state, created_at) VALUES (?, ?, ?, ?, 'in_flight', ?)
         ON CONFLICT (workspace_id, route, key) DO NOTHING`,
        scope.workspaceId, scope.route, scope.key, hash, now,
      );
      if (inserted === 1) return { state: 'new' };
      const row = await tx.get<{ request_hash: string; state: string; status_code: number | null; response_json: string | null; created_at: number }>(
        `SELECT * FROM idempotency_keys WHERE workspace_id = ? AND route = ? AND key = ?${tx.dialect.forUpdate}`,
        scope.workspaceId, scope.route, scope.key,
      );
      const outcome = takeOutcome(row, hash, now);
      if (outcome !== 'take') return outcome;
      await tx.run(
        `INSERT INTO idempotency_keys (workspace_id, route, key, request_hash, state, created_at) VALUES (?, ?, ?, ?, 'in_flight', ?)
         ON CONFLICT (workspace_id, route, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'in_flight',
         status_code = NULL, response_json = NULL, created_at = excluded.created_at`,
        scope.workspaceId, scope.route, scope.key, hash, now,
      );
      return { state: 'new' };
    });
  }

  async complete(scope: IdempotencyScope, response: StoredResponse): Promise<void> {
    await completeKey(this.db, { scope, response });
  }

  async purgeExpired(now: number = Date.now()): Promise<number> {
    return this.db.run('DELETE FROM idempotency_keys WHERE created_at < ?', now - IDEMPOTENCY_TTL_MS);
  }

  async release(scope: IdempotencyScope): Promise<void> {
    await this.db.run("DELETE FROM idempotency_keys WHERE workspace_id = ? AND route = ? AND key = ? AND state = 'in_flight'", scope.workspaceId, scope.route, scope.key);
  }
}

