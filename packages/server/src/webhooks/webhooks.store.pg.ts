// Webhook delivery on PostgreSQL (see webhooks.store.ts for the rules). A claim is one UPDATE
// guarded by the due-and-unleased condition, so of several dispatcher processes exactly one
// takes an attempt; its log row is written in the same transaction.
import type { PgDb, PgExec } from '../store/pg.ts';
import { nowIso } from '../ids.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import type { AttemptOutcome } from './deliver.ts';
import {
  afterAttempt, resultOf, toAttempt, toClaimed, toRecord,
  type AttemptResult, type AttemptRow, type ClaimedDelivery, type DeliveryListQuery, type DeliveryRecord, type DeliveryRow,
  type DeliveryStatus, type RetrySchedule, type WebhookStore,
} from './webhooks.store.ts';

const SELECT_DELIVERY = 'SELECT d.*, e.type AS event_type FROM webhook_deliveries d JOIN events e ON e.id = d.event_id';

export class PgWebhookStore implements WebhookStore {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  async dueCandidates(now: number, excludeUrls: readonly string[], limit: number): Promise<{ id: string; url: string }[]> {
    return this.db.all<{ id: string; url: string }>(
      `SELECT id, url FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_expires_at IS NULL OR lease_expires_at <= $1)
       AND url <> ALL($2::text[]) ORDER BY next_attempt_at, seq LIMIT $3`,
      now, excludeUrls, limit,
    );
  }

  async nextDueAt(now: number): Promise<number | null> {
    const r = await this.db.get<{ at: number | null }>(
      "SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending' AND (lease_expires_at IS NULL OR lease_expires_at <= $1)",
      now,
    );
    return r?.at ?? null;
  }

  async claim(id: string, owner: string, now: number, leaseMs: number): Promise<ClaimedDelivery | null> {
    return (await this.claimMany([id], owner, now, leaseMs))[0] ?? null;
  }

  async claimMany(ids: readonly string[], owner: string, now: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return [];
    return this.db.transaction(async (tx) => {
      const out: ClaimedDelivery[] = [];
      for (const id of ids) {
        const claimed = await this.claimOne(tx, id, owner, now, leaseMs);
        if (claimed) out.push(claimed);
      }
      return out;
    });
  }

