// Jobs: the store's interface, and the job state machine (queued -> running -> succeeded |
// failed). Every state change is a guarded UPDATE and its numbered event (the job event log,
// job-events.store.ts) in one transaction; the terminal change writes, in one transaction, the
// result, the webhook event with its delivery (the outbox, outbox.ts), the credit charge or
// release, and removes the job's task. That transaction reads the job FOR UPDATE (on PostgreSQL)
// and writes only while it is queued or running, so that a job ends exactly once whichever
// process ends it, and never without its event. Creation is job-creation.ts (with the embedded
// engine's group commit) or job-batch-insert.ts (PostgreSQL: one statement per workspace batch);
// the figures behind `estimatedWaitSec`, wait-estimate.ts.
import type { Sql } from '../store/sql.ts';
import { nowIso } from '../ids.ts';
import { dropTasks } from '../queue/queue.store.ts';
import { chargeCredits, releaseCredits } from '../credits/credits.ledger.ts';
import type { JobError } from './job-failure.ts';
import type { Job, JobListQuery, JobStage, JobType } from './jobs.schemas.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import { writeOutbox, type OutboxEvent } from './outbox.ts';
import { SqlJobEventLog, type JobEvent, type JobEventAnnouncer, type JobEventLog, type JobEventName } from './job-events.store.ts';
import { TransactionJobCreation, type JobCreation } from './job-creation.ts';
import { WaitEstimate, type QueueRow } from './wait-estimate.ts';
import { toJob, type CreateInput, type JobRow } from './job-rows.ts';

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
  /** Seconds of one worker slot that the work ahead of a new job of the workspace takes, for `estimatedWaitSec` (wait-estimate.ts). */
  workAheadSec(workspaceId: string): Promise<number>;
}

/** What PostgreSQL's wiring gives the job store: the NOTIFY of each event, and creation in batch statements. */
export interface JobStoreEngine {
  announcer: JobEventAnnouncer;
  creation(events: SqlJobEventLog, created: (workspaceId: string, event: JobEvent) => void): JobCreation;
}

export class SqlJobStore implements JobStore {
  private readonly db: Sql;
  private readonly onEvent: (workspaceId: string, event: JobEvent) => void;
  private readonly events: SqlJobEventLog;
  private readonly creation: JobCreation;
  private readonly estimate: WaitEstimate;

  constructor(db: Sql, onEvent: (workspaceId: string, event: JobEvent) => void, engine?: JobStoreEngine) {
    this.db = db;
    this.onEvent = onEvent;
    this.events = new SqlJobEventLog(db, engine?.announcer);
    const created = (workspaceId: string, event: JobEvent) => {
      this.estimate.created(workspaceId);
      this.publish(workspaceId, event);
    };
    this.creation = engine ? engine.creation(this.events, created) : new TransactionJobCreation(db, this.events, created);
    this.estimate = new WaitEstimate({
      // Every task of every workspace (they share the worker), with its workspace's turn and,
      // for an analysis, its media's duration.
      queue: (now) => this.db.all<QueueRow>(
        `SELECT t.workspace_id AS workspace_id, q.last_claim AS last_claim, t.kind AS kind,
         CASE WHEN t.state = 'leased' AND t.lease_expires_at > ? THEN 1 ELSE 0 END AS running,
         COUNT(*) AS n, SUM(COALESCE(m.duration_sec, 0)) AS media_sec
         FROM tasks t LEFT JOIN queue_turns q ON q.workspace_id = t.workspace_id LEFT JOIN media m ON t.kind = 'media.analyze' AND m.id = t.ref_id
         GROUP BY 1, 2, 3, 4`,
        now,
      ),
      lastClaim: async (workspaceId) => (await this.db.get<{ n: number }>('SELECT last_claim AS n FROM queue_turns WHERE workspace_id = ?', workspaceId))?.n ?? 0,
      // Among the workspace's last RECENT_JOBS jobs (its index, newest first, so the cost does
      // not grow with the table), the 50 newest that succeeded.
      meanRecentDurationSec: async (workspaceId) => (await this.db.get<{ avg: number | null }>(
        `SELECT AVG(${this.db.dialect.secondsBetween('started_at', 'finished_at')}) AS avg FROM
         (SELECT started_at, finished_at FROM (SELECT started_at, finished_at, status, seq FROM jobs WHERE workspace_id = ? ORDER BY seq DESC LIMIT ?) r
          WHERE status = 'succeeded' AND started_at IS NOT NULL ORDER BY seq DESC LIMIT 50) j`,
        workspaceId, RECENT_JOBS,
      ))?.avg ?? null,
    });
  }

  eventsAfter(jobId: string, afterSeq: number): Promise<JobEvent[]> {
    return this.events.eventsAfter(jobId, afterSeq);
  }

