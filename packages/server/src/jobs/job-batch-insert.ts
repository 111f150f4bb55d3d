// Job creation on PostgreSQL, with group commit (job-creation.ts is the embedded engine's). Each
// job is written with its credit reservation, ledger line, task, queue turn, idempotency answer
// and first event (numbered by the workspace's event counter and announced with NOTIFY, unless
// Redis carries job events) in one statement, its own transaction; a workspace's creations
// asked for while its previous batch is being written are written together in its next one, in
// one statement.
//
// Why batches, one at a time per workspace: a creation updates its workspace's row (the
// reservation) and its event counter row, and PostgreSQL holds both row locks and the lock that
// orders NOTIFY commits until the commit is durable. (That last lock orders every workspace's
// creations; with REDIS_URL there is none, and the store wrote 1.26-1.36x as many creations per
// second, bench/postgres.ts store.) A workspace's creations therefore queue on one another
// whatever the number of connections; what raises the rate is writing many per
// commit, in one statement, so that the locks are held for one round trip. Writing one batch at a
// time lets the next batch grow while the previous one commits, instead of two transactions of
// the same process waiting on each other's row lock. Workspaces are written apart, so that a
// workspace whose row is held (a long terminal transaction) delays no other.
import type { PgDb, PgExec } from '../store/pg.ts';
import { isTransientConflict, TRANSIENT_ATTEMPTS } from '../store/sql.ts';
import type { JobCreation } from './job-creation.ts';
import { newId, nowIso } from '../ids.ts';
import { InsufficientCredits } from '../credits/credits.ledger.ts';
import { completionParams, type KeyCompletion } from '../idempotency/idempotency.store.ts';
import { announcement } from '../events/job-event-bus.pg.ts';
import type { Job } from './jobs.schemas.ts';
import type { JobEvent } from './job-events.store.ts';
import { newJob, type CreateInput } from './job-rows.ts';

/** Creations written per statement at most; more wait for the next one. */
const MAX_BATCH = 256;

interface Pending {
  /** Drawn once: written again after a commit whose outcome was lost, it fails on its key instead of making a second job. */
  id: string;
  input: CreateInput;
  resolve: (job: Job) => void;
  reject: (err: unknown) => void;
}

/** One creation's rows, computed before the statement. */
interface Prepared {
  p: Pending;
  job: Job;
  completion: KeyCompletion | undefined;
  before: string;
  after: string;
}

type Outcome = { ok: true; event: JobEvent } | { ok: false; err: unknown };

export class BatchInsertJobCreation implements JobCreation {
  private readonly db: PgDb;
  /** Told of each job once its creation committed. */
  private readonly created: (workspaceId: string, event: JobEvent) => void;
  /** Per workspace: the creations waiting for its next batch; present while one is being written. */
  private readonly queues = new Map<string, Pending[]>();

  constructor(db: PgDb, created: (workspaceId: string, event: JobEvent) => void) {
    this.db = db;
    this.created = created;
  }

  /** Answers the job once its transaction committed. */
  create(input: CreateInput): Promise<Job> {
    return new Promise<Job>((resolve, reject) => {
      const p = { id: newId('job'), input, resolve, reject };
      const queue = this.queues.get(input.workspaceId);
      if (queue) {
        queue.push(p);
        return;
      }
      this.queues.set(input.workspaceId, [p]);
      // The rest of this turn's creations join the first batch.
      setImmediate(() => {
        this.drain(input.workspaceId).catch(() => undefined);
      });
    });
  }

