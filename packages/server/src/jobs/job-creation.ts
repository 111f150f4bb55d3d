// Job creation: each job is written with its credit reservation, task, queue turn, first event
// and idempotency answer in one transaction. On the embedded engine the adapter's group commit
// (store/sqlite.ts) writes the creations asked for during one turn of the event loop in one
// commit, each in its own savepoint (a creation that fails, e.g. for credits, is undone alone);
// on PostgreSQL, job-batch-insert.ts writes a workspace's creations in one statement instead.
// Either way a creation's promise settles only once its transaction committed.
import type { Sql } from '../store/sql.ts';
import { newId, nowIso } from '../ids.ts';
import { enqueueTask } from '../queue/queue.store.ts';
import { reserveCredits } from '../credits/credits.ledger.ts';
import { completeKey } from '../idempotency/idempotency.store.ts';
import type { Job } from './jobs.schemas.ts';
import type { SqlJobEventLog, JobEvent } from './job-events.store.ts';
import { newJob, type CreateInput } from './job-rows.ts';

/** How a store creates jobs: job-creation.ts (a transaction each) or job-batch-insert.ts (PostgreSQL). */
export interface JobCreation {
  /** Answers the job once its transaction committed. */
  create(input: CreateInput): Promise<Job>;
}

export class TransactionJobCreation implements JobCreation {
  private readonly db: Sql;
  private readonly events: SqlJobEventLog;
  /** Told of each job once its creation committed. */
  private readonly created: (workspaceId: string, event: JobEvent) => void;

  constructor(db: Sql, events: SqlJobEventLog, created: (workspaceId: string, event: JobEvent) => void) {
    this.db = db;
    this.events = events;
    this.created = created;
  }

  async create(input: CreateInput): Promise<Job> {
    const event = await this.db.transaction((tx) => this.insertJob(tx, input));
    this.created(input.workspaceId, event);
    return event.job;
  }

  /** Writes one job with its credit reservation, task, first event and idempotency answer; inside a transaction. */
  private async insertJob(tx: Sql, input: CreateInput): Promise<JobEvent> {
    const id = newId('job');
    const createdAt = nowIso();
    await reserveCredits(tx, input.workspaceId, input.cost, { jobId: id });
    // The new row is known here: it is written with its first event number, and the event is
    // built from it (what reading the row back would give), saving an UPDATE and a SELECT.
    await tx.run(
      `INSERT INTO jobs (id, workspace_id, type, status, stage, progress, label, request_json, created_at, cost, event_seq, seq)
       VALUES (?, ?, ?, 'queued', 'queued', 0, ?, ?, ?, ?, 1, nextval('rapport_seq'))`,
      id, input.workspaceId, input.type, input.label ?? null, JSON.stringify(input.request), createdAt, input.cost,
    );
    await enqueueTask(tx, 'job.run', id, input.workspaceId);
    const created = await this.events.append(tx, input.workspaceId, { jobId: id, seq: 1, event: 'job.updated', job: newJob(id, input, createdAt) });
    const completion = input.onCreated?.(created.job);
    if (completion) await completeKey(tx, completion);
    return created;
  }
}
