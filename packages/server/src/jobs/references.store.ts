// Whether the media and entities a job request names exist in the caller's workspace (§5), all
// of a request's references answered by one call. On the embedded store each is one indexed
// lookup in-process; on PostgreSQL (references.store.pg.ts) a round trip costs more than the
// lookup, so the references of concurrent requests are answered together.
import type { SqliteDb } from '../store/sqlite.ts';

export interface Reference {
  kind: 'media' | 'entity';
  id: string;
}

export interface ReferenceStore {
  /** For each reference, in order, whether it exists in the workspace. */
  exist(workspaceId: string, refs: readonly Reference[]): Promise<boolean[]>;
}

export class SqliteReferenceStore implements ReferenceStore {
  private readonly db: SqliteDb;
  constructor(db: SqliteDb) {
    this.db = db;
  }

  async exist(workspaceId: string, refs: readonly Reference[]): Promise<boolean[]> {
    return refs.map((r) => this.db.get(
      r.kind === 'media' ? 'SELECT 1 AS x FROM media WHERE id = ? AND workspace_id = ?' : 'SELECT 1 AS x FROM entities WHERE id = ? AND workspace_id = ?',
      r.id, workspaceId,
    ) !== undefined);
  }
}