  private async drain(workspaceId: string): Promise<void> {
    const queue = this.queues.get(workspaceId) as Pending[];
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH);
        let outcomes: Outcome[];
        try {
          outcomes = await this.write(workspaceId, batch);
        } catch (err) {
          // The store went away mid-batch: each creation fails with the error, none is left waiting.
          for (const p of batch) p.reject(err);
          continue;
        }
        for (const [i, p] of batch.entries()) {
          const o = outcomes[i] as Outcome;
          if (!o.ok) {
            p.reject(o.err);
            continue;
          }
          this.created(workspaceId, o.event);
          p.resolve(o.event.job);
        }
      }
    } finally {
      this.queues.delete(workspaceId);
    }
  }

  /**
   * The batch in one statement, which PostgreSQL commits or undoes whole on its own: no BEGIN and
   * COMMIT around it, two round trips fewer per batch. When it wrote nothing (the workspace
   * cannot pay for all of them, or the statement failed) the creations are written one by one,
   * each in its own statement, so that the jobs the balance covers are still created and one bad
   * creation fails alone.
   */
  private async write(workspaceId: string, batch: Pending[]): Promise<Outcome[]> {
    if (batch.length > 1) {
      const createdAt = nowIso();
      const prepared = batch.map((p) => this.prepare(p, createdAt));
      const ids = await insertJobs(this.db, this.db, workspaceId, createdAt, prepared).catch(() => null);
      if (ids) return prepared.map((x) => written(x, ids));
    }
    const outcomes: Outcome[] = [];
    for (const p of batch) {
      try {
        outcomes.push(await this.writeOne(workspaceId, p));
      } catch (err) {
        outcomes.push({ ok: false, err });
      }
    }
    return outcomes;
  }

  /**
   * One creation in its own statement; refused (InsufficientCredits) when the workspace cannot pay.
   * A deadlock or serialization failure is written again (as a transaction of the pool would be):
   * PostgreSQL aborted the whole statement, so nothing of it was kept.
   */
  private async writeOne(workspaceId: string, p: Pending): Promise<Outcome> {
    for (let attempt = 1; ; attempt++) {
      const createdAt = nowIso();
      const x = this.prepare(p, createdAt);
      try {
        const ids = await insertJobs(this.db, this.db, workspaceId, createdAt, [x]);
        return ids ? written(x, ids) : { ok: false, err: await refusal(this.db, p) };
      } catch (err) {
        if (!isTransientConflict(err) || attempt >= TRANSIENT_ATTEMPTS) throw err;
      }
    }
  }

  private prepare(p: Pending, createdAt: string): Prepared {
    const job = newJob(p.id, p.input, createdAt);
    // Runs once per attempt at writing the job: the caller keeps the last answer, for the same id.
    const completion = p.input.onCreated?.(job);
    const { before, after } = announcement(this.db, p.input.workspaceId, { jobId: p.id, seq: 1, event: 'job.updated', job });
    return { p, job, completion, before, after };
  }
}

function written(x: Prepared, ids: Map<string, number>): Outcome {
  return { ok: true, event: { id: ids.get(x.p.id) as number, jobId: x.p.id, seq: 1, event: 'job.updated', job: x.job } };
}

/** Why nothing was written: the workspace cannot pay (the InsufficientCredits to throw) or is gone. */
async function refusal(exec: PgExec, p: Pending): Promise<Error> {
  const ws = await exec.get<{ balance: number; reserved: number }>('SELECT balance, reserved FROM workspaces WHERE id = $1', p.input.workspaceId);
  return ws ? new InsufficientCredits(p.input.cost, ws.balance - ws.reserved) : new Error(`workspace ${p.input.workspaceId} does not exist`);
}

/**
 * One statement for one workspace's creations: the reservation of their total (only while the
 * workspace can pay it: the row is re-checked under its lock), a ledger line each, the jobs,
 * their tasks, the workspace's turn in the queue, the idempotency answers, and the first events
 * with their announcements, in the order given. The events take the next ids of the workspace's
 * event counter (job-events.store.ts), raised once by the batch's size, whose row lock orders
 * the workspace's commits. Answers each job's event id, or null when the workspace cannot pay the
 * total (then nothing was written).
 */
