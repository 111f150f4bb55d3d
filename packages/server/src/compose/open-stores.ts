// The two engines behind one set of stores: the embedded SQLite file under DATA_DIR (the
// default: nothing to install), or PostgreSQL when DATABASE_URL is set, for several API
// processes and workers on different hosts. Every store is written once against sql.ts and
// opened here on the engine's adapter; what differs by engine is only the job event bus, the
// task signal and the job creation mechanism (open-pg-stores.ts). The PostgreSQL modules (and the pg
// client) are loaded only when DATABASE_URL selects them.
import path from 'node:path';
import type { Config } from '../config.ts';
import { SqliteDatabase } from '../store/sqlite.ts';
import type { SqlDatabase } from '../store/sql.ts';
import { SqlWorkspaceStore, type WorkspaceStore } from '../workspace/workspace.store.ts';
import { MediaChangeBus } from '../events/media-change-bus.ts';
import { SqlCreditStore, type CreditStore } from '../credits/credits.store.ts';
import { MemoryJobEventBus } from '../events/job-event-bus.ts';
import { localTaskSignal } from '../queue/task-signal.ts';
import { backendOf, storesOn, type JobEventHook, type OpenedStores } from './stores.ts';

/**
 * Opens the stores on the configured engine. `onJobEvent` is told of every job event this process commits
 * (after the bus was told), for the webhook dispatcher's wake-up.
 */
export async function openStores(config: Config, onJobEvent: JobEventHook, log?: (msg: string, extra?: Record<string, unknown>) => void): Promise<OpenedStores> {
  if (config.databaseUrl) {
    const { openPgStores } = await import('./open-pg-stores.ts');
    // REDIS_URL carries job events between processes instead of LISTEN/NOTIFY (docs/deploy.md).
    const redis = config.redisUrl ? { url: config.redisUrl, catchUpMs: config.eventCatchUpSec * 1000 } : undefined;
    const options = { timeoutMs: config.databaseTimeoutSec * 1000, ...(config.databaseSchema === 'public' ? {} : { schema: config.databaseSchema }) };
    return openPgStores(config.databaseUrl, config.mediaDir, onJobEvent, log, options, redis);
  }
  const db = await SqliteDatabase.open(path.join(config.dataDir, 'rapport.db'));
  const bus = new MemoryJobEventBus();
  const mediaBus = new MediaChangeBus();
  const stores = storesOn(db, { backend: backendOf(db), mediaDir: config.mediaDir, bus, mediaBus, onJobEvent });
  return { stores, bus, mediaBus, taskSignal: localTaskSignal };
}

/** The stores the admin command line needs, without the rest of the service. */
export async function openAdminStores(config: Config): Promise<{ workspaces: WorkspaceStore; credits: CreditStore; close(): Promise<void> }> {
  let db: SqlDatabase;
  if (config.databaseUrl) {
    const { PgDb } = await import('../store/pg.ts');
    db = await PgDb.open(config.databaseUrl, { max: 2, timeoutMs: config.databaseTimeoutSec * 1000, ...(config.databaseSchema === 'public' ? {} : { schema: config.databaseSchema }) });
  } else {
    db = await SqliteDatabase.open(path.join(config.dataDir, 'rapport.db'));
  }
  return { workspaces: new SqlWorkspaceStore(db), credits: new SqlCreditStore(db), close: () => db.close() };
}
