// Jobs and their event history. Every state change appends a numbered event (the SSE stream
// replays them with Last-Event-ID), and the terminal change writes, in one transaction, the
// result, the webhook event with its delivery (the outbox), the credit charge or release, and
// removes the job's task: a job can end only once, and never without its event.
import type { SqliteDb } from '../store/sqlite.ts';
import { newId, nowIso } from '../ids.ts';
import { enqueueTask, dropTasks } from '../queue/queue.store.ts';
import { chargeCredits, releaseCredits, reserveCredits } from '../credits/credits.ledger.ts';
import type { JobError } from '../http/errors.ts';
import type { Job, JobListQuery, JobStage, JobType } from './jobs.schemas.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import { completeKey, type KeyCompletion } from '../idempotency/idempotency.store.ts';
import { writeOutbox, type OutboxEvent } from './outbox.ts';

export type { OutboxEvent } from './outbox.ts';

/** How often the figures behind `estimatedWaitSec` are read from the store again. */
export const ESTIMATE_REFRESH_MS = 1000;
/** How many of the newest jobs `recentDurationSec` looks at. */
const RECENT_JOBS = 2000;

export type JobEventName = 'job.updated' | 'job.succeeded' | 'job.failed';

export interface JobEvent {
  /**
   * The event's number within its workspace (GET /v1/events `id:`): counted per workspace, so
   * that it tells a tenant nothing of other workspaces' volume (issue 20, finding 13).
   */
  id: number;
  jobId: string;
  /** Per-job sequence number (the SSE `id:`). */
  seq: number;
  event: JobEventName;
  job: Job;
}

export interface StoredJob {
  job: Job;
  workspaceId: string;
  request: unknown;
  cost: number;
}

export interface ResultToStore {
  id: string;
  kind: 'matching' | 'report';
  payloadJson: string;
  evidenceJson: string | null;
}


export interface CreateInput {
  workspaceId: string;
  type: JobType;
  label?: string;
  request: unknown;
  cost: number;
  /**
   * Runs inside the creating transaction; the idempotency key it may answer is completed in that
   * transaction, so that the job never exists without its replayable answer.
   */
  onCreated?: (job: Job) => KeyCompletion | undefined;
}

interface PendingCreate {
  input: CreateInput;
  resolve: (job: Job) => void;
  reject: (err: unknown) => void;
}

export interface JobStore {
  create(input: CreateInput): Promise<Job>;
  get(workspaceId: string, id: string): Promise<Job | null>;
  load(id: string): Promise<StoredJob | null>;
  list(workspaceId: string, query: JobListQuery): Promise<{ data: Job[]; nextCursor: string | null }>;
  start(id: string): Promise<Job | null>;
  progress(id: string, stage: JobStage, progress: number): Promise<Job | null>;
  succeed(id: string, result: ResultToStore, outbox: OutboxEvent): Promise<Job | null>;
  fail(id: string, error: JobError, outbox: OutboxEvent): Promise<Job | null>;
  eventsAfter(jobId: string, afterSeq: number): Promise<JobEvent[]>;
  workspaceEventsAfter(workspaceId: string, afterId: number, limit?: number): Promise<JobEvent[]>;
  /** The id of the workspace's newest job event (0 when none): where a fresh stream starts. */
  latestWorkspaceEventId(workspaceId: string): Promise<number>;
  /** The largest id of the workspace's events that retention removed (0 when none): a stream cannot resume before it. */
  prunedWorkspaceEventId(workspaceId: string): Promise<number>;
  /** Jobs waiting or running in the whole store, for `estimatedWaitSec`. */
  activeCount(): Promise<number>;
  /** Mean duration of recently finished jobs, seconds; null when none finished yet. */
  recentDurationSec(): Promise<number | null>;
}

export interface JobRow {
  id: string;
  workspace_id: string;
  type: JobType;
  status: Job['status'];
  stage: JobStage;
  progress: number;
  label: string | null;
  request_json: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  result_id: string | null;
  error_json: string | null;
  cost: number;
  event_seq: number;
  seq: number;
}

export function toJob(r: JobRow): Job {
  const job: Job = {
    id: r.id,
    type: r.type,
    status: r.status,
    stage: r.stage,
    progress: r.progress,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    resultId: r.result_id,
    error: r.error_json ? (JSON.parse(r.error_json) as JobError) : null,
  };
  if (r.label !== null) job.label = r.label;
  return job;
}

