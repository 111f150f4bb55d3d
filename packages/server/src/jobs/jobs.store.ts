// Jobs: the store's interface, and the job state machine on the embedded store (queued ->
// running -> succeeded | failed). Every state change appends a numbered event to the job event
// log (job-events.store.ts), and the terminal change writes, in one transaction, the result, the
// webhook event with its delivery (the outbox, outbox.ts), the credit charge or release, and
// removes the job's task: a job can end only once, and never without its event. Creation, with
// its group commit, is job-creation.ts; the figures behind `estimatedWaitSec`, wait-estimate.ts.
import type { SqliteDb } from '../store/sqlite.ts';
import { nowIso } from '../ids.ts';
import { dropTasks } from '../queue/queue.store.ts';
import { chargeCredits, releaseCredits } from '../credits/credits.ledger.ts';
import type { JobError } from '../http/errors.ts';
import type { Job, JobListQuery, JobStage } from './jobs.schemas.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import { writeOutbox, type OutboxEvent } from './outbox.ts';
import { SqliteJobEventLog, type JobEvent, type JobEventLog, type JobEventName } from './job-events.store.ts';
import { SqliteJobCreation } from './job-creation.ts';
import { WaitEstimate } from './wait-estimate.ts';
import { JobStoreReads } from './job-store-reads.ts';
import { toJob, type CreateInput, type JobRow } from './job-rows.ts';
import type { JobType } from './jobs.schemas.ts';

export type { OutboxEvent } from './outbox.ts';
export type { JobEvent, JobEventName } from './job-events.store.ts';
export type { CreateInput } from './job-rows.ts';

/** How many of the newest jobs `recentDurationSec` looks at. */
const RECENT_JOBS = 2000;

export interface StoredJob {
  job: Job;
  workspaceId: string;
  request: unknown;
  cost: number;
}

export interface ResultToStore {
  id: string;
  kind: JobType;
  payloadJson: string;
  evidenceJson: string | null;
}


export interface JobStore extends JobEventLog {
  create(input: CreateInput): Promise<Job>;
  get(workspaceId: string, id: string): Promise<Job | null>;
  load(id: string): Promise<StoredJob | null>;
  list(workspaceId: string, query: JobListQuery): Promise<{ data: Job[]; nextCursor: string | null }>;
  start(id: string): Promise<Job | null>;
  progress(id: string, stage: JobStage, progress: number): Promise<Job | null>;
  succeed(id: string, result: ResultToStore, outbox: OutboxEvent): Promise<Job | null>;
  fail(id: string, error: JobError, outbox: OutboxEvent): Promise<Job | null>;
  /** The workspace's jobs waiting or running, for `estimatedWaitSec`. */
  activeCount(workspaceId: string): Promise<number>;
  /** Mean duration of recently finished jobs, seconds; null when none finished yet. */
  recentDurationSec(workspaceId: string): Promise<number | null>;
}

export class SqliteJobStore extends JobStoreReads implements JobStore {
  private readonly db: SqliteDb;
  private readonly onEvent: (workspaceId: string, event: JobEvent) => void;
  protected readonly events: SqliteJobEventLog;
  private readonly creation: SqliteJobCreation;
  protected readonly estimate: WaitEstimate;

  constructor(db: SqliteDb, onEvent: (workspaceId: string, event: JobEvent) => void) {
    super();
    this.db = db;
    this.onEvent = onEvent;
    this.events = new SqliteJobEventLog(db);
    this.creation = new SqliteJobCreation(db, this.events, (workspaceId, event) => {
      this.estimate.created(workspaceId);
      this.publish(workspaceId, event);
    });
    this.estimate = new WaitEstimate({
      countActive: (workspaceId) => this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE workspace_id = ? AND kind = 'job.run'", workspaceId)?.n ?? 0,
      // Among the workspace's last RECENT_JOBS jobs (its index, newest first, so the cost does
      // not grow with the table), the 50 newest that succeeded.
      meanRecentDurationSec: (workspaceId) => this.db.get<{ avg: number | null }>(
        `SELECT AVG((julianday(finished_at) - julianday(started_at)) * 86400.0) AS avg FROM
         (SELECT started_at, finished_at FROM (SELECT started_at, finished_at, status, seq FROM jobs WHERE workspace_id = ? ORDER BY seq DESC LIMIT ?)
          WHERE status = 'succeeded' AND started_at IS NOT NULL ORDER BY seq DESC LIMIT 50)`,
        workspaceId, RECENT_JOBS,
      )?.avg ?? null,
    });
  }

