// Finished results on PostgreSQL (see results.store.ts), with the same in-memory cache: a
// result never changes once written, so every process may keep the ones it read.
import type { PgDb } from '../store/pg.ts';
import { CACHE_MAX, type ResultStore, type StoredResult } from './results.store.ts';
import type { JobType } from '../jobs/jobs.schemas.ts';

export class PgResultStore implements ResultStore {
  private readonly cache = new Map<string, StoredResult & { workspaceId: string }>();
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  async get(workspaceId: string, id: string, kind: JobType): Promise<StoredResult | null> {
    const hit = this.cache.get(id);
    if (hit) return hit.workspaceId === workspaceId && hit.kind === kind ? hit : null;
    const r = await this.db.get<{ id: string; job_id: string; kind: JobType; payload_json: string; evidence_json: string | null }>(
      'SELECT id, job_id, kind, payload_json, evidence_json FROM results WHERE id = $1 AND workspace_id = $2 AND kind = $3',
      id, workspaceId, kind,
    );
    if (!r) return null;
    const found: StoredResult = { id: r.id, jobId: r.job_id, kind: r.kind, payloadJson: r.payload_json, evidenceJson: r.evidence_json };
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(id, { ...found, workspaceId });
    return found;
  }

  async exists(workspaceId: string, id: string): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS x FROM results WHERE id = $1 AND workspace_id = $2', id, workspaceId)) !== undefined;
  }
}
