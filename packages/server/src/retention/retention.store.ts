// What the retention sweep deletes (issue 20, finding 9), one small batch per call so that no
// statement holds the store for long: webhook deliveries that ended (succeeded or failed) and
// their attempts, webhook events no delivery refers to any more, and job events of jobs that are
// no longer queued or running, each when older than the cutoff. Pending deliveries, the events
// they send, and the events of live jobs are never deleted. For job events, each workspace's
// largest removed number is recorded (job_event_counters.pruned_through), so that a stream asked
// to resume before it answers 410 instead of skipping what was removed, in the deleting
// transaction: a stream that reads pruned_through after the commit sees every deletion it
// covers. Several workers may sweep at once (on PostgreSQL): each deletes rows the others have
// not, passing over those another sweep holds.
import type { Sql } from '../store/sql.ts';
import { nowIso } from '../ids.ts';
import { jsonList } from '../store/sql.ts';

/** What one batch removed. */
export interface SweptBatch {
  deliveries: number;
  events: number;
  jobEvents: number;
}

export interface RetentionStore {
  /** Deletes at most `limit` rows of each kind older than `cutoffMs`; answers how many went. */
  sweepBatch(cutoffMs: number, limit: number): Promise<SweptBatch>;
}

export class SqlRetentionStore implements RetentionStore {
  private readonly db: Sql;
  constructor(db: Sql) {
    this.db = db;
  }

  async sweepBatch(cutoffMs: number, limit: number): Promise<SweptBatch> {
    const cutoffIso = nowIso(cutoffMs);
    const deliveries = await this.db.transaction(async (tx) => {
      const ids = (await tx.all<{ id: string }>(
        `SELECT id FROM webhook_deliveries WHERE updated_at < ? AND status IN ('succeeded', 'failed') ORDER BY updated_at LIMIT ?${tx.dialect.forUpdateSkipLocked}`,
        cutoffIso, limit,
      )).map((r) => r.id);
      if (ids.length === 0) return 0;
      await tx.run(`DELETE FROM delivery_attempts WHERE ${tx.dialect.inJsonList('delivery_id')}`, jsonList(ids));
      return tx.run(`DELETE FROM webhook_deliveries WHERE ${tx.dialect.inJsonList('id')}`, jsonList(ids));
    });
    const events = await this.db.run(
      `DELETE FROM events WHERE id IN (SELECT ev.id FROM events ev WHERE ev.created_at < ?
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id) ORDER BY ev.created_at LIMIT ?${this.db.dialect.forUpdateSkipLocked})`,
      cutoffIso, limit,
    );
    const jobEvents = await this.db.transaction(async (tx) => {
      const gone = await tx.all<{ workspace_id: string; ws_seq: number }>(
        `DELETE FROM job_events WHERE id IN (
           SELECT e.id FROM job_events e WHERE e.created_at < ?
             AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = e.job_id AND j.status IN ('queued', 'running'))
           ORDER BY e.created_at LIMIT ?${tx.dialect.forUpdateSkipLocked})
         RETURNING workspace_id, ws_seq`,
        cutoffMs, limit,
      );
      const highest = new Map<string, number>();
      for (const g of gone) highest.set(g.workspace_id, Math.max(highest.get(g.workspace_id) ?? 0, Number(g.ws_seq)));
      for (const [ws, n] of highest) {
        await tx.run('UPDATE job_event_counters SET pruned_through = greatest(pruned_through, ?) WHERE workspace_id = ?', n, ws);
      }
      return gone.length;
    });
    return { deliveries, events, jobEvents };
  }
}