/** A job event row as both backends read it: `id` is the workspace's number of the event. */
export interface EventRow {
  id: number;
  job_id: string;
  seq: number;
  event: JobEventName;
  data_json: string;
}

export const EVENT_COLUMNS = 'ws_seq AS id, job_id, seq, event, data_json';

export const toEvent = (e: EventRow): JobEvent => ({ id: Number(e.id), jobId: e.job_id, seq: e.seq, event: e.event, job: JSON.parse(e.data_json) as Job });

/**
 * Appends a job event with the workspace's next event number; inside the caller's transaction
 * (the embedded store has one writer, so numbers commit in order).
 */
function insertJobEvent(db: SqliteDb, workspaceId: string, jobId: string, seq: number, event: JobEventName, job: Job): number {
  const n = Number(
    db.get<{ n: number }>(
      `INSERT INTO job_event_counters (workspace_id, last_seq) VALUES (?, 1)
       ON CONFLICT (workspace_id) DO UPDATE SET last_seq = last_seq + 1 RETURNING last_seq AS n`,
      workspaceId,
    )?.n,
  );
  db.run(
    'INSERT INTO job_events (job_id, workspace_id, seq, ws_seq, event, data_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    jobId, workspaceId, seq, n, event, JSON.stringify(job), Date.now(),
  );
  return n;
}

export class SqliteJobStore implements JobStore {
  private readonly db: SqliteDb;
  private readonly onEvent: (workspaceId: string, event: JobEvent) => void;

  constructor(db: SqliteDb, onEvent: (workspaceId: string, event: JobEvent) => void) {
    this.db = db;
    this.onEvent = onEvent;
  }

  private row(id: string): JobRow | undefined {
    return this.db.get<JobRow>('SELECT * FROM jobs WHERE id = ?', id);
  }

  /** Appends the event for the job's current row; runs inside the caller's transaction. */
  private appendEvent(id: string, event: JobEventName): JobEvent {
    this.db.run('UPDATE jobs SET event_seq = event_seq + 1 WHERE id = ?', id);
    const r = this.row(id) as JobRow;
    const job = toJob(r);
    const eventId = insertJobEvent(this.db, r.workspace_id, id, r.event_seq, event, job);
    return { id: eventId, jobId: id, seq: r.event_seq, event, job };
  }

  private publish(workspaceId: string, event: JobEvent): void {
    try {
      this.onEvent(workspaceId, event);
    } catch {
      // Subscribers are best effort: the event is already durable in job_events.
    }
  }

  // Group commit: creations asked for during one turn of the event loop are written in one
  // transaction, each in its own savepoint (a creation that fails, e.g. for credits, is undone
  // alone). The commit, not the statements, dominates a creation's cost on the embedded store
  // (`npm run bench`); a lone creation waits for nothing but the end of the current turn, and
  // its promise settles only once its transaction committed.
  private pendingCreates: PendingCreate[] = [];

  async create(input: CreateInput): Promise<Job> {
    // Inside a caller's transaction the job is part of that transaction: write it at once.
    if (this.db.inTransaction) return this.publishCreated(input.workspaceId, this.insertJob(input));
    return new Promise<Job>((resolve, reject) => {
      this.pendingCreates.push({ input, resolve, reject });
      if (this.pendingCreates.length === 1) setImmediate(() => this.flushCreates());
    });
  }

