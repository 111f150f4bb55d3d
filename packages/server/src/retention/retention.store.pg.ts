// The retention sweep's deletions on PostgreSQL (see retention.store.ts): the same rows, one
// statement per kind. Several workers may sweep at once; each deletes rows the others have not.
import type { PgDb } from '../store/pg.ts';
import { nowIso } from '../ids.ts';
import type { RetentionStore, SweptBatch } from './retention.store.ts';

export class PgRetentionStore implements RetentionStore {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  async sweepBatch(cutoffMs: number, limit: number): Promise<SweptBatch> {
    const cutoffIso = nowIso(cutoffMs);
    const deliveries = (await this.db.get<{ n: number }>(
      `WITH d AS (
         SELECT id FROM webhook_deliveries WHERE updated_at < $1 AND status IN ('succeeded', 'failed') ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ), a AS (
         DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM d)
       ), x AS (
         DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM d) RETURNING 1
       )
       SELECT COUNT(*) AS n FROM x`,
      cutoffIso, limit,
    ))?.n ?? 0;
    const events = await this.db.run(
      `DELETE FROM events WHERE id IN (SELECT ev.id FROM events ev WHERE ev.created_at < $1
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id) ORDER BY ev.created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      cutoffIso, limit,
    );
    // The counter row is updated in the deleting statement: a stream that reads pruned_through
    // after this commits sees every deletion it covers.
    const jobEvents = (await this.db.get<{ n: number }>(
      `WITH gone AS (
         DELETE FROM job_events WHERE id IN (
           SELECT e.id FROM job_events e WHERE e.created_at < $1
             AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = e.job_id AND j.status IN ('queued', 'running'))
           ORDER BY e.created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING workspace_id, ws_seq
       ), highest AS (
         SELECT workspace_id, MAX(ws_seq) AS m, COUNT(*) AS n FROM gone GROUP BY workspace_id
       ), c AS (
         UPDATE job_event_counters c SET pruned_through = GREATEST(c.pruned_through, h.m) FROM highest h WHERE c.workspace_id = h.workspace_id
       )
       SELECT COALESCE(SUM(n), 0) AS n FROM highest`,
      cutoffMs, limit,
    ))?.n ?? 0;
    return { deliveries: Number(deliveries), events, jobEvents: Number(jobEvents) };
  }
}
