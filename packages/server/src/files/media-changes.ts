// The change feed behind the media event streams (GET /v1/files/:id/events, GET /v1/files/events):
// every write to a media row that a client can see (upload, analysis started, progress, ready,
// failed, re-analysis asked, transcript attached) gives the row the next number of its
// workspace's counter (`media_changes:<workspace id>`; per workspace, so that the numbers a
// tenant sees say nothing of other workspaces' activity: issue 20, finding 13), inside the
// write's transaction. Transactions are serialised by the store's write lock (on PostgreSQL the
// counter row's lock, held until commit), so the numbers grow in commit order, across processes too, and a stream that resumes after number n finds every
// media of the workspace that changed since, in its latest state. Deleting a row gives no number back.
import type { Sql } from '../store/sql.ts';

/** The counter row of a workspace's media changes. */
export const mediaCounter = (workspaceId: string): string => `media_changes:${workspaceId}`;

/** Inside a transaction: numbers the media's change; answers its workspace, or null when it is gone. */
export async function recordMediaChange(tx: Sql, mediaId: string): Promise<string | null> {
  const r = await tx.get<{ workspace_id: string }>('SELECT workspace_id FROM media WHERE id = ?', mediaId);
  if (!r) return null;
  await tx.run('UPDATE media SET changed_seq = ? WHERE id = ?', await nextMediaChange(tx, r.workspace_id), mediaId);
  return r.workspace_id;
}

/**
 * Inside a transaction: takes the workspace's next change number, for a row written with it (a
 * new row is numbered as it is inserted: on the embedded store an UPDATE after would rewrite the
 * whole row, a transcript of megabytes included).
 */
export async function nextMediaChange(tx: Sql, workspaceId: string): Promise<number> {
  const c = await tx.get<{ value: number }>(
    'INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value',
    mediaCounter(workspaceId),
  );
  return (c as { value: number }).value;
}

/** The workspace's newest change number: where a stream without Last-Event-ID starts. */
export async function latestMediaChange(tx: Sql, workspaceId: string): Promise<number> {
  return (await tx.get<{ value: number }>('SELECT value FROM counters WHERE name = ?', mediaCounter(workspaceId)))?.value ?? 0;
}

