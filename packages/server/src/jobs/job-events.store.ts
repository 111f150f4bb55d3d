// The job event log: every change of a job appends a numbered event, which the SSE streams
// replay (per job by `seq`, the SSE `id:`; per workspace by `id`, GET /v1/events with
// Last-Event-ID). Appends run inside the transaction of the change they record (jobs.store.ts,
// job-creation.ts). An event's id is drawn by updating its workspace's counter row in the
// event's transaction; on PostgreSQL the row's lock is held until commit, so a workspace's
// events commit in id order (a reader that resumes after an id never skips one that commits
// later with a smaller id), and the event is announced with NOTIFY in the same statement
// (events/job-event-bus.pg.ts). A workspace's ids are its own count
// (job_event_counters), not a store-wide sequence, so that they tell a tenant nothing of other
// workspaces' volume (issue 20, finding 13); the retention sweep records there how far it deleted.
import type { Sql } from '../store/sql.ts';
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

/**
 * How the statement that appends a job event also announces it, on PostgreSQL (the NOTIFY of
 * events/job-event-bus.pg.ts): the channel (null where Redis carries job events), and the
 * payload's text before and after the id the database is about to assign.
 */
export interface JobEventAnnouncer {
  readonly channel: string | null;
  payload(workspaceId: string, event: Omit<JobEvent, 'id'>): { before: string; after: string };
}

export class SqlJobEventLog implements JobEventLog {
  private readonly db: Sql;
  private readonly announcer: JobEventAnnouncer | undefined;
  constructor(db: Sql, announcer?: JobEventAnnouncer) {
    this.db = db;
    this.announcer = announcer;
  }

  /** Writes one event of `workspaceId`'s job with the workspace's next event number; inside the caller's transaction. */
  async append(tx: Sql, workspaceId: string, event: Omit<JobEvent, 'id'>): Promise<JobEvent> {
    if (this.announcer) return { id: await this.appendAnnounced(tx, this.announcer, workspaceId, event), ...event };
    const id = Number((await tx.get<{ n: number }>(
      `INSERT INTO job_event_counters (workspace_id, last_seq) VALUES (?, 1)
       ON CONFLICT (workspace_id) DO UPDATE SET last_seq = job_event_counters.last_seq + 1 RETURNING last_seq AS n`,
      workspaceId,
    ))?.n);
    await tx.run(
      'INSERT INTO job_events (job_id, workspace_id, seq, ws_seq, event, data_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      event.jobId, workspaceId, event.seq, id, event.event, JSON.stringify(event.job), Date.now(),
    );
    return { id, ...event };
  }

  /**
   * PostgreSQL: the counter, the event and its NOTIFY in one statement (one round trip). Where
   * Redis carries job events there is no NOTIFY (a CASE evaluates pg_notify only in its branch taken).
   */
  private async appendAnnounced(tx: Sql, announcer: JobEventAnnouncer, workspaceId: string, event: Omit<JobEvent, 'id'>): Promise<number> {
    const { before, after } = announcer.payload(workspaceId, event);
    const row = await tx.get<{ id: number }>(
      `WITH n AS (
         INSERT INTO job_event_counters (workspace_id, last_seq) VALUES ($2::text, 1)
         ON CONFLICT (workspace_id) DO UPDATE SET last_seq = job_event_counters.last_seq + 1 RETURNING last_seq
       ), e AS (
         INSERT INTO job_events (job_id, workspace_id, seq, ws_seq, event, data_json, created_at)
         SELECT $1::text, $2::text, $3::int, n.last_seq, $4::text, $5::text, $9::bigint FROM n
         RETURNING ws_seq
       )
       SELECT e.ws_seq AS id, CASE WHEN $6::text IS NOT NULL THEN pg_notify($6::text, $7::text || e.ws_seq::text || $8::text) END FROM e`,
      event.jobId, workspaceId, event.seq, event.event, JSON.stringify(event.job), announcer.channel, before, after, Date.now(),
    );
    return Number(row?.id);
  }

  async eventsAfter(jobId: string, afterSeq: number): Promise<JobEvent[]> {
    return (await this.db.all<JobEventRow>(`SELECT ${JOB_EVENT_COLUMNS} FROM job_events WHERE job_id = ? AND seq > ? ORDER BY seq`, jobId, afterSeq)).map(toJobEvent);
  }

  async workspaceEventsAfter(workspaceId: string, afterId: number, limit = 500): Promise<JobEvent[]> {
    return (await this.db.all<JobEventRow>(
      `SELECT ${JOB_EVENT_COLUMNS} FROM job_events WHERE workspace_id = ? AND ws_seq > ? ORDER BY ws_seq LIMIT ?`,
      workspaceId, afterId, limit,
    )).map(toJobEvent);
  }

  async latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT last_seq AS n FROM job_event_counters WHERE workspace_id = ?', workspaceId))?.n ?? 0;
  }

  async prunedWorkspaceEventId(workspaceId: string): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT pruned_through AS n FROM job_event_counters WHERE workspace_id = ?', workspaceId))?.n ?? 0;
  }
}
