// Jobs and their event history on PostgreSQL, with the embedded store's transactions (see
// jobs.store.ts): a job's row, its credit reservation, its first event, its task and its
// idempotency answer in one transaction; its result, status, charge or release, event and
// outbox in another, which reads the job FOR UPDATE and writes only while it is queued or
// running, so that a job ends exactly once whichever process ends it.
//
// Event ids order a workspace's stream (GET /v1/events resumes after the last id seen). They are
// numbered per workspace (job_event_counters), so that they tell a tenant nothing of the others'
// volume; the counter row is updated in the event's transaction and its lock held until commit,
// so a workspace's events commit in id order (a reader that resumes after an id never skips one). Each event is also announced with
// NOTIFY in its transaction (delivered at commit), for every process's streams (job-event-bus.pg.ts).
// Creation is one statement, and creations of one turn of the event loop share a transaction;
// the other changes are a few statements in one transaction.
import type { PgDb, PgExec } from '../store/pg.ts';
import { newId, nowIso } from '../ids.ts';
import { dropTasksPg } from '../queue/queue.store.pg.ts';
import { chargeCreditsPg, releaseCreditsPg } from '../credits/credits.ledger.pg.ts';
import { InsufficientCredits } from '../credits/credits.ledger.ts';
import { completionParams } from '../idempotency/idempotency.store.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import type { JobError } from '../http/errors.ts';
import type { Job, JobListQuery, JobStage } from './jobs.schemas.ts';
import {
  ESTIMATE_REFRESH_MS, toJob,
  EVENT_COLUMNS, toEvent,
  type CreateInput, type EventRow, type JobEvent, type JobEventName, type JobRow, type JobStore, type ResultToStore, type StoredJob,
} from './jobs.store.ts';
import { announcement, appendJobEvent } from '../events/job-event-bus.pg.ts';
import { writeOutboxPg, type OutboxEvent } from './outbox.ts';

export class PgJobStore implements JobStore {
  private readonly db: PgDb;
  private readonly onEvent: (workspaceId: string, event: JobEvent) => void;

  constructor(db: PgDb, onEvent: (workspaceId: string, event: JobEvent) => void) {
    this.db = db;
    this.onEvent = onEvent;
  }

  /** Appends the event for the job's current row (`r`, already counting it in event_seq); inside the caller's transaction. */
  private appendEvent(tx: PgExec, r: JobRow, event: JobEventName): Promise<JobEvent> {
    return appendJobEvent(tx, this.db, r.workspace_id, { jobId: r.id, seq: r.event_seq, event, job: toJob(r) });
  }

  private publish(workspaceId: string, event: JobEvent): void {
    try {
      this.onEvent(workspaceId, event);
    } catch {
      // Subscribers are best effort: the event is already durable in job_events.
    }
  }

  // Group commit, as on the embedded store: creations asked for during one turn of the event loop
  // are written in one transaction (one commit to wait for instead of one each), in workspace
  // order so that two batches lock workspaces in the same order. A batch that fails as a whole
  // is written again creation by creation, so that one bad creation fails alone.
  // Each creation's id is drawn once: written again after a commit whose outcome was lost, it
  // fails on its key instead of making a second job.
  private pendingCreates: { id: string; input: CreateInput; resolve: (job: Job) => void; reject: (err: unknown) => void }[] = [];

  async create(input: CreateInput): Promise<Job> {
    return new Promise<Job>((resolve, reject) => {
      this.pendingCreates.push({ id: newId('job'), input, resolve, reject });
      if (this.pendingCreates.length === 1) setImmediate(() => void this.flushCreates());
    });
  }

