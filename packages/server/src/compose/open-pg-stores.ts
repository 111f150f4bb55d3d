// The stores on PostgreSQL, opened on one pool; loaded only when DATABASE_URL is set. What
// differs from the embedded engine is named by its mechanism: the job event bus (LISTEN/NOTIFY,
// or Redis pub/sub), the task signal (NOTIFY), and job creation in one statement per workspace
// batch (jobs/job-batch-insert.ts), whose events are announced in the statement that writes them.
import { PgDb, type PgOptions } from '../store/pg.ts';
import { backendOf, storesOn, type JobEventHook, type OpenedStores, type StoresWithDb } from './stores.ts';
import { MediaChangeBus } from '../events/media-change-bus.ts';
import { announcement, PgJobEventBus } from '../events/job-event-bus.pg.ts';
import type { JobEventBus } from '../events/job-event-bus.ts';
import type { RedisBusOptions } from '../events/job-event-bus.redis.ts';
import { PgTaskSignal } from '../queue/task-signal.pg.ts';
import { BatchInsertJobCreation } from '../jobs/job-batch-insert.ts';
import type { JobStoreEngine } from '../jobs/jobs.store.ts';

/** The PostgreSQL stores, for tests that open them on their own schema. */
export interface PgStores extends StoresWithDb {
  db: PgDb;
}

/** What the job store does on PostgreSQL: announces each event in the statement that writes it, and creates jobs in batch statements. */
export function pgJobEngine(db: PgDb): JobStoreEngine {
  return {
    announcer: { channel: db.jobEventNotifyChannel, payload: (workspaceId, event) => announcement(db, workspaceId, event) },
    creation: (_events, created) => new BatchInsertJobCreation(db, created),
  };
}

/**
 * Opens the stores on `url` (migrating under an advisory lock). `options.schema` keeps a test's
 * tables apart from every other test's in one database. With `redis`, job events travel between
 * processes by Redis pub/sub (job-event-bus.redis.ts) rather than LISTEN/NOTIFY.
 */
export async function openPgStores(
  url: string,
  mediaDir: string,
  onJobEvent: JobEventHook,
  log?: (msg: string, extra?: Record<string, unknown>) => void,
  options: PgOptions = {},
  redis?: RedisBusOptions,
): Promise<OpenedStores & { stores: PgStores }> {
  // With Redis carrying job events, nobody LISTENs to them: their statements send no NOTIFY.
  const db = await PgDb.open(url, { ...options, notifyJobEvents: redis === undefined });
  let bus: JobEventBus;
  try {
    bus = redis ? await (await import('../events/job-event-bus.redis.ts')).RedisJobEventBus.start(db, redis, log) : await PgJobEventBus.start(db, log);
  } catch (err) {
    await db.close();
    throw err;
  }
  const mediaBus = new MediaChangeBus();
  const taskSignal = new PgTaskSignal(db, log);
  const backend = backendOf(db, async () => {
    await bus.close?.();
    await taskSignal.close();
  });
  const stores = storesOn(db, {
    backend, mediaDir, bus, mediaBus, onJobEvent,
    jobEngine: pgJobEngine(db),
  });
  return { stores: { ...stores, db }, bus, mediaBus, taskSignal };
}
