// Finished results (matching and report payloads), stored as the JSON text that is served, so
// that reading one is a single indexed lookup and no re-serialisation. A result never changes
// once written, so every process may keep the ones it read in memory.
import type { Sql } from '../store/sql.ts';
import type { JobType } from '../jobs/jobs.schemas.ts';

export interface StoredResult {
  id: string;
  jobId: string;
  kind: JobType;
  payloadJson: string;
  evidenceJson: string | null;
}

export interface ResultStore {
  get(workspaceId: string, id: string, kind: JobType): Promise<StoredResult | null>;
  exists(workspaceId: string, id: string): Promise<boolean>;
}

/** Results never change once written, so the most recently read ones are kept in memory. */
export const CACHE_MAX = 500;

export class SqlResultStore implements ResultStore {
  private readonly cache = new Map<string, StoredResult & { workspaceId: string }>();
  private readonly db: Sql;
  constructor(db: Sql) {
    this.db = db;
  }

  async get(workspaceId: string, id: string, kind: JobType): Promise<StoredResult | null> {
    const hit = this.cache.get(id);
    if (hit) return hit.workspaceId === workspaceId && hit.kind === kind ? hit : null;
    const found = await this.read(workspaceId, id, kind);
    if (found) {
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(id, { ...found, workspaceId });
    }
    return found;
  }

  private async read(workspaceId: string, id: string, kind: JobType): Promise<StoredResult | null> {
    const r = await this.db.get<{ id: string; job_id: string; kind: JobType; payload_json: string; evidence_json: string | null }>(
      'SELECT id, job_id, kind, payload_json, evidence_json FROM results WHERE id = ? AND workspace_id = ? AND kind = ?',
      id, workspaceId, kind,
    );
    return r ? { id: r.id, jobId: r.job_id, kind: r.kind, payloadJson: r.payload_json, evidenceJson: r.evidence_json } : null;
  }

  async exists(workspaceId: string, id: string): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS x FROM results WHERE id = ? AND workspace_id = ?', id, workspaceId)) !== undefined;
  }
}