  private async claimOne(tx: PgExec, id: string, owner: string, now: number, leaseMs: number): Promise<ClaimedDelivery | null> {
    const r = await tx.get<DeliveryRow>(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, lease_owner = $1, lease_expires_at = $2,
       first_attempt_at = COALESCE(first_attempt_at, $3), updated_at = $4
       WHERE id = $5 AND status = 'pending' AND next_attempt_at <= $3 AND (lease_expires_at IS NULL OR lease_expires_at <= $3) RETURNING *`,
      owner, now + leaseMs, now, nowIso(now), id,
    );
    if (!r) return null;
    const body = (await tx.get<{ body: string }>('SELECT body FROM events WHERE id = $1', r.event_id))?.body;
    if (body === undefined) throw new Error(`delivery ${id} has no event ${r.event_id}`);
    await tx.run(
      "UPDATE delivery_attempts SET outcome = 'interrupted', error = 'interrupted: the process stopped during the attempt' WHERE delivery_id = $1 AND outcome = 'in_flight'",
      id,
    );
    await tx.run(
      "INSERT INTO delivery_attempts (delivery_id, attempt, at, status_code, duration_ms, error, outcome) VALUES ($1, $2, $3, NULL, 0, NULL, 'in_flight')",
      id, r.attempts, nowIso(now),
    );
    return toClaimed(r, body, now);
  }

  async record(claim: ClaimedDelivery, owner: string, outcome: AttemptOutcome, schedule: RetrySchedule, now: number): Promise<DeliveryStatus | null> {
    return this.db.transaction(async (tx) => {
      await tx.run(
        'UPDATE delivery_attempts SET status_code = $1, duration_ms = $2, error = $3, outcome = $4 WHERE delivery_id = $5 AND attempt = $6',
        outcome.statusCode, outcome.durationMs, outcome.error, resultOf(outcome), claim.id, claim.attempt,
      );
      const r = await tx.get<DeliveryRow>(
        "SELECT * FROM webhook_deliveries WHERE id = $1 AND lease_owner = $2 AND attempts = $3 AND status = 'pending' FOR UPDATE",
        claim.id, owner, claim.attempt,
      );
      if (!r) return null;
      const { status, next, single } = afterAttempt(r, outcome, schedule, now);
      await tx.run(
        `UPDATE webhook_deliveries SET status = $1, next_attempt_at = $2, lease_owner = NULL, lease_expires_at = NULL,
         last_status_code = $3, last_error = $4, single_attempt = $5, redeliver_requested = 0, updated_at = $6 WHERE id = $7`,
        status, next, outcome.statusCode, outcome.error, single, nowIso(now), claim.id,
      );
      return status;
    });
  }

  async release(claim: ClaimedDelivery, owner: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        "UPDATE delivery_attempts SET outcome = 'interrupted', error = 'interrupted: the service stopped during the attempt' WHERE delivery_id = $1 AND attempt = $2 AND outcome = 'in_flight'",
        claim.id, claim.attempt,
      );
      await tx.run('UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2 AND attempts = $3', claim.id, owner, claim.attempt);
    });
  }

  async list(workspaceId: string, query: DeliveryListQuery): Promise<{ data: DeliveryRecord[]; nextCursor: string | null }> {
    const limit = query.limit ?? 20;
    const before = query.cursor ? decodeCursor(query.cursor) : Number.MAX_SAFE_INTEGER;
    const rows = await this.db.all<DeliveryRow>(
      `${SELECT_DELIVERY} WHERE d.workspace_id = $1 AND d.seq < $2 AND ($3::text IS NULL OR d.job_id = $3::text) AND ($4::text IS NULL OR d.status = $4::text)
       ORDER BY d.seq DESC LIMIT $5`,
      workspaceId, before, query.jobId ?? null, query.status ?? null, limit + 1,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(toRecord), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }

  async get(workspaceId: string, id: string): Promise<DeliveryRecord | null> {
    const r = await this.db.get<DeliveryRow>(`${SELECT_DELIVERY} WHERE d.id = $1 AND d.workspace_id = $2`, id, workspaceId);
    if (!r) return null;
    const attempts = await this.db.all<AttemptRow>('SELECT attempt, at, status_code, duration_ms, error, outcome FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt', id);
    return { ...toRecord(r), attempts: attempts.map(toAttempt) };
  }

  async redeliver(workspaceId: string, id: string, now: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const r = await tx.get<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = $1 AND workspace_id = $2 FOR UPDATE', id, workspaceId);
      if (!r) return false;
      const inFlight = r.status === 'pending' && r.lease_expires_at !== null && r.lease_expires_at > now;
      if (inFlight) {
        await tx.run('UPDATE webhook_deliveries SET redeliver_requested = 1, updated_at = $1 WHERE id = $2', nowIso(now), id);
      } else {
        await tx.run(
          `UPDATE webhook_deliveries SET single_attempt = CASE WHEN status = 'pending' THEN single_attempt ELSE 1 END,
           status = 'pending', next_attempt_at = $1, updated_at = $2 WHERE id = $3`,
          now, nowIso(now), id,
        );
      }
      return true;
    });
  }

  async attemptCounts(): Promise<{ outcome: AttemptResult; n: number }[]> {
    return this.db.all<{ outcome: AttemptResult; n: number }>('SELECT outcome, COUNT(*) AS n FROM delivery_attempts GROUP BY outcome');
  }

  async recentFirstAttemptLatencies(limit = 1000): Promise<number[]> {
    const rows = await this.db.all<{ created_at: string; first_attempt_at: number }>(
      'SELECT created_at, first_attempt_at FROM webhook_deliveries WHERE first_attempt_at IS NOT NULL ORDER BY seq DESC LIMIT $1',
      limit,
    );
    return rows.map((r) => Math.max(0, r.first_attempt_at - Date.parse(r.created_at)));
  }
}