  private flushCreates(): void {
    const batch = this.pendingCreates;
    this.pendingCreates = [];
    let outcomes: ({ ok: true; event: JobEvent } | { ok: false; err: unknown })[];
    try {
      outcomes = this.db.transaction(() =>
        batch.map(({ input }) => {
          try {
            return { ok: true as const, event: this.db.savepoint(() => this.insertJob(input)) };
          } catch (err) {
            return { ok: false as const, err };
          }
        }),
      );
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) p.resolve(this.publishCreated(p.input.workspaceId, outcome.event));
      else p.reject(outcome?.err ?? new Error('job creation lost its outcome'));
    });
  }

  /** Writes one job with its credit reservation, task and first event; inside a transaction. */
  private insertJob(input: CreateInput): JobEvent {
    const id = newId('job');
    const createdAt = nowIso();
    reserveCredits(this.db, input.workspaceId, input.cost, { jobId: id });
    // The new row is known here: it is written with its first event number, and the event is
    // built from it (what appendEvent would read back), saving an UPDATE and a SELECT.
    this.db.run(
      `INSERT INTO jobs (id, workspace_id, type, status, stage, progress, label, request_json, created_at, cost, event_seq, seq)
       VALUES (?, ?, ?, 'queued', 'queued', 0, ?, ?, ?, ?, 1, ?)`,
      id, input.workspaceId, input.type, input.label ?? null, JSON.stringify(input.request), createdAt, input.cost, this.db.nextSeq(),
    );
    enqueueTask(this.db, 'job.run', id, input.workspaceId);
    const job = toJob({
      id, workspace_id: input.workspaceId, type: input.type, status: 'queued', stage: 'queued', progress: 0, label: input.label ?? null,
      request_json: '', created_at: createdAt, started_at: null, finished_at: null, result_id: null, error_json: null, cost: input.cost, event_seq: 1, seq: 0,
    });
    const eventId = insertJobEvent(this.db, input.workspaceId, id, 1, 'job.updated', job);
    const created: JobEvent = { id: eventId, jobId: id, seq: 1, event: 'job.updated', job };
    const completion = input.onCreated?.(created.job);
    if (completion) completeKey(this.db, completion);
    return created;
  }

  private publishCreated(workspaceId: string, event: JobEvent): Job {
    if (this.active) this.active.n++;
    this.publish(workspaceId, event);
    return event.job;
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
    return this.db.all<EventRow>(`SELECT ${EVENT_COLUMNS} FROM job_events WHERE job_id = ? AND seq > ? ORDER BY seq`, jobId, afterSeq).map(toEvent);
  }

  async workspaceEventsAfter(workspaceId: string, afterId: number, limit = 500): Promise<JobEvent[]> {
    return this.db
      .all<EventRow>(`SELECT ${EVENT_COLUMNS} FROM job_events WHERE workspace_id = ? AND ws_seq > ? ORDER BY ws_seq LIMIT ?`, workspaceId, afterId, limit)
      .map(toEvent);
  }

  // The two figures behind `estimatedWaitSec` are read on every job creation. Counted exactly on
  // every call they cost O(queue) and O(jobs) (46 % of a creation's time with 20,000 jobs
  // queued, `npm run bench`), so they are re-read at most once a second and the count is kept
  // current in between by this process's own creations and completions. Other processes'
  // changes show within a second: an estimate may be that stale.
  private active: { at: number; n: number } | null = null;
  private duration: { at: number; sec: number | null } | null = null;

  async latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return this.db.get<{ n: number }>('SELECT last_seq AS n FROM job_event_counters WHERE workspace_id = ?', workspaceId)?.n ?? 0;
  }

  async prunedWorkspaceEventId(workspaceId: string): Promise<number> {
    return this.db.get<{ n: number }>('SELECT pruned_through AS n FROM job_event_counters WHERE workspace_id = ?', workspaceId)?.n ?? 0;
  }

  async activeCount(): Promise<number> {
    const now = Date.now();
    if (!this.active || now - this.active.at >= ESTIMATE_REFRESH_MS) {
      this.active = { at: now, n: this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE kind = 'job.run'")?.n ?? 0 };
    }
    return this.active.n;
  }

  async recentDurationSec(): Promise<number | null> {
    const now = Date.now();
    if (!this.duration || now - this.duration.at >= ESTIMATE_REFRESH_MS) {
      // Among the last RECENT_JOBS jobs written (a rowid range, so the cost does not grow with
      // the table), the 50 newest that succeeded.
      const r = this.db.get<{ avg: number | null }>(
        `SELECT AVG((julianday(finished_at) - julianday(started_at)) * 86400.0) AS avg FROM
         (SELECT started_at, finished_at FROM jobs WHERE rowid > (SELECT COALESCE(MAX(rowid), 0) FROM jobs) - ?
          AND status = 'succeeded' AND started_at IS NOT NULL ORDER BY seq DESC LIMIT 50)`,
        RECENT_JOBS,
      );
      this.duration = { at: now, sec: r?.avg ?? null };
    }
    return this.duration.sec;
  }
}