  private row(id: string): JobRow | undefined {
    return this.db.get<JobRow>('SELECT * FROM jobs WHERE id = ?', id);
  }

  /** Counts the event on the job's row and appends it, for the row as it now is; inside the caller's transaction. */
  private appendEvent(id: string, event: JobEventName): JobEvent {
    this.db.run('UPDATE jobs SET event_seq = event_seq + 1 WHERE id = ?', id);
    const r = this.row(id) as JobRow;
    return this.events.append(r.workspace_id, { jobId: id, seq: r.event_seq, event, job: toJob(r) });
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
    const r = this.db.get<JobRow>('SELECT * FROM jobs WHERE id = ? AND workspace_id = ?', id, workspaceId);
    return r ? toJob(r) : null;
  }

  async load(id: string): Promise<StoredJob | null> {
    const r = this.row(id);
    return r ? { job: toJob(r), workspaceId: r.workspace_id, request: JSON.parse(r.request_json), cost: r.cost } : null;
  }

  async list(workspaceId: string, query: JobListQuery): Promise<{ data: Job[]; nextCursor: string | null }> {
    const limit = query.limit ?? 20;
    const before = query.cursor ? decodeCursor(query.cursor) : Number.MAX_SAFE_INTEGER;
    const rows = this.db.all<JobRow>(
      `SELECT * FROM jobs WHERE workspace_id = ? AND seq < ? AND (? IS NULL OR type = ?) AND (? IS NULL OR status = ?)
       ORDER BY seq DESC LIMIT ?`,
      workspaceId, before, query.type ?? null, query.type ?? null, query.status ?? null, query.status ?? null, limit + 1,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(toJob), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }

  private change(id: string, sql: string, params: (string | number | null)[], event: JobEventName): Job | null {
    const out = this.db.transaction(() => {
      if (this.db.run(sql, ...params) !== 1) return null;
      const r = this.row(id) as JobRow;
      return { workspaceId: r.workspace_id, event: this.appendEvent(id, event) };
    });
    if (!out) return null;
    this.publish(out.workspaceId, out.event);
    return out.event.job;
  }

  async start(id: string): Promise<Job | null> {
    const changed = this.change(
      id,
      "UPDATE jobs SET status = 'running', stage = 'preparing_media', started_at = COALESCE(started_at, ?) WHERE id = ? AND status = 'queued'",
      [nowIso(), id],
      'job.updated',
    );
    if (changed) return changed;
    const r = this.row(id);
    return r && r.status === 'running' ? toJob(r) : null;
  }

  async progress(id: string, stage: JobStage, progress: number): Promise<Job | null> {
    return this.change(
      id,
      "UPDATE jobs SET stage = ?, progress = MAX(progress, ?) WHERE id = ? AND status = 'running' AND (stage != ? OR progress < ?)",
      [stage, progress, id, stage, progress],
      'job.updated',
    );
  }

  private finish(id: string, outcome: { result?: ResultToStore; error?: JobError }, outbox: OutboxEvent): Job | null {
    const now = nowIso();
    const out = this.db.transaction(() => {
      const r = this.row(id);
      if (!r || (r.status !== 'queued' && r.status !== 'running')) return null;
      if (outcome.result) {
        const res = outcome.result;
        this.db.run(
          'INSERT INTO results (id, workspace_id, job_id, kind, payload_json, evidence_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          res.id, r.workspace_id, id, res.kind, res.payloadJson, res.evidenceJson, now,
        );
        this.db.run(
          "UPDATE jobs SET status = 'succeeded', stage = 'done', progress = 1, result_id = ?, finished_at = ? WHERE id = ?",
          res.id, now, id,
        );
        chargeCredits(this.db, r.workspace_id, r.cost, { jobId: id });
      } else {
        this.db.run(
          "UPDATE jobs SET status = 'failed', error_json = ?, finished_at = ?, started_at = COALESCE(started_at, ?) WHERE id = ?",
          JSON.stringify(outcome.error), now, now, id,
        );
        releaseCredits(this.db, r.workspace_id, r.cost, { jobId: id });
      }
      dropTasks(this.db, 'job.run', id);
      writeOutbox(this.db, r.workspace_id, id, now, outbox);
      return { workspaceId: r.workspace_id, event: this.appendEvent(id, outcome.result ? 'job.succeeded' : 'job.failed') };
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