  workspaceEventsAfter(workspaceId: string, afterId: number, limit?: number): Promise<JobEvent[]> {
    return this.events.workspaceEventsAfter(workspaceId, afterId, limit);
  }

  latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return this.events.latestWorkspaceEventId(workspaceId);
  }

  prunedWorkspaceEventId(workspaceId: string): Promise<number> {
    return this.events.prunedWorkspaceEventId(workspaceId);
  }

  workAheadSec(workspaceId: string): Promise<number> {
    return this.estimate.workAheadSec(workspaceId);
  }

  /** Appends the event for the job's current row (`r`, already counting it in event_seq); inside the caller's transaction. */
  private appendEvent(tx: Sql, r: JobRow, event: JobEventName): Promise<JobEvent> {
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
    const r = await this.db.get<JobRow>('SELECT * FROM jobs WHERE id = ? AND workspace_id = ?', id, workspaceId);
    return r ? toJob(r) : null;
  }

  async load(id: string): Promise<StoredJob | null> {
    const r = await this.db.get<JobRow>('SELECT * FROM jobs WHERE id = ?', id);
    return r ? { job: toJob(r), workspaceId: r.workspace_id, request: JSON.parse(r.request_json), cost: r.cost } : null;
  }

  async list(workspaceId: string, query: JobListQuery): Promise<{ data: Job[]; nextCursor: string | null }> {
    const limit = query.limit ?? 20;
    const before = query.cursor ? decodeCursor(query.cursor) : Number.MAX_SAFE_INTEGER;
    const rows = await this.db.all<JobRow>(
      `SELECT * FROM jobs WHERE workspace_id = ?1 AND seq < ?2 AND (CAST(?3 AS TEXT) IS NULL OR type = CAST(?3 AS TEXT)) AND (CAST(?4 AS TEXT) IS NULL OR status = CAST(?4 AS TEXT))
       ORDER BY seq DESC LIMIT ?5`,
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
      `UPDATE jobs SET status = 'running', stage = 'preparing_media', started_at = COALESCE(started_at, ?), event_seq = event_seq + 1
       WHERE id = ? AND status = 'queued' RETURNING *`,
      [nowIso(), id],
      'job.updated',
    );
    if (changed) return changed;
    const r = await this.db.get<JobRow>('SELECT * FROM jobs WHERE id = ?', id);
    return r && r.status === 'running' ? toJob(r) : null;
  }

  async progress(id: string, stage: JobStage, progress: number): Promise<Job | null> {
    return this.change(
      `UPDATE jobs SET stage = ?1, progress = GREATEST(progress, ?2), event_seq = event_seq + 1
       WHERE id = ?3 AND status = 'running' AND (stage <> ?1 OR progress < ?2) RETURNING *`,
      [stage, progress, id],
      'job.updated',
    );
  }

  private async finish(id: string, outcome: { result?: ResultToStore; error?: JobError }, outbox: OutboxEvent): Promise<Job | null> {
    const now = nowIso();
    const out = await this.db.transaction(async (tx) => {
      const r = await tx.get<JobRow>(`SELECT * FROM jobs WHERE id = ?${tx.dialect.forUpdate}`, id);
      if (!r || (r.status !== 'queued' && r.status !== 'running')) return null;
      let ended: JobRow | undefined;
      if (outcome.result) {
        const res = outcome.result;
        await tx.run(
          'INSERT INTO results (id, workspace_id, job_id, kind, payload_json, evidence_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          res.id, r.workspace_id, id, res.kind, res.payloadJson, res.evidenceJson, now,
        );
        ended = await tx.get<JobRow>(
          `UPDATE jobs SET status = 'succeeded', stage = 'done', progress = 1, result_id = ?, finished_at = ?, event_seq = event_seq + 1
           WHERE id = ? RETURNING *`,
          res.id, now, id,
        );
        await chargeCredits(tx, r.workspace_id, r.cost, { jobId: id });
      } else {
        ended = await tx.get<JobRow>(
          `UPDATE jobs SET status = 'failed', error_json = ?1, finished_at = ?2, started_at = COALESCE(started_at, ?2), event_seq = event_seq + 1
           WHERE id = ?3 RETURNING *`,
          JSON.stringify(outcome.error), now, id,
        );
        await releaseCredits(tx, r.workspace_id, r.cost, { jobId: id });
      }
      await dropTasks(tx, 'job.run', id);
      await writeOutbox(tx, r.workspace_id, id, now, outbox);
      return { workspaceId: r.workspace_id, from: r.status, event: await this.appendEvent(tx, ended as JobRow, outcome.result ? 'job.succeeded' : 'job.failed') };
    });
    if (!out) return null;
    this.estimate.ended(out.workspaceId, out.from === 'queued' ? 'queued' : 'running');
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

