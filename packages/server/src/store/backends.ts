// The two store backends behind one set of interfaces: the embedded SQLite file under DATA_DIR
// (the default: nothing to install), or PostgreSQL when DATABASE_URL is set, for several API
// processes and workers on different hosts. The PostgreSQL modules (and the pg client) are
// loaded only when DATABASE_URL selects them.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config.ts';
import { SqliteDb } from './sqlite.ts';
import { FileBlobStore } from './blob-store.ts';
import { SqliteWorkspaceStore, type WorkspaceStore } from '../workspace/workspace.store.ts';
import { SqliteJobStore } from '../jobs/jobs.store.ts';
import { SqliteQueueStore } from '../queue/queue.store.ts';
import { SqliteMediaStore } from '../files/media.store.ts';
import { SqliteContentLinkStore } from '../files/content-links.store.ts';
import { MediaChangeBus } from '../events/media-change-bus.ts';
import { SqliteEntityStore } from '../entities/entities.store.ts';
import { SqliteResultStore } from '../results/results.store.ts';
import { SqliteCreditStore, type CreditStore } from '../credits/credits.store.ts';
import { SqliteFeedbackStore } from '../feedback/feedback.store.ts';
import { SqliteWebhookStore } from '../webhooks/webhooks.store.ts';
import { SqliteIdempotencyStore } from '../idempotency/idempotency.store.ts';
import { MemoryJobEventBus } from '../events/job-event-bus.ts';
import { SqliteRetentionStore } from '../retention/retention.store.ts';
import { SqliteReferenceStore } from '../jobs/references.store.ts';
import { localTaskSignal } from '../queue/task-signal.ts';
import type { JobEventHook, OpenedStores, StoreBackend, Stores } from './stores.ts';

export type { JobEventHook, OpenedStores, StoreBackend, Stores } from './stores.ts';

/** The embedded backend's stores, with its database for tests and benches that look inside. */
export interface EmbeddedStores extends Stores {
  db: SqliteDb;
}

/** The embedded store's database; throws on another backend (for tests and benches of the embedded store). */
export function embeddedDb(stores: Stores): SqliteDb {
  if (!('db' in stores) || !(stores.db instanceof SqliteDb)) throw new Error('this needs the embedded store (unset DATABASE_URL)');
  return stores.db;
}

function sqliteBackend(db: SqliteDb): StoreBackend {
  return {
    kind: 'sqlite',
    ping: async () => db.ping(),
    aggregate: async <T>(sql: string) => db.all<T>(sql),
    serviceKey: async (name: string) => {
      db.run('INSERT OR IGNORE INTO service_keys (name, value) VALUES (?, ?)', name, randomBytes(32).toString('base64'));
      return Buffer.from(db.get<{ value: string }>('SELECT value FROM service_keys WHERE name = ?', name)?.value ?? '', 'base64');
    },
    close: async () => db.close(),
  };
}

/**
 * Opens the configured backend. `onJobEvent` is told of every job event this process commits
 * (after the bus was told), for the webhook dispatcher's wake-up.
 */
export async function openBackend(config: Config, onJobEvent: JobEventHook, log?: (msg: string, extra?: Record<string, unknown>) => void): Promise<OpenedStores> {
  if (config.databaseUrl) {
    const { openPgStores } = await import('./pg-stores.ts');
    // REDIS_URL carries job events between processes instead of LISTEN/NOTIFY (docs/deploy.md).
    const redis = config.redisUrl ? { url: config.redisUrl, catchUpMs: config.eventCatchUpSec * 1000 } : undefined;
    return openPgStores(config.databaseUrl, config.mediaDir, onJobEvent, log, config.databaseSchema === 'public' ? {} : { schema: config.databaseSchema }, redis);
  }
  const db = new SqliteDb(path.join(config.dataDir, 'rapport.db'));
  const bus = new MemoryJobEventBus();
  const mediaBus = new MediaChangeBus();
  const stores: EmbeddedStores = {
    db,
    backend: sqliteBackend(db),
    workspaces: new SqliteWorkspaceStore(db),
    jobs: new SqliteJobStore(db, (ws, e) => {
      bus.publish(ws, e);
      onJobEvent(ws, e);
    }),
    queue: new SqliteQueueStore(db),
    media: new SqliteMediaStore(db, (ws, id) => mediaBus.publish(ws, id)),
    contentLinks: new SqliteContentLinkStore(db),
    entities: new SqliteEntityStore(db),
    references: new SqliteReferenceStore(db),
    results: new SqliteResultStore(db),
    blobs: new FileBlobStore(config.mediaDir),
    credits: new SqliteCreditStore(db),
    feedback: new SqliteFeedbackStore(db),
    webhooks: new SqliteWebhookStore(db),
    idempotency: new SqliteIdempotencyStore(db),
    retention: new SqliteRetentionStore(db),
  };
  return { stores, bus, mediaBus, taskSignal: localTaskSignal };
}

/** The stores the admin command line needs, without the rest of the service. */
export async function openAdminStores(config: Config): Promise<{ workspaces: WorkspaceStore; credits: CreditStore; close(): Promise<void> }> {
  if (config.databaseUrl) {
    const { openPgAdminStores } = await import('./pg-stores.ts');
    return openPgAdminStores(config.databaseUrl, config.databaseSchema);
  }
  const db = new SqliteDb(path.join(config.dataDir, 'rapport.db'));
  return { workspaces: new SqliteWorkspaceStore(db), credits: new SqliteCreditStore(db), close: async () => db.close() };
}
