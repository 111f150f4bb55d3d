// A durable task queue in the store, in the spirit of graphile-worker: a task row is written in
// the same transaction as the thing it works on, a worker claims one with a lease that it renews
// while it works, and a task whose lease ran out (its worker died) is claimed again. Attempts
// are counted at claim time, so a task that keeps killing its worker ends after max_attempts.
// Claims take turns between workspaces (round robin): the next task is the oldest due task of
// the workspace whose last claim is the oldest, so one workspace's thousand queued jobs do not
// hold back another's one. queue_turns keeps each workspace's last claim.
//
// How a claim takes its task differs by engine, by mechanism: on PostgreSQL (several workers on
// several hosts) one statement locks the task row FOR UPDATE SKIP LOCKED, as graphile-worker and
// pg-boss do, so that workers never take the same task and never wait on each other, trying the
// least recently served workspaces in order; on the embedded engine, whose transactions run one
// at a time, one transaction picks the workspace whose turn it is and its oldest due task.
import type { Sql } from '../store/sql.ts';

export type TaskKind = 'media.analyze' | 'job.run';

export interface Task {
  id: number;
  kind: TaskKind;
  refId: string;
  workspaceId: string;
  attempts: number;
  maxAttempts: number;
}

export interface TaskRow {
  id: number;
  kind: TaskKind;
  ref_id: string;
  workspace_id: string;
  attempts: number;
  max_attempts: number;
}

export const toTask = (r: TaskRow): Task => ({
  id: r.id,
  kind: r.kind,
  refId: r.ref_id,
  workspaceId: r.workspace_id,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
});

/** Workspaces tried per claim on PostgreSQL before falling back to any due task. */
const TURNS_PER_CLAIM = 8;
const DUE = "((t.state = 'ready' AND t.run_at <= ?1) OR (t.state = 'leased' AND t.lease_expires_at <= ?1))";

/** Inserts a task; call inside the transaction that creates what it works on. */
export async function enqueueTask(tx: Sql, kind: TaskKind, refId: string, workspaceId: string, maxAttempts = 3, runAt = Date.now()): Promise<void> {
  await tx.run("INSERT INTO tasks (kind, ref_id, workspace_id, state, run_at, max_attempts) VALUES (?, ?, ?, 'ready', ?, ?)", kind, refId, workspaceId, runAt, maxAttempts);
  await tx.run('INSERT INTO queue_turns (workspace_id, last_claim) VALUES (?, 0) ON CONFLICT (workspace_id) DO NOTHING', workspaceId);
}

/** Removes the tasks of a thing that ended another way (a cancelled job, deleted media). */
export async function dropTasks(tx: Sql, kind: TaskKind, refId: string): Promise<void> {
  await tx.run('DELETE FROM tasks WHERE kind = ? AND ref_id = ?', kind, refId);
}

export interface QueueStore {
  claim(owner: string, leaseMs: number, now?: number): Promise<Task | null>;
  renew(taskId: number, owner: string, leaseMs: number, now?: number): Promise<boolean>;
  complete(taskId: number, owner: string): Promise<void>;
  /** Puts the task back to run at `runAt`; `countAttempt: false` for a task that only waited. */
  reschedule(taskId: number, owner: string, runAt: number, error: string | null, countAttempt: boolean): Promise<void>;
  depth(kind: TaskKind): Promise<number>;
}

export class SqlQueueStore implements QueueStore {
  private readonly db: Sql;
  constructor(db: Sql) {
    this.db = db;
  }

  async claim(owner: string, leaseMs: number, now: number = Date.now()): Promise<Task | null> {
    if (this.db.dialect.name === 'sqlite') return this.claimInTransaction(owner, leaseMs, now);
    const turns = await this.db.all<{ workspace_id: string }>(
      `SELECT q.workspace_id FROM queue_turns q WHERE EXISTS (SELECT 1 FROM tasks t WHERE t.workspace_id = q.workspace_id AND ${DUE})
       ORDER BY q.last_claim, q.workspace_id LIMIT ${TURNS_PER_CLAIM}`,
      now,
    );
    for (const { workspace_id } of turns) {
      const task = await this.claimSkipLocked(workspace_id, owner, leaseMs, now);
      if (task) return task;
    }
    // Every due task of those workspaces is being claimed right now by another worker.
    return turns.length === TURNS_PER_CLAIM ? this.claimSkipLocked(null, owner, leaseMs, now) : null;
  }

  /** PostgreSQL: one statement takes the oldest due task of the workspace (or any) that no other claim holds. */
  private async claimSkipLocked(workspaceId: string | null, owner: string, leaseMs: number, now: number): Promise<Task | null> {
    const row = await this.db.get<TaskRow>(
      `WITH picked AS (
         SELECT t.id, t.workspace_id FROM tasks t WHERE (CAST(?2 AS TEXT) IS NULL OR t.workspace_id = CAST(?2 AS TEXT)) AND ${DUE}
         ORDER BY t.run_at, t.id LIMIT 1 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE tasks SET state = 'leased', lease_owner = ?3, lease_expires_at = ?4, attempts = tasks.attempts + 1
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

  /** The embedded engine: the workspace whose turn it is, the least recently served of those with a due task, and its oldest due task. */
  private claimInTransaction(owner: string, leaseMs: number, now: number): Promise<Task | null> {
    return this.db.transaction(async (tx) => {
      const turn = await tx.get<{ workspace_id: string; task_id: number }>(
        `SELECT workspace_id, task_id FROM (
           SELECT q.workspace_id, q.last_claim, (
             SELECT t.id FROM tasks t WHERE t.workspace_id = q.workspace_id AND ${DUE}
             ORDER BY t.run_at, t.id LIMIT 1
           ) AS task_id FROM queue_turns q
         ) WHERE task_id IS NOT NULL ORDER BY last_claim, workspace_id LIMIT 1`,
        now,
      );
      if (!turn) return null;
      const row = await tx.get<TaskRow>(
        `UPDATE tasks SET state = 'leased', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1 WHERE id = ?
         RETURNING id, kind, ref_id, workspace_id, attempts, max_attempts`,
        owner, now + leaseMs, turn.task_id,
      );
      await tx.run("UPDATE queue_turns SET last_claim = nextval('rapport_seq') WHERE workspace_id = ?", turn.workspace_id);
      return row ? toTask(row) : null;
    });
  }

  async renew(taskId: number, owner: string, leaseMs: number, now: number = Date.now()): Promise<boolean> {
    return (await this.db.run("UPDATE tasks SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND state = 'leased'", now + leaseMs, taskId, owner)) === 1;
  }

  async complete(taskId: number, owner: string): Promise<void> {
    await this.db.run('DELETE FROM tasks WHERE id = ? AND lease_owner = ?', taskId, owner);
  }

  async reschedule(taskId: number, owner: string, runAt: number, error: string | null, countAttempt: boolean): Promise<void> {
    await this.db.run(
      `UPDATE tasks SET state = 'ready', run_at = ?, lease_owner = NULL, lease_expires_at = NULL, last_error = ?,
       attempts = attempts - ? WHERE id = ? AND lease_owner = ?`,
      runAt, error, countAttempt ? 0 : 1, taskId, owner,
    );
  }

  async depth(kind: TaskKind): Promise<number> {
    return (await this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE kind = ? AND state IN ('ready', 'leased')", kind))?.n ?? 0;
  }
}
