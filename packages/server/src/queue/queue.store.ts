// A durable task queue in the store, in the spirit of graphile-worker: a task row is written in
// the same transaction as the thing it works on, a worker claims one with a lease that it renews
// while it works, and a task whose lease ran out (its worker died) is claimed again. Attempts
// are counted at claim time, so a task that keeps killing its worker ends after max_attempts.
// Claims take turns between workspaces (round robin): the next task is the oldest due task of
// the workspace whose last claim is the oldest, so one workspace's thousand queued jobs do not
// hold back another's one. queue_turns keeps each workspace's last claim.
import type { SqliteDb } from '../store/sqlite.ts';

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

/** Inserts a task; call inside the transaction that creates what it works on. */
export function enqueueTask(db: SqliteDb, kind: TaskKind, refId: string, workspaceId: string, maxAttempts = 3, runAt = Date.now()): void {
  db.run(
    "INSERT INTO tasks (kind, ref_id, workspace_id, state, run_at, max_attempts) VALUES (?, ?, ?, 'ready', ?, ?)",
    kind, refId, workspaceId, runAt, maxAttempts,
  );
  db.run('INSERT INTO queue_turns (workspace_id, last_claim) VALUES (?, 0) ON CONFLICT (workspace_id) DO NOTHING', workspaceId);
}

/** Removes the tasks of a thing that ended another way (a cancelled job, deleted media). */
export function dropTasks(db: SqliteDb, kind: TaskKind, refId: string): void {
  db.run('DELETE FROM tasks WHERE kind = ? AND ref_id = ?', kind, refId);
}

export interface QueueStore {
  claim(owner: string, leaseMs: number, now?: number): Promise<Task | null>;
  renew(taskId: number, owner: string, leaseMs: number, now?: number): Promise<boolean>;
  complete(taskId: number, owner: string): Promise<void>;
  /** Puts the task back to run at `runAt`; `countAttempt: false` for a task that only waited. */
  reschedule(taskId: number, owner: string, runAt: number, error: string | null, countAttempt: boolean): Promise<void>;
  depth(kind: TaskKind): Promise<number>;
}

export class SqliteQueueStore implements QueueStore {
  private readonly db: SqliteDb;
  constructor(db: SqliteDb) {
    this.db = db;
  }

  async claim(owner: string, leaseMs: number, now: number = Date.now()): Promise<Task | null> {
    return this.db.transaction(() => {
      // The workspace whose turn it is: the least recently served of those with a due task.
      const turn = this.db.get<{ workspace_id: string; task_id: number }>(
        `SELECT workspace_id, task_id FROM (
           SELECT q.workspace_id, q.last_claim, (
             SELECT t.id FROM tasks t WHERE t.workspace_id = q.workspace_id
             AND ((t.state = 'ready' AND t.run_at <= ?) OR (t.state = 'leased' AND t.lease_expires_at <= ?))
             ORDER BY t.run_at, t.id LIMIT 1
           ) AS task_id FROM queue_turns q
         ) WHERE task_id IS NOT NULL ORDER BY last_claim, workspace_id LIMIT 1`,
        now, now,
      );
      if (!turn) return null;
      const row = this.db.get<TaskRow>(
        `UPDATE tasks SET state = 'leased', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1 WHERE id = ?
         RETURNING id, kind, ref_id, workspace_id, attempts, max_attempts`,
        owner, now + leaseMs, turn.task_id,
      );
      this.db.run('UPDATE queue_turns SET last_claim = ? WHERE workspace_id = ?', this.db.nextSeq(), turn.workspace_id);
      return row ? toTask(row) : null;
    });
  }

  async renew(taskId: number, owner: string, leaseMs: number, now: number = Date.now()): Promise<boolean> {
    return this.db.run(
      "UPDATE tasks SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND state = 'leased'",
      now + leaseMs, taskId, owner,
    ) === 1;
  }

  async complete(taskId: number, owner: string): Promise<void> {
    this.db.run('DELETE FROM tasks WHERE id = ? AND lease_owner = ?', taskId, owner);
  }

  async reschedule(taskId: number, owner: string, runAt: number, error: string | null, countAttempt: boolean): Promise<void> {
    this.db.run(
      `UPDATE tasks SET state = 'ready', run_at = ?, lease_owner = NULL, lease_expires_at = NULL, last_error = ?,
       attempts = attempts - ? WHERE id = ? AND lease_owner = ?`,
      runAt, error, countAttempt ? 0 : 1, taskId, owner,
    );
  }

  async depth(kind: TaskKind): Promise<number> {
    return this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE kind = ? AND state IN ('ready', 'leased')", kind)?.n ?? 0;
  }
}
