// The change feed behind the media event streams (GET /v1/files/:id/events, GET /v1/files/events):
// every write to a media row that a client can see (upload, analysis started, progress, ready,
// failed, re-analysis asked, transcript attached) gives the row the next number of one counter,
// inside the write's transaction. Transactions are serialised by the store's write lock, so the
// numbers grow in commit order, across processes too, and a stream that resumes after number n
// finds every media that changed since, in its latest state. Deleting a row gives no number back.
import type { SqliteDb } from '../store/sqlite.ts';

/** Inside a transaction: numbers the media's change; answers its workspace, or null when it is gone. */
export function recordMediaChange(db: SqliteDb, mediaId: string): string | null {
  const r = db.get<{ workspace_id: string }>('SELECT workspace_id FROM media WHERE id = ?', mediaId);
  if (!r) return null;
  const seq = (db.get<{ value: number }>("UPDATE counters SET value = value + 1 WHERE name = 'media_changes' RETURNING value") as { value: number }).value;
  db.run('UPDATE media SET changed_seq = ? WHERE id = ?', seq, mediaId);
  return r.workspace_id;
}

/** The newest change number of the store: where a stream without Last-Event-ID starts. */
export function latestMediaChange(db: SqliteDb): number {
  return db.get<{ value: number }>("SELECT value FROM counters WHERE name = 'media_changes'")?.value ?? 0;
}
