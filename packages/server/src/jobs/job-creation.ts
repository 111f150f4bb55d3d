// Job creation on the embedded store, with group commit: creations asked for during one turn of
// the event loop are written in one transaction, each in its own savepoint (a creation that
// fails, e.g. for credits, is undone alone). The commit, not the statements, dominates a
// creation's cost on the embedded store (`npm run bench`); a lone creation waits for nothing but
// the end of the current turn, and its promise settles only once its transaction committed.
import type { SqliteDb } from '../store/sqlite.ts';
import { newId, nowIso } from '../ids.ts';
import { enqueueTask } from '../queue/queue.store.ts';
import { reserveCredits } from '../credits/credits.ledger.ts';
import { completeKey } from '../idempotency/idempotency.store.ts';
import type { Job } from './jobs.schemas.ts';
import type { SqliteJobEventLog, JobEvent } from './job-events.store.ts';
import { newJob, type CreateInput } from './job-rows.ts';

interface PendingCreate {
  input: CreateInput;
  resolve: (job: Job) => void;
  reject: (err: unknown) => void;
}

export class SqliteJobCreation {
  private readonly db: SqliteDb;
  private readonly events: SqliteJobEventLog;
  /** Told of each job once its creation committed (or, inside a caller's transaction, once written). */
  private readonly created: (workspaceId: string, event: JobEvent) => void;
  private pendingCreates: PendingCreate[] = [];

  constructor(db: SqliteDb, events: SqliteJobEventLog, created: (workspaceId: string, event: JobEvent) => void) {
    this.db = db;
    this.events = events;
    this.created = created;
  }

  async create(input: CreateInput): Promise<Job> {
    // Inside a caller's transaction the job is part of that transaction: write it at once.
    if (this.db.inTransaction) return this.publish(input.workspaceId, this.insertJob(input));
    return new Promise<Job>((resolve, reject) => {
      this.pendingCreates.push({ input, resolve, reject });
      if (this.pendingCreates.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
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
      if (outcome?.ok) p.resolve(this.publish(p.input.workspaceId, outcome.event));
      else p.reject(outcome?.err ?? new Error('job creation lost its outcome'));
    });
  }

  /** Writes one job with its credit reservation, task, first event and idempotency answer; inside a transaction. */
  private insertJob(input: CreateInput): JobEvent {
    const id = newId('job');
    const createdAt = nowIso();
    reserveCredits(this.db, input.workspaceId, input.cost, { jobId: id });
    // The new row is known here: it is written with its first event number, and the event is
    // built from it (what reading the row back would give), saving an UPDATE and a SELECT.
    this.db.run(
      `INSERT INTO jobs (id, workspace_id, type, status, stage, progress, label, request_json, created_at, cost, event_seq, seq)
       VALUES (?, ?, ?, 'queued', 'queued', 0, ?, ?, ?, ?, 1, ?)`,
      id, input.workspaceId, input.type, input.label ?? null, JSON.stringify(input.request), createdAt, input.cost, this.db.nextSeq(),
    );
    enqueueTask(this.db, 'job.run', id, input.workspaceId);
    const created = this.events.append(input.workspaceId, { jobId: id, seq: 1, event: 'job.updated', job: newJob(id, input, createdAt) });
    const completion = input.onCreated?.(created.job);
    if (completion) completeKey(this.db, completion);
    return created;
  }

  private publish(workspaceId: string, event: JobEvent): Job {
    this.created(workspaceId, event);
    return event.job;
  }
}
