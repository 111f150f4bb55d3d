// The job state machine on PostgreSQL, with the embedded store's transactions (see
// jobs.store.ts): a job's result, status, charge or release, event and outbox in one
// transaction, which reads the job FOR UPDATE and writes only while it is queued or running, so
// that a job ends exactly once whichever process ends it. Each change is a guarded UPDATE and its
// event (job-events.store.pg.ts: numbered by the workspace's event counter, whose row lock orders
// commits, and announced with NOTIFY) in one transaction. Creation is job-creation.pg.ts: one
// statement per workspace for all the creations asked for while that workspace's previous batch
// was written. The figures behind `estimatedWaitSec` are wait-estimate.ts.
import type { PgDb, PgExec } from '../store/pg.ts';
import { nowIso } from '../ids.ts';
import { dropTasksPg } from '../queue/queue.store.pg.ts';
import { chargeCreditsPg, releaseCreditsPg } from '../credits/credits.ledger.pg.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import type { JobError } from '../http/errors.ts';
import type { Job, JobListQuery, JobStage } from './jobs.schemas.ts';
import type { JobStore, ResultToStore, StoredJob } from './jobs.store.ts';
import { toJob, type CreateInput, type JobRow } from './job-rows.ts';
import type { JobEvent, JobEventName } from './job-events.store.ts';
import { PgJobEventLog } from './job-events.store.pg.ts';
import { PgJobCreation } from './job-creation.pg.ts';
import { WaitEstimate } from './wait-estimate.ts';
import { JobStoreReads } from './job-store-reads.ts';
import { writeOutboxPg, type OutboxEvent } from './outbox.ts';

export class PgJobStore extends JobStoreReads implements JobStore {
  private readonly db: PgDb;
  private readonly onEvent: (workspaceId: string, event: JobEvent) => void;
  protected readonly events: PgJobEventLog;
  private readonly creation: PgJobCreation;
  protected readonly estimate: WaitEstimate;

  constructor(db: PgDb, onEvent: (workspaceId: string, event: JobEvent) => void) {
    super();
    this.db = db;
    this.onEvent = onEvent;
    this.events = new PgJobEventLog(db);
    this.creation = new PgJobCreation(db, (workspaceId, event) => {
      this.estimate.created(workspaceId);
      this.publish(workspaceId, event);
    });
    this.estimate = new WaitEstimate({
      countActive: async (workspaceId) => (await this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE workspace_id = $1 AND kind = 'job.run'", workspaceId))?.n ?? 0,
      meanRecentDurationSec: async (workspaceId) => (await this.db.get<{ avg: number | null }>(
        `SELECT AVG(EXTRACT(EPOCH FROM (finished_at::timestamptz - started_at::timestamptz)))::float8 AS avg FROM
         (SELECT started_at, finished_at FROM jobs WHERE workspace_id = $1 AND status = 'succeeded' AND started_at IS NOT NULL ORDER BY seq DESC LIMIT 50) j`,
        workspaceId,
      ))?.avg ?? null,
    });
  }

  /** Appends the event for the job's current row (`r`, already counting it in event_seq); inside the caller's transaction. */
  private appendEvent(tx: PgExec, r: JobRow, event: JobEventName): Promise<JobEvent> {
    return this.events.append(tx, r.workspace_id, { jobId: r.id, seq: r.event_seq, event, job: toJob(r) });
  }

  private publish(workspaceId: string, event: JobEvent): void {
    try {
      this.onEvent(workspaceId, event);
    } catch {
      // Subscribers are best effort: the event is already durable in job_events.
    }
  }

  create(input: CreateInput): Promise<Job> {
    return this.creation.create(input);
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
    this.estimate.ended(out.workspaceId);
    this.publish(out.workspaceId, out.event);
    return out.event.job;
  }

  async succeed(id: string, result: ResultToStore, outbox: OutboxEvent): Promise<Job | null> {
    return this.finish(id, { result }, outbox);
  }

  async fail(id: string, error: JobError, outbox: OutboxEvent): Promise<Job | null> {
    return this.finish(id, { error }, outbox);
  }
}
