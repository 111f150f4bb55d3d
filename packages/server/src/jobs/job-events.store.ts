// The job event log: every change of a job appends a numbered event, which the SSE streams
// replay (per job by `seq`, the SSE `id:`; per workspace by `id`, GET /v1/events with
// Last-Event-ID). Appends run inside the transaction of the change they record (jobs.store.ts,
// job-creation.ts); the reads are the same on both backends.
import type { SqliteDb } from '../store/sqlite.ts';
import type { Job } from './jobs.schemas.ts';

export type JobEventName = 'job.updated' | 'job.succeeded' | 'job.failed';

export interface JobEvent {
  /** Global order across the workspace (for GET /v1/events). */
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
}

export interface JobEventRow {
  id: number;
  job_id: string;
  seq: number;
  event: JobEventName;
  data_json: string;
}

export const toJobEvent = (e: JobEventRow): JobEvent => ({ id: e.id, jobId: e.job_id, seq: e.seq, event: e.event, job: JSON.parse(e.data_json) as Job });

export class SqliteJobEventLog implements JobEventLog {
  private readonly db: SqliteDb;
  constructor(db: SqliteDb) {
    this.db = db;
  }

  /** Writes one event of `workspaceId`'s job; inside the caller's transaction. */
  append(workspaceId: string, event: Omit<JobEvent, 'id'>): JobEvent {
    const id = Number(
      this.db.get<{ id: number }>(
        'INSERT INTO job_events (job_id, workspace_id, seq, event, data_json) VALUES (?, ?, ?, ?, ?) RETURNING id',
        event.jobId, workspaceId, event.seq, event.event, JSON.stringify(event.job),
      )?.id,
    );
    return { id, ...event };
  }

  async eventsAfter(jobId: string, afterSeq: number): Promise<JobEvent[]> {
    return this.db
      .all<JobEventRow>('SELECT id, job_id, seq, event, data_json FROM job_events WHERE job_id = ? AND seq > ? ORDER BY seq', jobId, afterSeq)
      .map(toJobEvent);
  }

  async workspaceEventsAfter(workspaceId: string, afterId: number, limit = 500): Promise<JobEvent[]> {
    return this.db
      .all<JobEventRow>(
        'SELECT id, job_id, seq, event, data_json FROM job_events WHERE workspace_id = ? AND id > ? ORDER BY id LIMIT ?',
        workspaceId, afterId, limit,
      )
      .map(toJobEvent);
  }

  async latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return this.db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM job_events WHERE workspace_id = ?', workspaceId)?.id ?? 0;
  }
}
