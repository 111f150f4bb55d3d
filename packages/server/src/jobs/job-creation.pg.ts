// Job creation on PostgreSQL, with group commit as on the embedded store (job-creation.ts):
// creations asked for during one turn of the event loop are written in one transaction (one
// commit to wait for instead of one each), in workspace order so that two batches lock
// workspaces in the same order. A batch that fails as a whole is written again creation by
// creation, so that one bad creation fails alone. Each creation's id is drawn once: written
// again after a commit whose outcome was lost, it fails on its key instead of making a second job.
import type { PgDb, PgExec } from '../store/pg.ts';
import { newId, nowIso } from '../ids.ts';
import { InsufficientCredits } from '../credits/credits.ledger.ts';
import { completionParams } from '../idempotency/idempotency.store.ts';
import { announcement } from '../events/job-event-bus.pg.ts';
import type { Job } from './jobs.schemas.ts';
import type { JobEvent } from './job-events.store.ts';
import { newJob, type CreateInput } from './job-rows.ts';

type Outcome = { ok: true; event: JobEvent } | { ok: false; err: unknown };

export class PgJobCreation {
  private readonly db: PgDb;
  /** Told of each job once its creation committed. */
  private readonly created: (workspaceId: string, event: JobEvent) => void;
  private pendingCreates: { id: string; input: CreateInput; resolve: (job: Job) => void; reject: (err: unknown) => void }[] = [];

  constructor(db: PgDb, created: (workspaceId: string, event: JobEvent) => void) {
    this.db = db;
    this.created = created;
  }

  async create(input: CreateInput): Promise<Job> {
    return new Promise<Job>((resolve, reject) => {
      this.pendingCreates.push({ id: newId('job'), input, resolve, reject });
      if (this.pendingCreates.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pendingCreates.sort((x, y) => (x.input.workspaceId < y.input.workspaceId ? -1 : x.input.workspaceId > y.input.workspaceId ? 1 : 0));
    this.pendingCreates = [];
    let outcomes: Outcome[] | null = null;
    if (batch.length > 1) {
      outcomes = await this.db.transaction(async (tx) => {
        const out: Outcome[] = [];
        for (const p of batch) {
          const event = await this.insertJob(tx, p.id, p.input);
          out.push(event instanceof Error ? { ok: false, err: event } : { ok: true, event });
        }
        return out;
      }).catch(() => null);
    }
    for (const [i, p] of batch.entries()) {
      let outcome = outcomes?.[i];
      if (!outcome) {
        try {
          const event = await this.insertJob(this.db, p.id, p.input);
          outcome = event instanceof Error ? { ok: false, err: event } : { ok: true, event };
        } catch (err) {
          outcome = { ok: false, err };
        }
      }
      if (!outcome.ok) {
        p.reject(outcome.err);
        continue;
      }
      this.created(p.input.workspaceId, outcome.event);
      p.resolve(outcome.event.job);
    }
  }

  /**
   * One statement, so one round trip: the reservation (only while the workspace can pay: the row
   * is re-checked under its lock), its ledger line, the job, its task, its turn in the queue, the
   * idempotency answer, and the first event with its announcement (numbered by the workspace's
   * event counter, whose row lock orders commits, as job-events.store.pg.ts explains). Nothing is
   * written when the workspace cannot pay: the answer is then the InsufficientCredits to throw.
   */
  private async insertJob(exec: PgExec, id: string, input: CreateInput): Promise<JobEvent | Error> {
    const createdAt = nowIso();
    const job = newJob(id, input, createdAt);
    const completion = input.onCreated?.(job);
    const event = { jobId: id, seq: 1, event: 'job.updated' as const, job };
    const { before, after } = announcement(this.db, input.workspaceId, event);
    const row = await exec.get<{ id: number }>(
      `WITH w AS (
         UPDATE workspaces SET reserved = reserved + $2::bigint, updated_at = CASE WHEN $2::bigint > 0 THEN $3::text ELSE updated_at END
         WHERE id = $1::text AND ($2::bigint = 0 OR balance - reserved >= $2::bigint) RETURNING balance
       ), c AS (
         INSERT INTO credit_transactions (id, workspace_id, kind, amount, balance_after, job_id, created_at)
         SELECT $4::text, $1::text, 'reserve', $2::bigint, w.balance, $5::text, $3::text FROM w WHERE $2::bigint > 0
       ), j AS (
         INSERT INTO jobs (id, workspace_id, type, status, stage, progress, label, request_json, created_at, cost, event_seq)
         SELECT $5::text, $1::text, $6::text, 'queued', 'queued', 0, $7::text, $8::text, $3::text, $2::bigint, 1 FROM w RETURNING id
       ), t AS (
         INSERT INTO tasks (kind, ref_id, workspace_id, state, run_at, max_attempts) SELECT 'job.run', j.id, $1::text, 'ready', $9::bigint, 3 FROM j
       ), q AS (
         INSERT INTO queue_turns (workspace_id) SELECT $1::text FROM j ON CONFLICT (workspace_id) DO NOTHING
       ), k AS (
         UPDATE idempotency_keys SET state = 'done', status_code = $10::int, response_json = $11::text
         WHERE $12::text IS NOT NULL AND workspace_id = $1::text AND route = $12::text AND key = $13::text AND EXISTS (SELECT 1 FROM j)
       ), n AS (
         INSERT INTO job_event_counters (workspace_id, last_seq) SELECT $1::text, 1 FROM j
         ON CONFLICT (workspace_id) DO UPDATE SET last_seq = job_event_counters.last_seq + 1 RETURNING last_seq
       ), e AS (
         INSERT INTO job_events (job_id, workspace_id, seq, ws_seq, event, data_json, created_at)
         SELECT j.id, $1::text, 1, n.last_seq, 'job.updated', $14::text, $18::bigint FROM j, n
         RETURNING ws_seq
       )
       SELECT e.ws_seq AS id, pg_notify($15::text, $16::text || e.ws_seq::text || $17::text) FROM e`,
      input.workspaceId, input.cost, createdAt, newId('txn'), id, input.type, input.label ?? null, JSON.stringify(input.request), Date.now(),
      completion ? completion.response.statusCode : null, completion ? completionParams(completion)[1] : null,
      completion ? completion.scope.route : null, completion ? completion.scope.key : null,
      JSON.stringify(job), this.db.channel, before, after, Date.now(),
    );
    if (!row) {
      const ws = await exec.get<{ balance: number; reserved: number }>('SELECT balance, reserved FROM workspaces WHERE id = $1', input.workspaceId);
      return ws ? new InsufficientCredits(input.cost, ws.balance - ws.reserved) : new Error(`workspace ${input.workspaceId} does not exist`);
    }
    return { id: Number(row.id), ...event };
  }
}
