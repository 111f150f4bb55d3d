// Jobs and their event history on PostgreSQL, with the embedded store's transactions (see
// jobs.store.ts): a job's row, its credit reservation, its first event, its task and its
// idempotency answer in one transaction; its result, status, charge or release, event and
// outbox in another, which reads the job FOR UPDATE and writes only while it is queued or
// running, so that a job ends exactly once whichever process ends it.
//
// Event ids order a workspace's stream (GET /v1/events resumes after the last id seen). Ids
// come from a sequence, and a transaction that took a smaller id could commit after one that
// took a larger: a reader would skip it. So an event is written under a per-workspace
// transaction lock: a workspace's events commit in id order. Each event is also announced with
// NOTIFY in its transaction (delivered at commit), for every process's streams (job-event-bus.pg.ts).
// Creation is one statement per workspace for all the creations asked for while the previous
// batch was written (job-creation.pg.ts); the other changes are a few statements in one
// transaction.
import type { PgDb, PgExec } from '../store/pg.ts';
import { nowIso } from '../ids.ts';
import { dropTasksPg } from '../queue/queue.store.pg.ts';
import { chargeCreditsPg, releaseCreditsPg } from '../credits/credits.ledger.pg.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import type { JobError } from '../http/errors.ts';
import type { Job, JobListQuery, JobStage } from './jobs.schemas.ts';
import {
  ESTIMATE_REFRESH_MS, toJob,
  type CreateInput, type JobEvent, type JobEventName, type JobRow, type JobStore, type ResultToStore, type StoredJob,
} from './jobs.store.ts';
import { appendJobEvent } from '../events/job-event-bus.pg.ts';
import { PgJobCreator } from './job-creation.pg.ts';
import { writeOutboxPg, type OutboxEvent } from './outbox.ts';

interface EventRow {
  id: number;
  job_id: string;
  seq: number;
  event: JobEventName;
  data_json: string;
}

const toEvent = (e: EventRow): JobEvent => ({ id: e.id, jobId: e.job_id, seq: e.seq, event: e.event, job: JSON.parse(e.data_json) as Job });

export class PgJobStore implements JobStore {
  private readonly db: PgDb;
  private readonly onEvent: (workspaceId: string, event: JobEvent) => void;

  constructor(db: PgDb, onEvent: (workspaceId: string, event: JobEvent) => void) {
    this.db = db;
    this.onEvent = onEvent;
    this.creator = new PgJobCreator(db);
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

  // Creations are written in batches (job-creation.pg.ts); each is published once committed.
  private readonly creator: PgJobCreator;

  async create(input: CreateInput): Promise<Job> {
    const event = await this.creator.create(input);
    if (this.active) this.active.n++;
    this.publish(input.workspaceId, event);
    return event.job;
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
    return (await this.db.all<EventRow>('SELECT id, job_id, seq, event, data_json FROM job_events WHERE job_id = $1 AND seq > $2 ORDER BY seq', jobId, afterSeq)).map(toEvent);
  }

  async workspaceEventsAfter(workspaceId: string, afterId: number, limit = 500): Promise<JobEvent[]> {
    return (await this.db.all<EventRow>(
      'SELECT id, job_id, seq, event, data_json FROM job_events WHERE workspace_id = $1 AND id > $2 ORDER BY id LIMIT $3',
      workspaceId, afterId, limit,
    )).map(toEvent);
  }

  async latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return (await this.db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM job_events WHERE workspace_id = $1', workspaceId))?.id ?? 0;
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
