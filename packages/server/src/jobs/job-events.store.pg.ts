// The job event log on PostgreSQL (see job-events.store.ts). An event's id is drawn by updating
// its workspace's counter row (job_event_counters) in the event's transaction, and is announced
// with NOTIFY in that transaction (events/job-event-bus.pg.ts). The row's lock is held until
// commit, so a workspace's events commit in id order: a reader that resumes after an id never
// skips one that commits later with a smaller id.
import type { PgDb, PgExec } from '../store/pg.ts';
import { appendJobEvent } from '../events/job-event-bus.pg.ts';
import { JOB_EVENT_COLUMNS, toJobEvent, type JobEvent, type JobEventLog, type JobEventRow } from './job-events.store.ts';

export class PgJobEventLog implements JobEventLog {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  /** Writes and announces one event of `workspaceId`'s job; inside the caller's transaction. */
  append(tx: PgExec, workspaceId: string, event: Omit<JobEvent, 'id'>): Promise<JobEvent> {
    return appendJobEvent(tx, this.db, workspaceId, event);
  }

  async eventsAfter(jobId: string, afterSeq: number): Promise<JobEvent[]> {
    return (await this.db.all<JobEventRow>(`SELECT ${JOB_EVENT_COLUMNS} FROM job_events WHERE job_id = $1 AND seq > $2 ORDER BY seq`, jobId, afterSeq)).map(toJobEvent);
  }

  async workspaceEventsAfter(workspaceId: string, afterId: number, limit = 500): Promise<JobEvent[]> {
    return (await this.db.all<JobEventRow>(
      `SELECT ${JOB_EVENT_COLUMNS} FROM job_events WHERE workspace_id = $1 AND ws_seq > $2 ORDER BY ws_seq LIMIT $3`,
      workspaceId, afterId, limit,
    )).map(toJobEvent);
  }

  async latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT last_seq AS n FROM job_event_counters WHERE workspace_id = $1', workspaceId))?.n ?? 0;
  }

  async prunedWorkspaceEventId(workspaceId: string): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT pruned_through AS n FROM job_event_counters WHERE workspace_id = $1', workspaceId))?.n ?? 0;
  }
}
