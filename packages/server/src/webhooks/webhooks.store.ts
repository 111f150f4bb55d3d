// SQL of webhook delivery (decisions §8): the outbox rows written by jobs.store.ts are claimed
// here with a lease, every attempt is logged, and the next attempt or the final status is
// written back. Each multi-row change is one transaction, so a crash leaves either the state
// before an attempt was claimed or the state after it was recorded; an attempt whose outcome
// was never recorded stays `in_flight` in the log and its delivery is claimed again once the
// lease runs out (at least once).
// A claim is one UPDATE guarded by the due-and-unleased condition, so of several dispatcher
// processes exactly one takes an attempt; its log row is written in the same transaction.
import { jsonList, type Sql } from '../store/sql.ts';
import { nowIso } from '../ids.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import type { AttemptOutcome } from './deliver.ts';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
/** How an attempt ended; `in_flight` until recorded, `interrupted` when its process stopped. */
export type AttemptResult = 'succeeded' | 'failed' | 'refused' | 'gone' | 'in_flight' | 'interrupted';

/** A due delivery, not claimed yet. */
export interface DueCandidate {
  id: string;
  url: string;
  workspaceId: string;
  /** What its destination limit counts by (the URL's origin; the URL for rows written before it was kept). */
  destination: string;
}

/** Destinations and workspaces at their limits, whose deliveries a read of due ones leaves out. */
export interface DueExclusions {
  destinations: readonly string[];
  workspaces: readonly string[];
}

/** A delivery claimed for one attempt, with everything needed to send it. */
export interface ClaimedDelivery {
  id: string;
  workspaceId: string;
  eventId: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** This attempt's number (1 for the first). */
  attempt: number;
  /** Milliseconds from the delivery's creation (the job's terminal state) to this attempt; set on attempt 1 only. */
  firstAttemptLatencyMs: number | null;
}

export interface AttemptRecord {
  attempt: number;
  at: string;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  outcome: AttemptResult;
}

export interface DeliveryRecord {
  id: string;
  eventId: string;
  eventType: string;
  jobId: string;
  url: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  attempts?: AttemptRecord[];
}

export interface DeliveryListQuery {
  jobId?: string;
  status?: DeliveryStatus;
  limit?: number;
  cursor?: string;
}

/** Delay before the next attempt after `attemptsMade` attempts, or null when the schedule is over. */
export type RetrySchedule = (attemptsMade: number, retryAfterSec: number | null) => number | null;

export interface DeliveryRow {
  id: string;
  workspace_id: string;
  event_id: string;
  job_id: string;
  url: string;
  headers_json: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  lease_expires_at: number | null;
  lease_owner: string | null;
  last_status_code: number | null;
  last_error: string | null;
  first_attempt_at: number | null;
  single_attempt: number;
  redeliver_requested: number;
  created_at: string;
  updated_at: string;
  seq: number;
  event_type: string;
}

export interface AttemptRow {
  attempt: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  outcome: AttemptResult;
}

const SELECT_DELIVERY = 'SELECT d.*, e.type AS event_type FROM webhook_deliveries d JOIN events e ON e.id = d.event_id';
// Due and not held by a live lease; an expired lease means its process died mid-attempt.