async function insertJobs(exec: PgExec, db: PgDb, workspaceId: string, createdAt: string, rows: Prepared[]): Promise<Map<string, number> | null> {
  const total = rows.reduce((t, x) => t + x.p.input.cost, 0);
  const col = <T extends string | number | null>(f: (x: Prepared) => T): T[] => rows.map(f);
  const done = rows.map((x) => (x.completion ? completionParams(x.completion) : null));
  const out = await exec.all<{ id: number; job_id: string }>(
    `WITH i AS (
       SELECT * FROM unnest($5::text[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], $11::int[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[])
         WITH ORDINALITY AS i(job_id, cost, txn_id, type, label, request_json, status_code, response_json, route, key, data_json, before, after, n)
     ), w AS (
       UPDATE workspaces SET reserved = reserved + $2::bigint, updated_at = CASE WHEN $2::bigint > 0 THEN $3::text ELSE updated_at END
       WHERE id = $1::text AND ($2::bigint = 0 OR balance - reserved >= $2::bigint) RETURNING balance
     ), c AS (
       INSERT INTO credit_transactions (id, workspace_id, kind, amount, balance_after, job_id, created_at)
       SELECT i.txn_id, $1::text, 'reserve', i.cost, w.balance, i.job_id, $3::text FROM w, i WHERE i.cost > 0 ORDER BY i.n
     ), j AS (
       INSERT INTO jobs (id, workspace_id, type, status, stage, progress, label, request_json, created_at, cost, event_seq)
       SELECT i.job_id, $1::text, i.type, 'queued', 'queued', 0, i.label, i.request_json, $3::text, i.cost, 1 FROM w, i ORDER BY i.n
     ), t AS (
       INSERT INTO tasks (kind, ref_id, workspace_id, state, run_at, max_attempts) SELECT 'job.run', i.job_id, $1::text, 'ready', $4::bigint, 3 FROM w, i ORDER BY i.n
     ), q AS (
       INSERT INTO queue_turns (workspace_id) SELECT $1::text FROM w ON CONFLICT (workspace_id) DO NOTHING
     ), k AS (
       UPDATE idempotency_keys SET state = 'done', status_code = i.status_code, response_json = i.response_json
       FROM w, i WHERE i.route IS NOT NULL AND idempotency_keys.workspace_id = $1::text AND idempotency_keys.route = i.route AND idempotency_keys.key = i.key
     ), ctr AS (
       INSERT INTO job_event_counters (workspace_id, last_seq) SELECT $1::text, $19::bigint FROM w
       ON CONFLICT (workspace_id) DO UPDATE SET last_seq = job_event_counters.last_seq + EXCLUDED.last_seq RETURNING last_seq
     ), e AS (
       INSERT INTO job_events (job_id, workspace_id, seq, ws_seq, event, data_json, created_at)
       SELECT i.job_id, $1::text, 1, ctr.last_seq - $19::bigint + i.n, 'job.updated', i.data_json, $4::bigint FROM ctr, i ORDER BY i.n
       RETURNING ws_seq, job_id
     )
     SELECT s.id, s.job_id, CASE WHEN $18::text IS NOT NULL THEN pg_notify($18::text, s.before || s.id::text || s.after) END
     FROM (SELECT e.ws_seq AS id, e.job_id, i.before, i.after FROM e JOIN i ON i.job_id = e.job_id ORDER BY e.ws_seq OFFSET 0) s`,
    workspaceId, total, createdAt, Date.now(),
    col((x) => x.p.id), col((x) => x.p.input.cost), col(() => newId('txn')), col((x) => x.p.input.type), col((x) => x.p.input.label ?? null),
    col((x) => JSON.stringify(x.p.input.request)), done.map((d) => d?.[0] ?? null), done.map((d) => d?.[1] ?? null),
    done.map((d) => d?.[3] ?? null), done.map((d) => d?.[4] ?? null), col((x) => JSON.stringify(x.job)), col((x) => x.before), col((x) => x.after),
    db.jobEventNotifyChannel, rows.length,
  );
  if (out.length === 0) return null;
  return new Map(out.map((r) => [r.job_id, Number(r.id)]));
}
