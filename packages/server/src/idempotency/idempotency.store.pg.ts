// Idempotency keys on PostgreSQL (the embedded store's semantics, idempotency.store.ts). Taking a
// key inserts it first: of two processes taking the same new key at once, exactly one inserts;
// the other reads the row, locked, and answers in_flight, replay or mismatch.
import type { PgDb, PgExec } from '../store/pg.ts';
import { completionParams, IDEMPOTENCY_TTL_MS, takeOutcome, type IdempotencyScope, type IdempotencyStore, type KeyCompletion, type StoredResponse, type TakeResult } from './idempotency.store.ts';

/** Completes a key inside the caller's PostgreSQL transaction. */
export async function completeKeyPg(tx: PgExec, c: KeyCompletion): Promise<void> {
  await tx.run("UPDATE idempotency_keys SET state = 'done', status_code = $1, response_json = $2 WHERE workspace_id = $3 AND route = $4 AND key = $5", ...completionParams(c));
}

export class PgIdempotencyStore implements IdempotencyStore {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  async take(scope: IdempotencyScope, hash: string, now: number = Date.now()): Promise<TakeResult> {
    return this.db.transaction(async (tx): Promise<TakeResult> => {
      const inserted = await tx.run(
        `INSERT INTO idempotency_keys (workspace_id, route, key, request_hash, state, created_at) VALUES ($1, $2, $3, $4, 'in_flight', $5)
         ON CONFLICT (workspace_id, route, key) DO NOTHING`,
        scope.workspaceId, scope.route, scope.key, hash, now,
      );
      if (inserted === 1) return { state: 'new' };
      const row = await tx.get<{ request_hash: string; state: string; status_code: number | null; response_json: string | null; created_at: number }>(
        'SELECT * FROM idempotency_keys WHERE workspace_id = $1 AND route = $2 AND key = $3 FOR UPDATE',
        scope.workspaceId, scope.route, scope.key,
      );
      const outcome = takeOutcome(row, hash, now);
      if (outcome !== 'take') return outcome;
      await tx.run(
        `INSERT INTO idempotency_keys (workspace_id, route, key, request_hash, state, created_at) VALUES ($1, $2, $3, $4, 'in_flight', $5)
         ON CONFLICT (workspace_id, route, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'in_flight',
         status_code = NULL, response_json = NULL, created_at = excluded.created_at`,
        scope.workspaceId, scope.route, scope.key, hash, now,
      );
      return { state: 'new' };
    });
  }

  async complete(scope: IdempotencyScope, response: StoredResponse): Promise<void> {
    await completeKeyPg(this.db, { scope, response });
  }

  async purgeExpired(now: number = Date.now()): Promise<number> {
    return this.db.run('DELETE FROM idempotency_keys WHERE created_at < $1', now - IDEMPOTENCY_TTL_MS);
  }

  async release(scope: IdempotencyScope): Promise<void> {
    await this.db.run("DELETE FROM idempotency_keys WHERE workspace_id = $1 AND route = $2 AND key = $3 AND state = 'in_flight'", scope.workspaceId, scope.route, scope.key);
  }
}
