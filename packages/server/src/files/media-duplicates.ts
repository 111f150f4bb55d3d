// Media by their bytes (decisions §18): an upload of bytes the workspace already has is answered
// with the media that has them, by the index media_content (migration 13). A deleted media's row
// is gone, so its bytes are new again.
import type { Sql } from '../store/sql.ts';

/** The oldest media of a workspace with these bytes: by media_content (workspace_id, sha256, seq). */
export const MEDIA_WITH_BYTES_SQL = 'SELECT id FROM media WHERE workspace_id = ? AND sha256 = ? ORDER BY seq LIMIT 1';

/**
 * The id of the workspace's oldest media with these bytes, or undefined. With `lock` (inside the
 * transaction that would insert) the workspace row is locked first: a second upload of the same
 * bytes waits for the first's commit, and its read after the wait sees the first's row (on
 * PostgreSQL each statement reads what was committed before it; the embedded store runs its
 * transactions one at a time).
 */
export async function mediaWithBytes(db: Sql, workspaceId: string, sha256: string, opts: { lock?: boolean } = {}): Promise<string | undefined> {
  if (opts.lock) await db.get(`SELECT id FROM workspaces WHERE id = ?${db.dialect.forUpdate}`, workspaceId);
  return (await db.get<{ id: string }>(MEDIA_WITH_BYTES_SQL, workspaceId, sha256))?.id;
}