export function toRecord(r: DeliveryRow): DeliveryRecord {
  return {
    id: r.id,
    eventId: r.event_id,
    eventType: r.event_type,
    jobId: r.job_id,
    url: r.url,
    status: r.status,
    attemptCount: r.attempts,
    nextAttemptAt: r.status === 'pending' && r.next_attempt_at !== null ? nowIso(r.next_attempt_at) : null,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function resultOf(o: AttemptOutcome): AttemptResult {
  if (o.ok) return 'succeeded';
  if (o.refused) return 'refused';
  if (o.gone) return 'gone';
  return 'failed';
}

export function toAttempt(a: AttemptRow): AttemptRecord {
  return {
    attempt: a.attempt,
    at: a.at,
    statusCode: a.status_code,
    durationMs: a.outcome === 'in_flight' || a.outcome === 'interrupted' ? null : a.duration_ms,
    error: a.error,
    outcome: a.outcome,
  };
}

/** What follows an attempt whose lease was still held (see WebhookStore.record). */
export function afterAttempt(r: DeliveryRow, outcome: AttemptOutcome, schedule: RetrySchedule, now: number): { status: DeliveryStatus; next: number | null; single: number } {
  let status: DeliveryStatus;
  let next: number | null = null;
  if (outcome.ok) status = 'succeeded';
  else if (outcome.gone || r.single_attempt === 1) status = 'failed';
  else {
    const delay = schedule(r.attempts, outcome.retryAfterSec);
    status = delay === null ? 'failed' : 'pending';
    if (delay !== null) next = now + delay;
  }
  let single = r.single_attempt;
  if (r.redeliver_requested === 1) {
    if (status !== 'pending') single = 1;
    status = 'pending';
    next = now;
  }
  return { status, next, single };
}

/** The claimed delivery handed to the dispatcher, from its row (attempts already counted) and event body. */
export function toClaimed(r: DeliveryRow, body: string, now: number): ClaimedDelivery {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    eventId: r.event_id,
    url: r.url,
    headers: JSON.parse(r.headers_json) as Record<string, string>,
    body,
    attempt: r.attempts,
    firstAttemptLatencyMs: r.attempts === 1 ? Math.max(0, now - Date.parse(r.created_at)) : null,
  };
}

export interface WebhookStore {
  /**
   * Due deliveries, taking turns between workspaces: the oldest due of each workspace, then the
   * second of each, and so on (at most `perWorkspace` of one), leaving out those to a destination
   * in `exclude.destinations` or of a workspace in `exclude.workspaces` (at their limits).
   */
  dueCandidates(now: number, exclude: DueExclusions, limit: number, perWorkspace: number): Promise<DueCandidate[]>;
  /** When the next delivery becomes due (ms), or null when none is pending without a live lease. */
  nextDueAt(now: number): Promise<number | null>;
  /** Takes one delivery for one attempt, or null when another process holds it or it is no longer due. */
  claim(id: string, owner: string, now: number, leaseMs: number): Promise<ClaimedDelivery | null>;
  /** `claim` for several deliveries in one transaction; returns those it could take, in order. */
  claimMany(ids: readonly string[], owner: string, now: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /** Logs the attempt's outcome and decides what follows; null when the lease had been lost. */
  record(claim: ClaimedDelivery, owner: string, outcome: AttemptOutcome, schedule: RetrySchedule, now: number): Promise<DeliveryStatus | null>;
  /** Gives a claimed delivery back without an outcome (the process is stopping). */
  release(claim: ClaimedDelivery, owner: string): Promise<void>;
  list(workspaceId: string, query: DeliveryListQuery): Promise<{ data: DeliveryRecord[]; nextCursor: string | null }>;
  /** One delivery with its whole attempt log, oldest attempt first. */
  get(workspaceId: string, id: string): Promise<DeliveryRecord | null>;
  /** Asks for one more attempt as soon as possible; false when there is no such delivery. */
  redeliver(workspaceId: string, id: string, now: number): Promise<boolean>;
  /** Attempts by outcome since the store began (monotonic: attempts are never deleted). */
  attemptCounts(): Promise<{ outcome: AttemptResult; n: number }[]>;
  /** Terminal-state-to-first-attempt latencies (ms) of the most recent deliveries. */
  recentFirstAttemptLatencies(limit?: number): Promise<number[]>;
}

export class SqlWebhookStore implements WebhookStore {
  private readonly db: Sql;
  constructor(db: Sql) {
    this.db = db;
  }

  async dueCandidates(now: number, exclude: DueExclusions, limit: number, perWorkspace: number): Promise<DueCandidate[]> {
    // Each workspace's due deliveries numbered by age; read by that number first, so that one
    // workspace's thousand due deliveries come after every other workspace's oldest (issue 41,
    // finding 1). The lists are one JSON parameter each: one statement text (finding 6).
    const rows = await this.db.all<{ id: string; url: string; workspace_id: string; destination: string }>(
      `SELECT id, url, workspace_id, destination FROM (
         SELECT id, url, workspace_id, COALESCE(destination, url) AS destination, next_attempt_at, seq,
           ROW_NUMBER() OVER (PARTITION BY workspace_id ORDER BY next_attempt_at, seq) AS turn
         FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
           AND NOT ${this.db.dialect.inJsonList('COALESCE(destination, url)')} AND NOT ${this.db.dialect.inJsonList('workspace_id')}
       ) due WHERE turn <= ? ORDER BY turn, next_attempt_at, seq LIMIT ?`,
      now, now, jsonList(exclude.destinations), jsonList(exclude.workspaces), perWorkspace, limit,
    );
    return rows.map((r) => ({ id: r.id, url: r.url, workspaceId: r.workspace_id, destination: r.destination }));
  }

  async nextDueAt(now: number): Promise<number | null> {
    const r = await this.db.get<{ at: number | null }>(
      "SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending' AND (lease_expires_at IS NULL OR lease_expires_at <= ?)",
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

  private async claimOne(tx: Sql, id: string, owner: string, now: number, leaseMs: number): Promise<ClaimedDelivery | null> {
    const r = await tx.get<DeliveryRow>(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, lease_owner = ?1, lease_expires_at = ?2,
       first_attempt_at = COALESCE(first_attempt_at, ?3), updated_at = ?4
       WHERE id = ?5 AND status = 'pending' AND next_attempt_at <= ?3 AND (lease_expires_at IS NULL OR lease_expires_at <= ?3) RETURNING *`,
      owner, now + leaseMs, now, nowIso(now), id,
    );
    if (!r) return null;
    const body = (await tx.get<{ body: string }>('SELECT body FROM events WHERE id = ?', r.event_id))?.body;
    if (body === undefined) throw new Error(`delivery ${id} has no event ${r.event_id}`);
    await tx.run(
      "UPDATE delivery_attempts SET outcome = 'interrupted', error = 'interrupted: the process stopped during the attempt' WHERE delivery_id = ? AND outcome = 'in_flight'",
      id,
    );
    await tx.run(
      "INSERT INTO delivery_attempts (delivery_id, attempt, at, status_code, duration_ms, error, outcome) VALUES (?, ?, ?, NULL, 0, NULL, 'in_flight')",
      id, r.attempts, nowIso(now),
    );
    return toClaimed(r, body, now);
  }

  async record(claim: ClaimedDelivery, owner: string, outcome: AttemptOutcome, schedule: RetrySchedule, now: number): Promise<DeliveryStatus | null> {
    return this.db.transaction(async (tx) => {
      await tx.run(
        'UPDATE delivery_attempts SET status_code = ?, duration_ms = ?, error = ?, outcome = ? WHERE delivery_id = ? AND attempt = ?',
        outcome.statusCode, outcome.durationMs, outcome.error, resultOf(outcome), claim.id, claim.attempt,
      );
      const r = await tx.get<DeliveryRow>(
        `SELECT * FROM webhook_deliveries WHERE id = ? AND lease_owner = ? AND attempts = ? AND status = 'pending'${tx.dialect.forUpdate}`,
        claim.id, owner, claim.attempt,
      );
      if (!r) return null;
      const { status, next, single } = afterAttempt(r, outcome, schedule, now);
      await tx.run(
        `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, lease_owner = NULL, lease_expires_at = NULL,
         last_status_code = ?, last_error = ?, single_attempt = ?, redeliver_requested = 0, updated_at = ? WHERE id = ?`,
        status, next, outcome.statusCode, outcome.error, single, nowIso(now), claim.id,
      );
      return status;
    });
  }

  async release(claim: ClaimedDelivery, owner: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        "UPDATE delivery_attempts SET outcome = 'interrupted', error = 'interrupted: the service stopped during the attempt' WHERE delivery_id = ? AND attempt = ? AND outcome = 'in_flight'",
        claim.id, claim.attempt,
      );
      await tx.run('UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND lease_owner = ? AND attempts = ?', claim.id, owner, claim.attempt);
    });
  }

  async list(workspaceId: string, query: DeliveryListQuery): Promise<{ data: DeliveryRecord[]; nextCursor: string | null }> {
    const limit = query.limit ?? 20;
    const before = query.cursor ? decodeCursor(query.cursor) : Number.MAX_SAFE_INTEGER;
    const rows = await this.db.all<DeliveryRow>(
      `${SELECT_DELIVERY} WHERE d.workspace_id = ?1 AND d.seq < ?2 AND (CAST(?3 AS TEXT) IS NULL OR d.job_id = CAST(?3 AS TEXT)) AND (CAST(?4 AS TEXT) IS NULL OR d.status = CAST(?4 AS TEXT))
       ORDER BY d.seq DESC LIMIT ?5`,
      workspaceId, before, query.jobId ?? null, query.status ?? null, limit + 1,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(toRecord), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }

  async get(workspaceId: string, id: string): Promise<DeliveryRecord | null> {
    const r = await this.db.get<DeliveryRow>(`${SELECT_DELIVERY} WHERE d.id = ? AND d.workspace_id = ?`, id, workspaceId);
    if (!r) return null;
    const attempts = await this.db.all<AttemptRow>('SELECT attempt, at, status_code, duration_ms, error, outcome FROM delivery_attempts WHERE delivery_id = ? ORDER BY attempt', id);
    return { ...toRecord(r), attempts: attempts.map(toAttempt) };
  }

  async redeliver(workspaceId: string, id: string, now: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const r = await tx.get<DeliveryRow>(`SELECT * FROM webhook_deliveries WHERE id = ? AND workspace_id = ?${tx.dialect.forUpdate}`, id, workspaceId);
      if (!r) return false;
      const inFlight = r.status === 'pending' && r.lease_expires_at !== null && r.lease_expires_at > now;
      if (inFlight) {
        await tx.run('UPDATE webhook_deliveries SET redeliver_requested = 1, updated_at = ? WHERE id = ?', nowIso(now), id);
      } else {
        await tx.run(
          `UPDATE webhook_deliveries SET single_attempt = CASE WHEN status = 'pending' THEN single_attempt ELSE 1 END,
           status = 'pending', next_attempt_at = ?, updated_at = ? WHERE id = ?`,
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
      'SELECT created_at, first_attempt_at FROM webhook_deliveries WHERE first_attempt_at IS NOT NULL ORDER BY seq DESC LIMIT ?',
      limit,
    );
    return rows.map((r) => Math.max(0, r.first_attempt_at - Date.parse(r.created_at)));
  }
}