  private async flushCreates(): Promise<void> {
    const batch = this.pendingCreates.sort((x, y) => (x.input.workspaceId < y.input.workspaceId ? -1 : x.input.workspaceId > y.input.workspaceId ? 1 : 0));
    this.pendingCreates = [];
    let outcomes: ({ ok: true; event: JobEvent } | { ok: false; err: unknown })[] | null = null;
    if (batch.length > 1) {
      outcomes = await this.db.transaction(async (tx) => {
        const out: ({ ok: true; event: JobEvent } | { ok: false; err: unknown })[] = [];
        for (const p of batch) {
          const event = await this.insertJob(tx, p.id, p.input);
          out.push(event instanceof Error ? { ok: false, err: event } : { ok: true, event });
        }
        return out;
      }).catch(() => null);
    }
    for (const [i, p] of batch.entries()) {
      let outcome = outcomes?.[i];
      if (!outcome) {
        try {
          const event = await this.insertJob(this.db, p.id, p.input);
          outcome = event instanceof Error ? { ok: false, err: event } : { ok: true, event };
        } catch (err) {
          outcome = { ok: false, err };
        }
      }
      if (!outcome.ok) {
        p.reject(outcome.err);
        continue;
      }
      if (this.active) this.active.n++;
      this.publish(p.input.workspaceId, outcome.event);
      p.resolve(outcome.event.job);
    }
  }

  /**
   * One statement, so one round trip: the reservation (only while the workspace can pay: the row
   * is re-checked under its lock), its ledger line, the job, its task, its turn in the queue, the
   * idempotency answer, and the first event with its announcement. Nothing is written when the
   * workspace cannot pay: the answer is then the InsufficientCredits to throw.
   */
  private async insertJob(exec: PgExec, id: string, input: CreateInput): Promise<JobEvent | Error> {
    const createdAt = nowIso();
    const job = toJob({
      id, workspace_id: input.workspaceId, type: input.type, status: 'queued', stage: 'queued', progress: 0, label: input.label ?? null,
      request_json: '', created_at: createdAt, started_at: null, finished_at: null, result_id: null, error_json: null, cost: input.cost, event_seq: 1, seq: 0,
    });
    const completion = input.onCreated?.(job);
    const event = { jobId: id, seq: 1, event: 'job.updated' as const, job };
    const { before, after } = announcement(this.db, input.workspaceId, event);
    const row = await exec.get<{ id: number }>(
      `WITH w AS (
         UPDATE workspaces SET reserved = reserved + $2::bigint, updated_at = CASE WHEN $2::bigint > 0 THEN $3::text ELSE updated_at END
         WHERE id = $1::text AND ($2::bigint = 0 OR balance - reserved >= $2::bigint) RETURNING balance
       ), c AS (
         INSERT INTO credit_transactions (id, workspace_id, kind, amount, balance_after, job_id, created_at)
         SELECT $4::text, $1::text, 'reserve', $2::bigint, w.balance, $5::text, $3::text FROM w WHERE $2::bigint > 0
       ), j AS (
         INSERT INTO jobs (id, workspace_id, type, status, stage, progress, label, request_json, created_at, cost, event_seq)
         SELECT $5::text, $1::text, $6::text, 'queued', 'queued', 0, $7::text, $8::text, $3::text, $2::bigint, 1 FROM w RETURNING id
       ), t AS (
         INSERT INTO tasks (kind, ref_id, workspace_id, state, run_at, max_attempts) SELECT 'job.run', j.id, $1::text, 'ready', $9::bigint, 3 FROM j
       ), q AS (
         INSERT INTO queue_turns (workspace_id) SELECT $1::text FROM j ON CONFLICT (workspace_id) DO NOTHING
       ), k AS (
         UPDATE idempotency_keys SET state = 'done', status_code = $10::int, response_json = $11::text
         WHERE $12::text IS NOT NULL AND workspace_id = $1::text AND route = $12::text AND key = $13::text AND EXISTS (SELECT 1 FROM j)
       ), n AS (
         INSERT INTO job_event_counters (workspace_id, last_seq) SELECT $1::text, 1 FROM j
         ON CONFLICT (workspace_id) DO UPDATE SET last_seq = job_event_counters.last_seq + 1 RETURNING last_seq
       ), e AS (
         INSERT INTO job_events (job_id, workspace_id, seq, ws_seq, event, data_json, created_at)
         SELECT j.id, $1::text, 1, n.last_seq, 'job.updated', $14::text, $18::bigint FROM j, n
         RETURNING ws_seq
       )
       SELECT e.ws_seq AS id, pg_notify($15::text, $16::text || e.ws_seq::text || $17::text) FROM e`,
      input.workspaceId, input.cost, createdAt, newId('txn'), id, input.type, input.label ?? null, JSON.stringify(input.request), Date.now(),
      completion ? completion.response.statusCode : null, completion ? completionParams(completion)[1] : null,
      completion ? completion.scope.route : null, completion ? completion.scope.key : null,
      JSON.stringify(job), this.db.channel, before, after, Date.now(),
    );
    if (!row) {
      const ws = await exec.get<{ balance: number; reserved: number }>('SELECT balance, reserved FROM workspaces WHERE id = $1', input.workspaceId);
      return ws ? new InsufficientCredits(input.cost, ws.balance - ws.reserved) : new Error(`workspace ${input.workspaceId} does not exist`);
    }
    return { id: Number(row.id), ...event };
  }

