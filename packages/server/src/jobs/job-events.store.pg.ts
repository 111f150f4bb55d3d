// The job event log on PostgreSQL (see job-events.store.ts). An event is written under a
// per-workspace transaction lock and announced with NOTIFY in its transaction
// (events/job-event-bus.pg.ts): ids come from a sequence, and a transaction that took a smaller
// id could otherwise commit after one that took a larger, so that a reader would skip it.
import type { PgDb, PgExec } from '../store/pg.ts';
import { appendJobEvent } from '../events/job-event-bus.pg.ts';
import { toJobEvent, type JobEvent, type JobEventLog, type JobEventRow } from './job-events.store.ts';

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
    return (await this.db.all<JobEventRow>('SELECT id, job_id, seq, event, data_json FROM job_events WHERE job_id = $1 AND seq > $2 ORDER BY seq', jobId, afterSeq)).map(toJobEvent);
  }

  async workspaceEventsAfter(workspaceId: string, afterId: number, limit = 500): Promise<JobEvent[]> {
    return (await this.db.all<JobEventRow>(
      'SELECT id, job_id, seq, event, data_json FROM job_events WHERE workspace_id = $1 AND id > $2 ORDER BY id LIMIT $3',
      workspaceId, afterId, limit,
    )).map(toJobEvent);
  }

  async latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return (await this.db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM job_events WHERE workspace_id = $1', workspaceId))?.id ?? 0;
  }
}
