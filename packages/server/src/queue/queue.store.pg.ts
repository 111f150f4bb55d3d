// The task queue on PostgreSQL (see queue.store.ts), as graphile-worker and pg-boss do it: a
// claim locks the task row FOR UPDATE SKIP LOCKED, so workers on any number of hosts never take
// the same task and never wait on each other, and sets a lease; a task whose lease ran out (its
// worker died) is due again. Claims take turns between workspaces as on the embedded store: the
// workspaces with a due task, least recently served first, are tried in order.
import type { PgDb, PgExec } from '../store/pg.ts';
import { toTask, type QueueStore, type Task, type TaskKind, type TaskRow } from './queue.store.ts';

/** Workspaces tried per claim before falling back to any due task. */
const TURNS_PER_CLAIM = 8;
const DUE = "((t.state = 'ready' AND t.run_at <= $1) OR (t.state = 'leased' AND t.lease_expires_at <= $1))";

/** Inserts a task; call inside the transaction that creates what it works on. */
export async function enqueueTaskPg(tx: PgExec, kind: TaskKind, refId: string, workspaceId: string, maxAttempts = 3, runAt = Date.now()): Promise<void> {
  await tx.run("INSERT INTO tasks (kind, ref_id, workspace_id, state, run_at, max_attempts) VALUES ($1, $2, $3, 'ready', $4, $5)", kind, refId, workspaceId, runAt, maxAttempts);
  await tx.run('INSERT INTO queue_turns (workspace_id) VALUES ($1) ON CONFLICT (workspace_id) DO NOTHING', workspaceId);
}

/** Removes the tasks of a thing that ended another way (a cancelled job, deleted media). */
export async function dropTasksPg(tx: PgExec, kind: TaskKind, refId: string): Promise<void> {
  await tx.run('DELETE FROM tasks WHERE kind = $1 AND ref_id = $2', kind, refId);
}

export class PgQueueStore implements QueueStore {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  async claim(owner: string, leaseMs: number, now: number = Date.now()): Promise<Task | null> {
    const turns = await this.db.all<{ workspace_id: string }>(
      `SELECT q.workspace_id FROM queue_turns q WHERE EXISTS (SELECT 1 FROM tasks t WHERE t.workspace_id = q.workspace_id AND ${DUE})
       ORDER BY q.last_claim, q.workspace_id LIMIT ${TURNS_PER_CLAIM}`,
      now,
    );
    for (const { workspace_id } of turns) {
      const task = await this.claimIn(workspace_id, owner, leaseMs, now);
      if (task) return task;
    }
    // Every due task of those workspaces is being claimed right now by another worker.
    return turns.length === TURNS_PER_CLAIM ? this.claimIn(null, owner, leaseMs, now) : null;
  }

  private async claimIn(workspaceId: string | null, owner: string, leaseMs: number, now: number): Promise<Task | null> {
    const row = await this.db.get<TaskRow>(
      `WITH picked AS (
         SELECT t.id, t.workspace_id FROM tasks t WHERE ($2::text IS NULL OR t.workspace_id = $2::text) AND ${DUE}
         ORDER BY t.run_at, t.id LIMIT 1 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE tasks SET state = 'leased', lease_owner = $3, lease_expires_at = $4, attempts = tasks.attempts + 1
         FROM picked WHERE tasks.id = picked.id
         RETURNING tasks.id, tasks.kind, tasks.ref_id, tasks.workspace_id, tasks.attempts, tasks.max_attempts
       ), turn AS (
         UPDATE queue_turns SET last_claim = nextval('rapport_seq') WHERE workspace_id IN (SELECT workspace_id FROM claimed)
       )
       SELECT * FROM claimed`,
      now, workspaceId, owner, now + leaseMs,
    );
    return row ? toTask(row) : null;
  }

  async renew(taskId: number, owner: string, leaseMs: number, now: number = Date.now()): Promise<boolean> {
    return (await this.db.run("UPDATE tasks SET lease_expires_at = $1 WHERE id = $2 AND lease_owner = $3 AND state = 'leased'", now + leaseMs, taskId, owner)) === 1;
  }

  async complete(taskId: number, owner: string): Promise<void> {
    await this.db.run('DELETE FROM tasks WHERE id = $1 AND lease_owner = $2', taskId, owner);
  }

  async reschedule(taskId: number, owner: string, runAt: number, error: string | null, countAttempt: boolean): Promise<void> {
    await this.db.run(
      `UPDATE tasks SET state = 'ready', run_at = $1, lease_owner = NULL, lease_expires_at = NULL, last_error = $2,
       attempts = attempts - $3 WHERE id = $4 AND lease_owner = $5`,
      runAt, error, countAttempt ? 0 : 1, taskId, owner,
    );
  }

  async depth(kind: TaskKind): Promise<number> {
    return (await this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE kind = $1 AND state IN ('ready', 'leased')", kind))?.n ?? 0;
  }
}
