// The job event log: every change of a job appends a numbered event, which the SSE streams
// replay (per job by `seq`, the SSE `id:`; per workspace by `id`, GET /v1/events with
// Last-Event-ID). Appends run inside the transaction of the change they record (jobs.store.ts,
// job-creation.ts); the reads are the same on both backends. A workspace's ids are its own count
// (job_event_counters), not a store-wide sequence, so that they tell a tenant nothing of other
// workspaces' volume (issue 20, finding 13); the retention sweep records there how far it deleted.
import type { SqliteDb } from '../store/sqlite.ts';
import type { Job } from './jobs.schemas.ts';

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

/** What the event streams read. */
export interface JobEventLog {
  eventsAfter(jobId: string, afterSeq: number): Promise<JobEvent[]>;
  workspaceEventsAfter(workspaceId: string, afterId: number, limit?: number): Promise<JobEvent[]>;
  /** The id of the workspace's newest job event (0 when none): where a fresh stream starts. */
  latestWorkspaceEventId(workspaceId: string): Promise<number>;
  /** The largest id of the workspace's events that retention removed (0 when none): a stream cannot resume before it. */
  prunedWorkspaceEventId(workspaceId: string): Promise<number>;
}

/** A job event row as both backends read it (JOB_EVENT_COLUMNS): `id` is the workspace's number of the event. */
export interface JobEventRow {
  id: number;
  job_id: string;
  seq: number;
  event: JobEventName;
  data_json: string;
}

export const JOB_EVENT_COLUMNS = 'ws_seq AS id, job_id, seq, event, data_json';

export const toJobEvent = (e: JobEventRow): JobEvent => ({ id: Number(e.id), jobId: e.job_id, seq: e.seq, event: e.event, job: JSON.parse(e.data_json) as Job });

export class SqliteJobEventLog implements JobEventLog {
  private readonly db: SqliteDb;
  constructor(db: SqliteDb) {
    this.db = db;
  }

  /**
   * Writes one event of `workspaceId`'s job with the workspace's next event number; inside the
   * caller's transaction (the embedded store has one writer, so numbers commit in order).
   */
  append(workspaceId: string, event: Omit<JobEvent, 'id'>): JobEvent {
    const id = Number(
      this.db.get<{ n: number }>(
        `INSERT INTO job_event_counters (workspace_id, last_seq) VALUES (?, 1)
         ON CONFLICT (workspace_id) DO UPDATE SET last_seq = last_seq + 1 RETURNING last_seq AS n`,
        workspaceId,
      )?.n,
    );
    this.db.run(
      'INSERT INTO job_events (job_id, workspace_id, seq, ws_seq, event, data_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      event.jobId, workspaceId, event.seq, id, event.event, JSON.stringify(event.job), Date.now(),
    );
    return { id, ...event };
  }

  async eventsAfter(jobId: string, afterSeq: number): Promise<JobEvent[]> {
    return this.db
      .all<JobEventRow>(`SELECT ${JOB_EVENT_COLUMNS} FROM job_events WHERE job_id = ? AND seq > ? ORDER BY seq`, jobId, afterSeq)
      .map(toJobEvent);
  }

  async workspaceEventsAfter(workspaceId: string, afterId: number, limit = 500): Promise<JobEvent[]> {
    return this.db
      .all<JobEventRow>(
        `SELECT ${JOB_EVENT_COLUMNS} FROM job_events WHERE workspace_id = ? AND ws_seq > ? ORDER BY ws_seq LIMIT ?`,
        workspaceId, afterId, limit,
      )
      .map(toJobEvent);
  }

  async latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return this.db.get<{ n: number }>('SELECT last_seq AS n FROM job_event_counters WHERE workspace_id = ?', workspaceId)?.n ?? 0;
  }

  async prunedWorkspaceEventId(workspaceId: string): Promise<number> {
    return this.db.get<{ n: number }>('SELECT pruned_through AS n FROM job_event_counters WHERE workspace_id = ?', workspaceId)?.n ?? 0;
  }
}