  async get(workspaceId: string, id: string): Promise<Job | null> {
    const r = await this.db.get<JobRow>('SELECT * FROM jobs WHERE id = $1 AND workspace_id = $2', id, workspaceId);
    return r ? toJob(r) : null;
  }

  async load(id: string): Promise<StoredJob | null> {
    const r = await this.db.get<JobRow>('SELECT * FROM jobs WHERE id = $1', id);
    return r ? { job: toJob(r), workspaceId: r.workspace_id, request: JSON.parse(r.request_json), cost: r.cost } : null;
  }

  async list(workspaceId: string, query: JobListQuery): Promise<{ data: Job[]; nextCursor: string | null }> {
    const limit = query.limit ?? 20;
    const before = query.cursor ? decodeCursor(query.cursor) : Number.MAX_SAFE_INTEGER;
    const rows = await this.db.all<JobRow>(
      `SELECT * FROM jobs WHERE workspace_id = $1 AND seq < $2 AND ($3::text IS NULL OR type = $3::text) AND ($4::text IS NULL OR status = $4::text)
       ORDER BY seq DESC LIMIT $5`,
      workspaceId, before, query.type ?? null, query.status ?? null, limit + 1,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(toJob), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }

  /** One guarded UPDATE (RETURNING the row, event_seq counted) and its event, in one transaction. */
  private async change(sql: string, params: (string | number | null)[], event: JobEventName): Promise<Job | null> {
    const out = await this.db.transaction(async (tx) => {
      const r = await tx.get<JobRow>(sql, ...params);
      return r ? { workspaceId: r.workspace_id, event: await this.appendEvent(tx, r, event) } : null;
    });
    if (!out) return null;
    this.publish(out.workspaceId, out.event);
    return out.event.job;
  }

  async start(id: string): Promise<Job | null> {
    const changed = await this.change(
      `UPDATE jobs SET status = 'running', stage = 'preparing_media', started_at = COALESCE(started_at, $1), event_seq = event_seq + 1
       WHERE id = $2 AND status = 'queued' RETURNING *`,
      [nowIso(), id],
      'job.updated',
    );
    if (changed) return changed;
    const r = await this.db.get<JobRow>('SELECT * FROM jobs WHERE id = $1', id);
    return r && r.status === 'running' ? toJob(r) : null;
  }

  async progress(id: string, stage: JobStage, progress: number): Promise<Job | null> {
    return this.change(
      `UPDATE jobs SET stage = $1, progress = GREATEST(progress, $2), event_seq = event_seq + 1
       WHERE id = $3 AND status = 'running' AND (stage <> $1 OR progress < $2) RETURNING *`,
      [stage, progress, id],
      'job.updated',
    );
  }

  private async finish(id: string, outcome: { result?: ResultToStore; error?: JobError }, outbox: OutboxEvent): Promise<Job | null> {
    const now = nowIso();
    const out = await this.db.transaction(async (tx) => {
      const r = await tx.get<JobRow>('SELECT * FROM jobs WHERE id = $1 FOR UPDATE', id);
      if (!r || (r.status !== 'queued' && r.status !== 'running')) return null;
      let ended: JobRow | undefined;
      if (outcome.result) {
        const res = outcome.result;
        await tx.run(
          'INSERT INTO results (id, workspace_id, job_id, kind, payload_json, evidence_json, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          res.id, r.workspace_id, id, res.kind, res.payloadJson, res.evidenceJson, now,
        );
        ended = await tx.get<JobRow>(
          `UPDATE jobs SET status = 'succeeded', stage = 'done', progress = 1, result_id = $1, finished_at = $2, event_seq = event_seq + 1
           WHERE id = $3 RETURNING *`,
          res.id, now, id,
        );
        await chargeCreditsPg(tx, r.workspace_id, r.cost, { jobId: id });
      } else {
        ended = await tx.get<JobRow>(
          `UPDATE jobs SET status = 'failed', error_json = $1, finished_at = $2, started_at = COALESCE(started_at, $2), event_seq = event_seq + 1
           WHERE id = $3 RETURNING *`,
          JSON.stringify(outcome.error), now, id,
        );
        await releaseCreditsPg(tx, r.workspace_id, r.cost, { jobId: id });
      }
      await dropTasksPg(tx, 'job.run', id);
      await writeOutboxPg(tx, r.workspace_id, id, now, outbox);
      return { workspaceId: r.workspace_id, event: await this.appendEvent(tx, ended as JobRow, outcome.result ? 'job.succeeded' : 'job.failed') };
    });
    if (!out) return null;
    if (this.active && this.active.n > 0) this.active.n--;
    this.publish(out.workspaceId, out.event);
    return out.event.job;
  }

  async succeed(id: string, result: ResultToStore, outbox: OutboxEvent): Promise<Job | null> {
    return this.finish(id, { result }, outbox);
  }

  async fail(id: string, error: JobError, outbox: OutboxEvent): Promise<Job | null> {
    return this.finish(id, { error }, outbox);
  }

  async eventsAfter(jobId: string, afterSeq: number): Promise<JobEvent[]> {
    return (await this.db.all<EventRow>(`SELECT ${EVENT_COLUMNS} FROM job_events WHERE job_id = $1 AND seq > $2 ORDER BY seq`, jobId, afterSeq)).map(toEvent);
  }

  async workspaceEventsAfter(workspaceId: string, afterId: number, limit = 500): Promise<JobEvent[]> {
    return (await this.db.all<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM job_events WHERE workspace_id = $1 AND ws_seq > $2 ORDER BY ws_seq LIMIT $3`,
      workspaceId, afterId, limit,
    )).map(toEvent);
  }

  async latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT last_seq AS n FROM job_event_counters WHERE workspace_id = $1', workspaceId))?.n ?? 0;
  }

  async prunedWorkspaceEventId(workspaceId: string): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT pruned_through AS n FROM job_event_counters WHERE workspace_id = $1', workspaceId))?.n ?? 0;
  }

  // The estimate figures, re-read at most once a second as on the embedded store.
  private active: { at: number; n: number } | null = null;
  private duration: { at: number; sec: number | null } | null = null;

  async activeCount(): Promise<number> {
    const now = Date.now();
    if (!this.active || now - this.active.at >= ESTIMATE_REFRESH_MS) {
      const n = (await this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE kind = 'job.run'"))?.n ?? 0;
      this.active = { at: now, n };
    }
    return this.active.n;
  }

  async recentDurationSec(): Promise<number | null> {
    const now = Date.now();
    if (!this.duration || now - this.duration.at >= ESTIMATE_REFRESH_MS) {
      const r = await this.db.get<{ avg: number | null }>(
        `SELECT AVG(EXTRACT(EPOCH FROM (finished_at::timestamptz - started_at::timestamptz)))::float8 AS avg FROM
         (SELECT started_at, finished_at FROM jobs WHERE status = 'succeeded' AND started_at IS NOT NULL ORDER BY seq DESC LIMIT 50) j`,
      );
      this.duration = { at: now, sec: r?.avg ?? null };
    }
    return this.duration.sec;
  }
}
